import type { TurnOutcome } from '../../core/agent/loop/runAgent';
import type { SlashCommand } from '../../core/prompts/slashCommands';
import type { SubmitResult } from '../common/keelApi';

/** What the built-in slash commands act on; each feature provides its part (keelHost.ts). */
export interface CommandTargets {
	newChat(): void;
	compact(): Promise<string>;
	/** /mode, /plan, /act: switches (a pick when no name is given); the answer names the mode. */
	setMode(name?: string): Promise<string>;
	/** /model: switches to the named model, or opens the picker. */
	setModel(name?: string): Promise<string>;
	draftAgentsMd(): Promise<TurnOutcome>;
}

type BuiltIn = (targets: CommandTargets, args: string) => Promise<SubmitResult>;

const answer = (command: string, message: string): SubmitResult => ({ kind: 'command', command, message });

/** The built-in commands (core/prompts/slashCommands.ts lists them for completion), by name. */
const BUILT_INS: Record<string, BuiltIn> = {
	new: async targets => {
		targets.newChat();
		return answer('new', 'Started a new chat.');
	},
	compact: async targets => answer('compact', await targets.compact()),
	model: async (targets, args) => answer('model', await targets.setModel(args || undefined)),
	mode: async (targets, args) => answer('mode', await targets.setMode(args || undefined)),
	plan: async targets => answer('plan', await targets.setMode('plan')),
	act: async targets => answer('act', await targets.setMode('act')),
	init: async targets => ({
		kind: 'prompt',
		outcome: await targets.draftAgentsMd(),
		attachments: [],
		command: 'init',
	}),
};

export function isBuiltIn(command: SlashCommand): boolean {
	return Object.hasOwn(BUILT_INS, command.name);
}

export function runBuiltIn(command: SlashCommand, targets: CommandTargets): Promise<SubmitResult> {
	return BUILT_INS[command.name](targets, command.args);
}

/** The names handled here; core lists the same ones for completion (a unit test holds them equal). */
export const BUILT_IN_NAMES: readonly string[] = Object.keys(BUILT_INS);
