import * as vscode from 'vscode';
import { describeMode } from '../../core/modes/modes';
import type { Event } from '../../core/util/emitter';
import type { FeatureCommands } from '../common/commandIds';
import type { KeelApi } from '../common/keelApi';
import { reportOutcome } from '../notifications/commandOutcome';
import type { ActiveConversation } from '../common/conversation';
import type { ProjectContext } from './projectContext';

type ProjectContextApi = Pick<
	KeelApi,
	'rules' | 'reloadRules' | 'draftAgentsMd' | 'mode' | 'modes' | 'setMode' | 'onDidChangeState'
>;

/** Rules and modes as the extension's API offers them; `checkpointsChanged` joins the state the view follows. */
export function projectContextApi(
	context: ProjectContext,
	controller: Pick<ActiveConversation, 'sessionId' | 'send'>,
	checkpointsChanged: Event<void>,
): ProjectContextApi {
	const { rules, modes } = context;
	return {
		rules: () => ({
			applied: rules.applied,
			files: rules.rules.applied.map(r => ({ path: r.path, tokens: r.tokens, scope: r.scope })),
			skipped: rules.rules.skipped,
		}),
		reloadRules: async () => void (await rules.reload()),
		draftAgentsMd: () => context.draftAgentsMd(controller),
		mode: () => {
			const mode = modes.get(controller.sessionId);
			return { id: mode.id, name: mode.name };
		},
		modes: () => modes.all().map(mode => ({ id: mode.id, name: mode.name, description: describeMode(mode) })),
		setMode: name => {
			const mode = modes.set(controller.sessionId, name);
			return { id: mode.id, name: mode.name };
		},
		onDidChangeState: listener => {
			const subscriptions = [
				rules.onDidChange(() => listener('rules')),
				modes.onDidChange(({ sessionId }) => sessionId === controller.sessionId && listener('mode')),
				checkpointsChanged(() => listener('checkpoints')),
			];
			return { dispose: () => subscriptions.forEach(s => s.dispose()) };
		},
	};
}

/** "Draft AGENTS.md" and the mode commands; "Switch Mode" also takes the mode's name (keybindings, tests). */
export function projectContextCommands(
	context: ProjectContext,
	controller: Pick<ActiveConversation, 'sessionId' | 'send'>,
): FeatureCommands<'keel.draftAgentsMd' | 'keel.switchMode' | 'keel.planMode' | 'keel.actMode'> {
	const setMode = (name: string) => reportOutcome(async () => void context.modes.set(controller.sessionId, name));
	return {
		'keel.draftAgentsMd': () =>
			reportOutcome(async () => {
				await vscode.commands.executeCommand('keel.chat.focus');
				const outcome = await context.draftAgentsMd(controller);
				return outcome.error ? outcome.error.message : undefined;
			}),
		'keel.switchMode': name =>
			reportOutcome(async () => {
				await context.modes.pick(controller.sessionId, typeof name === 'string' ? name : undefined);
				return undefined;
			}),
		'keel.planMode': () => setMode('plan'),
		'keel.actMode': () => setMode('act'),
	};
}
