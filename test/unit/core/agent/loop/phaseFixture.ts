// A turn's state and context built the way runTurn builds them, so each phase can be run alone.
import * as z from 'zod';
import type { AgentEvent } from '../../../../../src/core/agent/events';
import type { AgentOptions } from '../../../../../src/core/agent/loop/agentOptions';
import type { StepOutput } from '../../../../../src/core/agent/loop/modelStep';
import { startTurn, turnContext } from '../../../../../src/core/agent/loop/turnState';
import type { CanonicalMessage } from '../../../../../src/core/llm/canonical';
import type { Clock } from '../../../../../src/core/ports';
import { defineTool, ok } from '../../../../../src/core/tools/defineTool';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { InMemoryWorkspace } from '../../../../fakes/inMemoryWorkspace';
import { fileTools } from '../../../../fakes/readTools';
import { ScriptedChatModel, type ScriptedStep } from '../../../../fakes/scriptedChatModel';

export const noteTool = defineTool({
	name: 'write_note',
	description: 'test write',
	input: z.object({ text: z.string() }),
	effect: 'write',
	describe: input => `Write note "${input.text}"`,
	async execute(input, { workspace }) {
		await workspace.writeFile('note.txt', Buffer.from(input.text));
		return ok('written');
	},
});

export function phaseFixture(
	steps: ScriptedStep[] = [],
	overrides: Partial<AgentOptions> = {},
	history: CanonicalMessage[] = [],
) {
	const model = new ScriptedChatModel(steps);
	const workspace = new InMemoryWorkspace({ 'README.md': 'Keel fixture', 'src/app.ts': 'export const x = 1;' });
	const events: AgentEvent[] = [];
	const delays: number[] = [];
	const clock: Clock = { now: () => 0, sleep: async ms => void delays.push(ms) };
	const abort = new AbortController();
	const options: AgentOptions = {
		model,
		registry: new ToolRegistry([...fileTools, noteTool]),
		approvals: undefined,
		approvalSettings: { autoApprove: { read: true, write: true } },
		workspace,
		systemPrompt: 'sys',
		maxSteps: 25,
		emit: event => events.push(event),
		clock,
		random: () => 0.5,
		...overrides,
	};
	const ctx = turnContext(options, 't1', abort.signal);
	const state = startTurn(ctx, history, 'go');
	const of = <T extends AgentEvent['type']>(type: T) =>
		events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
	return { model, workspace, events, delays, abort, options, ctx, state, of, notices: () => of('notice') };
}

/** A model response as the request phase hands it on. */
export function response(partial: Partial<StepOutput> = {}): StepOutput {
	return { text: '', calls: [], finishReason: 'stop', reasoning: '', harmonyCalls: [], ...partial };
}
