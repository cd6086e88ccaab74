import * as assert from 'assert';
import * as z from 'zod';
import type { AgentEvent } from '../../../../../src/core/agent/events';
import { runTurn } from '../../../../../src/core/agent/loop/runAgent';
import { createRequestToolsTool, REQUEST_TOOLS } from '../../../../../src/core/agent/toolPolicy/toolSelection';
import { ok, type ToolDefinition } from '../../../../../src/core/tools/defineTool';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { createToolset } from '../../../../../src/core/tools/toolset';
import { defaultToolDeps } from '../../../../../src/core/tools/toolDeps';
import { InMemoryWorkspace } from '../../../../fakes/inMemoryWorkspace';
import { ScriptedChatModel, callStep, textStep } from '../../../../fakes/scriptedChatModel';

const TOPICS = [
	'weather forecast',
	'stock quote',
	'currency exchange',
	'flight status',
	'calendar event',
	'email draft',
	'translate text',
	'dictionary definition',
	'unit conversion',
	'timezone lookup',
];

/** A source tool shaped like an MCP tool: its own JSON Schema, a `source`. */
function sourceTool(name: string, description: string): ToolDefinition<any> {
	return {
		name,
		description,
		source: 'mcp:big',
		effect: 'exec',
		input: z.record(z.string(), z.unknown()),
		parameters: {
			type: 'object',
			properties: { query: { type: 'string', description: 'What to look up' }, limit: { type: 'integer' } },
			required: ['query'],
		},
		describe: () => name,
		execute: async () => ok(`${name} ran`),
	};
}

function sixtyTools(): ToolDefinition<any>[] {
	return Array.from({ length: 60 }, (_, i) => {
		const topic = TOPICS[i % TOPICS.length];
		return sourceTool(
			`mcp_big_${topic.replace(/ /g, '_')}_${i}`,
			`[MCP big] Get the ${topic} for a place, person or item.`,
		);
	});
}

async function turn(
	registry: ToolRegistry,
	contextWindow: number,
	steps: ConstructorParameters<typeof ScriptedChatModel>[0],
	prompt: string,
) {
	const model = new ScriptedChatModel(steps);
	const events: AgentEvent[] = [];
	await runTurn(
		{
			model,
			registry,
			approvals: undefined,
			approvalSettings: { autoApprove: { read: true, exec: true } },
			workspace: new InMemoryWorkspace({}),
			systemPrompt: 'sys',
			maxSteps: 5,
			emit: e => events.push(e),
			recovery: { contextWindow },
		},
		[],
		prompt,
		't1',
		new AbortController().signal,
	);
	const notices = events.flatMap(e => (e.type === 'notice' && e.code === 'toolsOffered' ? [e.text] : []));
	return { model, notices, events };
}

describe('tool selection (the per-request tool budget)', () => {
	const builtIns = () => createToolset(defaultToolDeps());

	it('60 MCP tools and an 8k window: built-ins, the relevant MCP tools and request_tools are sent, and the chat says which', async () => {
		const registry = new ToolRegistry([
			...builtIns(),
			...sixtyTools(),
			createRequestToolsTool(() => ({ maxOffered: 40 })),
		]);
		const { model, notices } = await turn(
			registry,
			8192,
			[textStep('ok')],
			'What is the flight status of LH 400 tomorrow?',
		);
		const sent = model.requests[0].toolNames;
		for (const tool of builtIns()) {
			assert.ok(sent.includes(tool.name), `built-in ${tool.name} is always sent`);
		}
		const mcp = sent.filter(n => n.startsWith('mcp_'));
		assert.ok(mcp.length >= 1 && mcp.length < 60, `a filtered set, got ${mcp.length}`);
		// The flight-status tools match the question: as many of them as the budget allows, nothing else.
		assert.ok(
			mcp.every(n => n.startsWith('mcp_big_flight_status_')),
			`the relevant ones: ${mcp.join(', ')}`,
		);
		assert.ok(sent.includes(REQUEST_TOOLS));
		assert.strictEqual(notices.length, 1);
		assert.match(
			notices[0],
			/Tools offered: \d+ of 75 — 14 built-in \+ \d+ by relevance \(mcp_big_flight_status_3/,
		);
		assert.match(notices[0], /the 8,192-token context window/);
	});

	it('the catalog names what was held back, and request_tools offers it from the next step on', async () => {
		const registry = new ToolRegistry([
			...builtIns(),
			...sixtyTools(),
			createRequestToolsTool(() => ({ maxOffered: 40 })),
		]);
		let catalog = '';
		const { model, notices } = await turn(
			registry,
			8192,
			[
				request => {
					catalog = request.tools.find(t => t.name === REQUEST_TOOLS)!.description;
					return callStep({
						id: 'c1',
						name: REQUEST_TOOLS,
						args: { names: ['mcp_big_stock_quote_1', 'nope'] },
					});
				},
				callStep({ id: 'c2', name: 'mcp_big_stock_quote_1', args: { query: 'ACME' } }),
				textStep('done'),
			],
			'What is the flight status of LH 400?',
		);
		assert.match(
			catalog,
			/Not offered now, most relevant first: mcp_big_flight_status_\d+, .*mcp_big_stock_quote_1,.* and \d+ more \(find them with "search"\)\.$/,
		);
		assert.ok(!model.requests[0].toolNames.includes('mcp_big_stock_quote_1'));
		assert.ok(
			model.requests[1].toolNames.includes('mcp_big_stock_quote_1'),
			'requested tool offered on the next request',
		);
		const result = model.requests[1].messages.find(m => m.kind === 'tool_result');
		assert.match(result!.content, /Now offered: mcp_big_stock_quote_1.*No such tool: nope/);
		assert.match(
			model.requests[2].messages.filter(m => m.kind === 'tool_result').pop()!.content,
			/mcp_big_stock_quote_1 ran/,
		);
		assert.ok(notices.some(n => /asked for mcp_big_stock_quote_1/.test(n)));
	});

	it('request_tools can search the held-back tools by words', async () => {
		const registry = new ToolRegistry([
			...builtIns(),
			...sixtyTools(),
			createRequestToolsTool(() => ({ maxOffered: 40 })),
		]);
		const { model } = await turn(
			registry,
			8192,
			[callStep({ id: 'c1', name: REQUEST_TOOLS, args: { search: 'timezone lookup' } }), textStep('done')],
			'What is the flight status of LH 400?',
		);
		const added = model.requests[1].toolNames.filter(n => !model.requests[0].toolNames.includes(n));
		assert.strictEqual(added.length, 5);
		assert.ok(
			added.every(n => n.startsWith('mcp_big_timezone_lookup_')),
			added.join(', '),
		);
	});

	it('within the budget every tool is sent, request_tools is not, and nothing is announced', async () => {
		const registry = new ToolRegistry([
			...builtIns(),
			...sixtyTools().slice(0, 3),
			createRequestToolsTool(() => ({ maxOffered: 40 })),
		]);
		const { model, notices } = await turn(registry, 32768, [textStep('ok')], 'hello');
		assert.strictEqual(model.requests[0].toolNames.length, 17);
		assert.ok(!model.requests[0].toolNames.includes(REQUEST_TOOLS));
		assert.deepStrictEqual(notices, []);
	});

	it('the count limit applies too (keel.tools.maxOffered)', async () => {
		const registry = new ToolRegistry([
			...builtIns(),
			...sixtyTools().slice(0, 10),
			createRequestToolsTool(() => ({ maxOffered: 16 })),
		]);
		const { model } = await turn(registry, 1_000_000, [textStep('ok')], 'currency exchange rate of EUR');
		const sent = model.requests[0].toolNames;
		assert.strictEqual(sent.length, 16);
		assert.deepStrictEqual(
			sent.filter(n => n.startsWith('mcp_')),
			['mcp_big_currency_exchange_2'],
		);
	});
});
