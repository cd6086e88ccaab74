/**
 * The prefill bench's scenarios: sessions a local-model user really has (long turns, many MCP
 * tools, a small window, recovery into text mode, a tool the anomaly guard blocks, a tool
 * gated by a dependency, reasoning models, several turns), each a fixed script for the model
 * double, run the same way on every wire.
 */
import * as z from 'zod';
import { ToolPolicy, defaultToolPolicySettings } from '../../src/core/agent/toolPolicy/toolPolicy';
import { createRequestToolsTool } from '../../src/core/agent/toolPolicy/toolSelection';
import { defineTool, fail, ok, type ToolDefinition } from '../../src/core/tools/defineTool';
import { ToolRegistry } from '../../src/core/tools/registry';
import { fileTools } from '../../test/fakes/readTools';
import { text, toolCalls, wireError, type ReplyStep, type Step } from '../../test/support/modelDouble';
import type { PrefillSession } from '../../test/support/prefill/session';

export interface Scenario {
	name: string;
	/** The history must shrink in this scenario: the looser budget applies. */
	compaction?: boolean;
	/**
	 * Breaks the scenario may cost, each for a change the model itself made: a switch to text
	 * mode, or a tool it asked for with request_tools (a Qwen3-style template renders the tools
	 * before the messages, so a tool appended to them re-reads the conversation once).
	 */
	formatSwitches?: number;
	/** The user changed something (mode, rules): no budget. */
	userChange?: boolean;
	session(): PrefillSession;
}

const WORDS = 'const value return function import export async await string number index result error path file'.split(
	' ',
);

/** Deterministic source-like text of about `chars` characters. */
export function sourceText(seed: number, chars: number): string {
	let out = '';
	let x = seed * 7919 + 17;
	for (let line = 0; out.length < chars; line++) {
		const words: string[] = [];
		for (let w = 0; w < 8; w++) {
			x = (x * 1103515245 + 12345) % 2147483648;
			words.push(WORDS[x % WORDS.length]);
		}
		out += `${line + 1}: ${words.join(' ')};\n`;
	}
	return out;
}

function files(count: number, chars: number): Record<string, string> {
	return Object.fromEntries(Array.from({ length: count }, (_, i) => [`src/f${i}.ts`, sourceText(i, chars)]));
}

const read = (i: number, extra: object = {}): ReplyStep =>
	toolCalls([{ name: 'read_file', arguments: { path: `src/f${i}.ts`, ...extra } }]);

function reads(from: number, count: number, reasoning?: string): ReplyStep[] {
	return Array.from({ length: count }, (_, i) => ({ ...read(from + i), ...(reasoning ? { reasoning } : {}) }));
}

/** A read tool that always fails: five failures and the anomaly guard blocks it. */
const flakyTool = defineTool({
	name: 'lookup_symbol',
	description: 'Find where a symbol is defined.',
	input: z.object({ symbol: z.string() }),
	effect: 'read',
	describe: input => `Look up ${input.symbol}`,
	execute: async () => fail('The symbol index is corrupt; rebuild it.'),
});

/** A read tool gated by a dependency: offered once read_file has succeeded. */
const summarizeTool = defineTool({
	name: 'summarize_file',
	description: 'Summarise a file the model has read.',
	input: z.object({ path: z.string() }),
	effect: 'read',
	describe: input => `Summarise ${input.path}`,
	execute: async input => ok(`Summary of ${input.path}: ${sourceText(3, 300)}`),
});

/** Tools an MCP server brings: many, each with a real-looking schema. */
function mcpTools(count: number): ToolDefinition<any>[] {
	const topics = ['issue', 'pull request', 'branch', 'release', 'workflow', 'deployment', 'secret', 'label'];
	const verbs = ['list', 'get', 'create', 'update', 'delete', 'search', 'close', 'comment on'];
	return Array.from({ length: count }, (_, i) => {
		const topic = topics[i % topics.length];
		const verb = verbs[Math.floor(i / topics.length) % verbs.length];
		return defineTool({
			name: `mcp_gh_${verb.replace(/ /g, '_')}_${topic.replace(/ /g, '_')}_${i}`,
			description: `${verb} a ${topic} in the repository (GitHub MCP server). Returns JSON.`,
			input: z.object({ owner: z.string(), repo: z.string(), query: z.string().optional() }),
			effect: 'read',
			source: 'mcp:github',
			describe: () => `${verb} ${topic}`,
			execute: async input => ok(`{"${topic}": "${input.repo}", "items": ${JSON.stringify(sourceText(i, 400))}}`),
		});
	});
}

const base = 'You are Keel, a coding agent. Use the tools to look at files.';

const answer = (words: string) => text(`Done: ${words}.`);

export const scenarios: Scenario[] = [
	{
		name: 'long turn (16 reads)',
		session: () => ({
			registry: new ToolRegistry(fileTools),
			files: files(16, 1500),
			turns: [{ prompt: 'Read every file in src and explain it.', steps: [...reads(0, 16), answer('read all')] }],
		}),
	},
	{
		name: 'several turns (4)',
		session: () => ({
			registry: new ToolRegistry(fileTools),
			files: files(12, 1200),
			turns: [0, 1, 2, 3].map(t => ({
				prompt: `Question ${t + 1}: what do f${t * 3} to f${t * 3 + 2} do?`,
				steps: [...reads(t * 3, 3), answer(`turn ${t + 1}`)],
			})),
		}),
	},
	{
		name: 'many MCP tools + request_tools',
		formatSwitches: 1,
		session: () => {
			const registry = new ToolRegistry([...fileTools, ...mcpTools(60)]);
			registry.register(createRequestToolsTool(() => ({ maxOffered: 12 })));
			const wanted = 'mcp_gh_search_release_43';
			return {
				registry,
				files: files(6, 1200),
				turns: [
					{
						prompt: 'List the open issue labels of keel/keel.',
						steps: [
							read(0),
							toolCalls([{ name: 'request_tools', arguments: { names: [wanted] } }]),
							toolCalls([{ name: wanted, arguments: { owner: 'keel', repo: 'keel' } }]),
							read(1),
							answer('labels'),
						],
					},
					{
						prompt: 'Now which deployment workflow failed last?',
						steps: [read(2), read(3), answer('deployment')],
					},
				],
			};
		},
	},
	{
		// The window closes between turns and the chat is reopened from the store: the offered
		// tools (chosen from 60 by the conversation so far), their order and request_tools'
		// catalogue come back as they were sent, so the first request after each reopen extends
		// the last one before it.
		name: 'reopen (2 reopens, 60 MCP tools)',
		session: () => {
			const registry = new ToolRegistry([...fileTools, ...mcpTools(60)]);
			registry.register(createRequestToolsTool(() => ({ maxOffered: 12 })));
			return {
				registry,
				files: files(9, 1200),
				turns: [
					{ prompt: 'List the open issue labels of keel/keel.', steps: [read(0), read(1), answer('labels')] },
					{
						prompt: 'Which deployment workflow failed last?',
						reopen: true,
						steps: [read(2), read(3), read(4), answer('deployment')],
					},
					{ prompt: 'And which release secret expired?', reopen: true, steps: [read(5), answer('secret')] },
				],
			};
		},
	},
	{
		name: 'blocked tool (anomaly guard)',
		session: () => {
			const registry = new ToolRegistry([...fileTools, flakyTool]);
			const lookup = (i: number) => toolCalls([{ name: 'lookup_symbol', arguments: { symbol: `sym${i}` } }]);
			return {
				registry,
				toolPolicy: new ToolPolicy(),
				files: files(6, 1200),
				turns: [
					{
						prompt: 'Where is the config loaded?',
						steps: [
							read(0),
							lookup(1),
							lookup(2),
							lookup(3),
							lookup(4),
							lookup(5),
							read(1),
							read(2),
							answer('blocked'),
						],
					},
				],
			};
		},
	},
	{
		name: 'tool gated by a dependency',
		session: () => {
			const registry = new ToolRegistry([...fileTools, summarizeTool]);
			const toolPolicy = new ToolPolicy(() => ({
				...defaultToolPolicySettings,
				dependencies: {
					...defaultToolPolicySettings.dependencies,
					enabled: true,
					rules: { summarize_file: { requires: ['read_file'] } },
				},
			}));
			return {
				registry,
				toolPolicy,
				files: files(6, 1200),
				turns: [
					{
						prompt: 'Summarise f0 and f1.',
						steps: [
							read(0),
							toolCalls([{ name: 'summarize_file', arguments: { path: 'src/f0.ts' } }]),
							read(1),
							answer('summaries'),
						],
					},
				],
			};
		},
	},
	{
		name: 'reasoning model (3 turns)',
		session: () => ({
			registry: new ToolRegistry(fileTools),
			files: files(9, 1200),
			turns: [0, 1, 2].map(t => ({
				prompt: `Explain f${t * 3} to f${t * 3 + 2}.`,
				steps: [
					...reads(t * 3, 3, `I should read the next file to answer question ${t + 1}.`),
					{ ...answer(`turn ${t + 1}`), reasoning: 'I have read enough to answer.' } as Step,
				],
			})),
		}),
	},
	{
		name: 're-ask with a correction',
		session: () => ({
			registry: new ToolRegistry(fileTools),
			files: files(6, 1200),
			turns: [
				{
					prompt: 'Read f0, f1 and f2 and compare them.',
					steps: [read(0), text(''), read(1), read(2), answer('compared')],
				},
			],
		}),
	},
	{
		name: 'small window (8k) with compaction',
		compaction: true,
		session: () => ({
			registry: new ToolRegistry(fileTools),
			files: files(20, 2400),
			recovery: { contextWindow: 8192 },
			turns: [{ prompt: 'Read the files in src one by one.', steps: [...reads(0, 20), answer('read all')] }],
		}),
	},
	{
		name: 'switch to text mode mid-turn',
		formatSwitches: 1,
		session: () => ({
			registry: new ToolRegistry(fileTools),
			files: files(8, 1200),
			turns: [
				{
					prompt: 'Read f0 to f5.',
					steps: [
						read(0),
						read(1),
						wireError(400, 'registry.ollama.ai/library/qwen3:8b does not support tools'),
						...[2, 3, 4, 5].map(i =>
							text(`<tool_call>{"name": "read_file", "arguments": {"path": "src/f${i}.ts"}}</tool_call>`),
						),
						answer('read in text mode'),
					],
				},
				{
					prompt: 'And f6?',
					steps: [
						text('<tool_call>{"name": "read_file", "arguments": {"path": "src/f6.ts"}}</tool_call>'),
						answer('f6'),
					],
				},
			],
		}),
	},
	{
		name: 'mode change between turns (user change)',
		userChange: true,
		session: () => ({
			registry: new ToolRegistry(fileTools),
			files: files(6, 1200),
			turns: [
				{
					prompt: 'Plan how to refactor f0.',
					steps: [read(0), read(1), answer('plan')],
					systemPrompt: `${base}\n\nMode: Plan. Do not change files.`,
				},
				{ prompt: 'Go ahead.', steps: [read(2), answer('done')], systemPrompt: `${base}\n\nMode: Act.` },
			],
		}),
	},
];
