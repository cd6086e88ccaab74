// Tool schemas a server compiles into its grammar, through the real loop, the real adapters and
// HTTP to the model double taught llama.cpp's and LM Studio's converter rules (what they refuse,
// and the words and statuses they refuse it with: modelDouble/behaviour/grammar.ts). Generated tool
// sets carry every keyword those converters choke on; the turn must get through, with at most
// one refused request, or end saying which setting changes it.

import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import * as z from 'zod';
import { runTurn } from '../../src/core/agent/loop/runAgent';
import type { AgentEvent } from '../../src/core/agent/events';
import { createRequestToolsTool } from '../../src/core/agent/toolPolicy/toolSelection';
import { AnthropicChatModel } from '../../src/core/llm/wires/anthropic/anthropicChatModel';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import { defineTool, ok } from '../../src/core/tools/defineTool';
import { ToolRegistry } from '../../src/core/tools/registry';
import type { Workspace } from '../../src/core/ports';
import {
	startModelDouble,
	text,
	toolCall,
	type DataStep,
	type RecordedRequest,
	type ServerBehaviour,
} from '../support/modelDouble';
import { readConversation } from '../support/resilience/conversation';
import { fastRecovery } from '../support/resilience/runScenario';
import { namedSchemas, sourcedTool, type Schema } from '../support/toolSchemas';

const readNote = defineTool({
	name: 'read_note',
	description: 'Read a note by its name.',
	input: z.object({ name: z.string().min(1).max(200).describe('The note') }),
	effect: 'read',
	describe: input => `Read ${input.name}`,
	async execute(input) {
		return ok(`note ${input.name}: harbor`);
	},
});

interface Run {
	outcome: Awaited<ReturnType<typeof runTurn>>;
	events: AgentEvent[];
	requests: RecordedRequest[];
}

async function turn(
	server: ServerBehaviour,
	schemas: Array<[string, Schema]>,
	options: {
		wire?: 'openai' | 'anthropic';
		maxOffered?: number;
		contextWindow?: number;
		brain?: (req: RecordedRequest) => DataStep;
		prompt?: string;
	} = {},
): Promise<Run> {
	const double = await startModelDouble({ server });
	try {
		if (options.brain) {
			double.script(...Array.from({ length: 8 }, () => options.brain!));
		} else {
			double.script(toolCall('read_note', { name: 'a' }), text('Done: the note says harbor.'));
		}
		const registry = new ToolRegistry([
			readNote,
			createRequestToolsTool(() => ({ maxOffered: options.maxOffered ?? 40 })),
			...schemas.map(([name, schema]) => sourcedTool(`mcp_gen_${name}`, schema)),
			sourcedTool('mcp_flight_status', FLIGHT_SCHEMA, 'mcp:flights'),
		]);
		const model =
			options.wire === 'anthropic'
				? new AnthropicChatModel({ baseUrl: double.url, model: 'double' })
				: new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'double' });
		const events: AgentEvent[] = [];
		const outcome = await runTurn(
			{
				model,
				registry,
				approvals: undefined,
				approvalSettings: { autoApprove: { read: true, write: true } },
				workspace: { rootName: 'w' } as unknown as Workspace,
				systemPrompt: 'Use the tools.',
				maxSteps: 6,
				emit: event => events.push(event),
				recovery: { ...fastRecovery, contextWindow: options.contextWindow ?? 262_144 },
			},
			[],
			options.prompt ?? 'Read note a.',
			'g1',
			new AbortController().signal,
		);
		return { outcome, events, requests: [...double.modelRequests] };
	} finally {
		await double.close();
	}
}

const toolsOf = (r: RecordedRequest): Array<Record<string, any>> => r.body?.tools ?? [];
const namesOf = (r: RecordedRequest): string[] => toolsOf(r).map(t => String(t.function?.name ?? t.name));

/** The MCP tool the flight question needs; every other sourced tool is generated filler. */
const FLIGHT_SCHEMA: Schema = {
	type: 'object',
	properties: { flight: { type: 'string', description: 'Flight number, e.g. KL123' } },
	required: ['flight'],
};

/**
 * A model that needs mcp_flight_status: it calls the tool where it is offered, asks for it with
 * request_tools (by name or by words) where that is offered, and otherwise says it cannot.
 */
function flightBrain(ask: { names: string[] } | { search: string }) {
	return (req: RecordedRequest): DataStep => {
		if (readConversation(req).results.some(r => r.includes('mcp_flight_status ran'))) {
			return text('Done: KL123 is on time.');
		}
		const offered = namesOf(req);
		if (offered.includes('mcp_flight_status')) {
			return toolCall('mcp_flight_status', { flight: 'KL123' });
		}
		return offered.includes('request_tools')
			? toolCall('request_tools', ask)
			: text('I have no tool that tells flight status.');
	};
}
const refused = (run: Run) => run.requests.filter(r => (r.response?.status ?? 0) >= 400);

/** An MCP tool whose schema alone is past a 4,000-byte grammar ceiling. */
const WIDE_SCHEMA: Schema = {
	type: 'object',
	properties: Object.fromEntries(
		Array.from({ length: 80 }, (_, i) => [
			`field_${i}`,
			{ type: 'string', description: `Field ${i} of the record.` },
		]),
	),
};

describe('tool schemas a server compiles into a grammar', function () {
	this.timeout(600_000);

	it('generated tool sets on llama.cpp and LM Studio: the turn gets through, at most once refused, never with a keyword the converter chokes on', async () => {
		await fc.assert(
			fc.asyncProperty(
				namedSchemas(1, 150),
				fc.constantFrom<ServerBehaviour['grammar']>('llamacpp', 'lmstudio'),
				fc.constantFrom<'openai' | 'anthropic'>('openai', 'anthropic'),
				fc.integer({ min: 5, max: 200 }),
				async (schemas, grammar, wire, maxOffered) => {
					const run = await turn({ grammar }, schemas, { wire, maxOffered });
					assert.equal(run.outcome.reason, 'completed', run.outcome.error?.message);
					assert.ok(refused(run).length <= 1, `${refused(run).length} refusals`);
					const sent = JSON.stringify(run.requests.map(toolsOf));
					assert.doesNotMatch(sent, /"(?:maxLength|minLength|maxItems|pattern|format|\$ref)":/);
					if (refused(run).length === 1) {
						const [first, second] = run.requests;
						assert.ok(toolsOf(second).length <= toolsOf(first).length);
						const notice = run.events.find(e => e.type === 'notice' && e.code === 'toolSchema');
						assert.ok(notice, 'the chat says the server could not compile the schemas');
					}
					assert.match(String(run.outcome.messages.at(-1)?.content), /Done: the note says harbor/);
				},
			),
			{ numRuns: 30 },
		);
	});

	it('a 120-tool turn past the grammar ceiling: one refused request, then fewer tools in their simplest form, and the chat says so', async () => {
		const schemas = fc.sample(namedSchemas(120, 120), { numRuns: 1, seed: 11 })[0];
		const run = await turn({ grammar: 'llamacpp' }, schemas, { maxOffered: 200 });
		assert.equal(run.outcome.reason, 'completed', run.outcome.error?.message);
		const [first, second] = run.requests;
		assert.equal(first.response?.status, 400, 'the full set is past the ceiling (llama.cpp#25895)');
		assert.ok(toolsOf(second).length < toolsOf(first).length);
		const notice = run.events.find(e => e.type === 'notice' && e.code === 'toolSchema');
		assert.match(
			String(notice && 'text' in notice ? notice.text : ''),
			/failed to parse grammar.*Sent again with \d+ of \d+ tools/s,
		);
	});

	it('a server that compiles no grammar at all: two requests, then the turn ends naming the settings that change it', async () => {
		const schemas = fc.sample(namedSchemas(3, 3), { numRuns: 1, seed: 5 })[0];
		const run = await turn({ grammar: 'llamacpp', grammarCeilingBytes: 10 }, schemas);
		assert.equal(run.outcome.reason, 'failed');
		assert.equal(run.requests.length, 2);
		const message = run.outcome.error!.message;
		assert.match(message, /Failed to initialize samplers: failed to parse grammar/, "the server's own words");
		assert.match(message, /keel\.recovery\.toolMode to "text"/);
		assert.match(message, /keel\.tools\.maxOffered \(now 40\)/);
	});

	it("LM Studio's refusal on its Anthropic endpoint (HTTP 500, the engine's 400 inside) is read by its meaning, not retried blindly", async () => {
		const run = await turn({ grammar: 'lmstudio', grammarCeilingBytes: 10 }, [], { wire: 'anthropic' });
		assert.equal(run.outcome.reason, 'failed');
		assert.deepEqual(
			run.requests.map(r => r.response?.status),
			[500, 500],
		);
		assert.match(
			run.outcome.error!.message,
			/Engine protocol predict request returned 400.*keel\.recovery\.toolMode/s,
		);
	});

	it('past the grammar ceiling with every MCP tool offered: the simpler retry lists the dropped ones in request_tools, and the model gets the one it needs', async () => {
		await fc.assert(
			fc.asyncProperty(
				namedSchemas(3, 12),
				fc.constantFrom<'openai' | 'anthropic'>('openai', 'anthropic'),
				fc.constantFrom<{ names: string[] } | { search: string }>(
					{ names: ['mcp_flight_status'] },
					{ search: 'flight status' },
				),
				async (generated, wire, ask) => {
					// A low ceiling keeps the run quick on a loaded machine. The generated tools may all be tiny
					// (three empty schemas fit under it), so one MCP tool of a known size puts every case past
					// the ceiling by construction, and the simpler retry leaves it out with the rest.
					const schemas: Array<[string, Schema]> = [...generated, ['wide', WIDE_SCHEMA]];
					const run = await turn({ grammar: 'llamacpp', grammarCeilingBytes: 4_000 }, schemas, {
						wire,
						maxOffered: 500,
						brain: flightBrain(ask),
						prompt: 'Is flight KL123 on time?',
					});
					assert.equal(run.outcome.reason, 'completed', run.outcome.error?.message);
					const [first, second] = run.requests;
					assert.equal(first.response?.status, 400, 'every tool fits the budget, not the grammar');
					assert.ok(
						namesOf(first).includes('mcp_flight_status') && !namesOf(first).includes('request_tools'),
					);
					assert.ok(!namesOf(second).includes('mcp_flight_status'), 'the simpler retry drops the MCP tools');
					assert.ok(namesOf(second).includes('request_tools'), 'and offers the way to ask for them');
					assert.match(JSON.stringify(toolsOf(second)), /mcp_flight_status/, 'named in its catalog');
					const ran = run.events.filter(
						e =>
							e.type === 'toolCallUpdated' &&
							e.call.name === 'mcp_flight_status' &&
							e.call.status === 'succeeded',
					);
					assert.equal(ran.length, 1, 'the tool the model asked for ran once');
					assert.ok(refused(run).length === 1, `${refused(run).length} refusals`);
					assert.match(String(run.outcome.messages.at(-1)?.content), /KL123 is on time/);
				},
			),
			{ numRuns: 4 },
		);
	});
});
