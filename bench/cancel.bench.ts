/**
 * How soon Stop ends a turn whose model stream has stalled (the server keeps the connection
 * open and silent). The loop must not wait for the stall or the idle timeout, so the budget
 * is far below the idle timeout; the reference is the same cancel on a stream that flows.
 */
import { defaultApprovalSettings } from '../src/core/agent/approval/approvalPolicy';
import { OpenAIChatModel } from '../src/core/llm/wires/openai/openaiChatModel';
import { ChatSession } from '../src/core/session/chatSession';
import { ToolRegistry } from '../src/core/tools/registry';
import { InMemoryWorkspace } from '../test/fakes/inMemoryWorkspace';
import { fileTools } from '../test/fakes/readTools';
import { startModelDouble, text, withFaults, type ModelDouble } from '../test/support/modelDouble';
import { percentile, printTable, timeIt } from './table';

export const title = 'Stop during a stalled model stream (time from cancel to the turn ending)';

const RUNS = 10;
const BUDGET_MS = 2000;

async function cancelMs(double: ModelDouble, stalled: boolean): Promise<number> {
	double.reset();
	const reply = text('one two three four five six', { chunks: 6, delayMs: stalled ? 0 : 200 });
	double.script(stalled ? withFaults(reply, { stallAfter: 3 }) : reply);
	const chat = new ChatSession({
		sessionId: 'bench',
		createModel: async () => new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'm' }),
		modelLabel: () => 'm',
		registry: new ToolRegistry(fileTools),
		workspace: new InMemoryWorkspace({}),
		approvalSettings: () => defaultApprovalSettings,
		maxSteps: () => 5,
		systemPrompt: () => 'sys',
		// An idle timeout of an hour: only the cancel can end the stall.
		recovery: () => ({ backoffBaseMs: 1, backoffMaxMs: 10, streamIdleTimeoutMs: 3_600_000 }),
	});
	let streamed = false;
	chat.onDidEvent(event => (streamed ||= event.type === 'textDelta'));
	const turn = chat.send('talk');
	while (!streamed) {
		await new Promise(resolve => setTimeout(resolve, 5));
	}
	const ms = await timeIt(async () => {
		chat.cancel();
		const outcome = await turn;
		if (outcome.reason !== 'cancelled') {
			throw new Error(`the turn ended ${outcome.reason}, not cancelled: the figure would be wrong`);
		}
	});
	chat.dispose();
	return ms;
}

export async function run(): Promise<void> {
	const double = await startModelDouble();
	try {
		const stalled: number[] = [];
		const flowing: number[] = [];
		for (let i = 0; i < RUNS; i++) {
			stalled.push(await cancelMs(double, true));
			flowing.push(await cancelMs(double, false));
		}
		printTable(
			['cancel → turn ended (ms)', 'p50', 'p95', 'budget'],
			[
				['stalled stream', percentile(stalled, 0.5), percentile(stalled, 0.95), BUDGET_MS],
				['flowing stream (reference)', percentile(flowing, 0.5), percentile(flowing, 0.95), '—'],
			],
		);
		console.log(`\nn=${RUNS} each; ${percentile(stalled, 0.95) <= BUDGET_MS ? 'within' : 'OVER'} budget at p95`);
	} finally {
		await double.close();
	}
}
