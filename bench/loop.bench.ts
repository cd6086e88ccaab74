/**
 * The agent loop's own cost per tool round: a turn of N tool rounds through the real loop,
 * OpenAI SDK and HTTP against a zero-latency model double, next to the same N requests made
 * with the bare SDK (the reference: what any client pays). The difference is Keel's overhead.
 */
import OpenAI from 'openai';
import { defaultApprovalSettings } from '../src/core/agent/approval/approvalPolicy';
import { runTurn } from '../src/core/agent/loop/runAgent';
import { OpenAIChatModel } from '../src/core/llm/wires/openai/openaiChatModel';
import { fileTools } from '../test/fakes/readTools';
import { ToolRegistry } from '../src/core/tools/registry';
import { InMemoryWorkspace } from '../test/fakes/inMemoryWorkspace';
import { startModelDouble, text, toolCalls } from '../test/support/modelDouble';
import { percentile, printTable, timeIt } from './table';

export const title = 'Agent loop overhead per tool round (zero-latency model double)';

const ROUNDS = 20;
const TURNS = 15;

export async function run(): Promise<void> {
	const double = await startModelDouble();
	const registry = new ToolRegistry(fileTools);
	const workspace = new InMemoryWorkspace({ 'README.md': 'hello\n'.repeat(50) });
	// Each round reads a different line, so the doom-loop guard (same call, same output) never fires.
	const script = () => [
		...Array.from({ length: ROUNDS }, (_, i) =>
			toolCalls([{ name: 'read_file', arguments: { path: 'README.md', offset: i + 1, limit: 1 } }], { split: 3 }),
		),
		text('done'),
	];
	try {
		const loop: number[] = [];
		const raw: number[] = [];
		const client = new OpenAI({ baseURL: double.openaiBaseUrl, apiKey: 'x', maxRetries: 0 });
		for (let i = 0; i < TURNS + 2; i++) {
			double.reset();
			double.script(...script());
			let outcome: Awaited<ReturnType<typeof runTurn>> | undefined;
			const loopMs = await timeIt(async () => {
				outcome = await runTurn(
					{
						model: new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'm' }),
						registry,
						approvals: undefined,
						approvalSettings: defaultApprovalSettings,
						workspace,
						systemPrompt: 'sys',
						maxSteps: 100,
						emit: () => {},
					},
					[],
					'go',
					`t${i}`,
					new AbortController().signal,
				);
			});
			const rounds = outcome!.messages.filter(m => m.kind === 'tool_result').length;
			if (outcome!.reason !== 'completed' || rounds !== ROUNDS) {
				throw new Error(
					`the turn did not run ${ROUNDS} tool rounds (${outcome!.reason}, ${rounds} rounds): the figure would be wrong`,
				);
			}
			double.reset();
			double.script(...script());
			const rawMs = await timeIt(async () => {
				for (let r = 0; r <= ROUNDS; r++) {
					const stream = await client.chat.completions.create({
						model: 'm',
						messages: [{ role: 'user', content: 'go' }],
						tools: registry.specs().map(t => ({ type: 'function' as const, function: t })),
						stream: true,
					});
					for await (const _chunk of stream) {
						// drain
					}
				}
			});
			if (i >= 2) {
				// The first turns warm up the JIT and the sockets.
				loop.push(loopMs / (ROUNDS + 1));
				raw.push(rawMs / (ROUNDS + 1));
			}
		}
		const overhead = loop.map((value, i) => value - raw[i]);
		printTable(
			['per round (ms)', 'p50', 'p95'],
			[
				['Keel loop (request + tool + events)', percentile(loop, 0.5), percentile(loop, 0.95)],
				['bare openai SDK request (reference)', percentile(raw, 0.5), percentile(raw, 0.95)],
				['Keel overhead', percentile(overhead, 0.5), percentile(overhead, 0.95)],
			],
		);
		console.log(
			`\nratio loop/bare SDK (p50): ${(percentile(loop, 0.5) / percentile(raw, 0.5)).toFixed(2)}×  (${TURNS} turns × ${ROUNDS} tool rounds)`,
		);
	} finally {
		await double.close();
	}
}
