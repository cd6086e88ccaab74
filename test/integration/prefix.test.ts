// Requests extend each other: the real session (ChatSession → adapter → HTTP) against the model
// double, on the three wires, through generated sessions (random tool sets, random step
// sequences: reads, a tool that keeps failing until it is blocked, a tool gated by another,
// replies with nothing to do, reasoning, several turns, a mode change). Every request is
// rendered the way a server renders it (the Qwen3 chat template); the principle asserted is
// that request N+1 starts with request N, so a local server never prefills twice.
import * as assert from 'node:assert/strict';
import * as z from 'zod';
import { ToolPolicy, defaultToolPolicySettings } from '../../src/core/agent/toolPolicy/toolPolicy';
import { defineTool, fail, ok } from '../../src/core/tools/defineTool';
import { ToolRegistry } from '../../src/core/tools/registry';
import { fileTools } from '../fakes/readTools';
import { startModelDouble, text, toolCalls, type ModelDouble, type Step } from '../support/modelDouble';
import { renderPrompt } from '../support/prefill/render';
import { runPrefillSession, WIRES, type PrefillSession, type PrefillTurn } from '../support/prefill/session';

function random(seed: number): () => number {
	let x = seed;
	return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const flaky = defineTool({
	name: 'lookup_symbol',
	description: 'Find where a symbol is defined.',
	input: z.object({ symbol: z.string() }),
	effect: 'read',
	describe: input => `Look up ${input.symbol}`,
	execute: async () => fail('The symbol index is corrupt.'),
});

const gated = defineTool({
	name: 'summarize_file',
	description: 'Summarise a file already read.',
	input: z.object({ path: z.string() }),
	effect: 'read',
	describe: input => `Summarise ${input.path}`,
	execute: async input => ok(`Summary of ${input.path}.`),
});

const extras = Array.from({ length: 6 }, (_, i) =>
	defineTool({
		name: `extra_tool_${i}`,
		description: `Extra tool number ${i}.`,
		input: z.object({ q: z.string() }),
		effect: 'read',
		describe: () => `extra ${i}`,
		execute: async input => ok(`extra ${i}: ${input.q}`),
	}),
);

/** A random session: a random tool set, 1–3 turns of 1–6 steps, a mode change now and then. */
function generate(seed: number): PrefillSession {
	const next = random(seed);
	const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
	const tools = [...fileTools, flaky, gated, ...extras.filter(() => next() < 0.5)];
	const registry = new ToolRegistry(tools);
	const toolPolicy = new ToolPolicy(() => ({
		...defaultToolPolicySettings,
		anomaly: { enabled: true, windowSize: 10, failureThreshold: 0.6, minCalls: 2 },
		dependencies: {
			...defaultToolPolicySettings.dependencies,
			enabled: true,
			rules: { summarize_file: { requires: ['read_file'] } },
		},
	}));
	const files = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}.ts`, `line ${i}\n`.repeat(40 + i)]));
	const reasoning = next() < 0.5 ? 'Let me think about the next step.' : undefined;
	const step = (n: number): Step => {
		const kind = pick(['read', 'read', 'flaky', 'gated', 'empty', 'extra'] as const);
		const withReasoning = <S extends object>(s: S) => (reasoning && next() < 0.6 ? { ...s, reasoning } : s);
		switch (kind) {
			case 'flaky':
				return withReasoning(toolCalls([{ name: 'lookup_symbol', arguments: { symbol: `s${n}` } }]));
			case 'gated':
				return withReasoning(
					toolCalls([{ name: 'summarize_file', arguments: { path: pick(Object.keys(files)) } }]),
				);
			case 'empty':
				return text('');
			case 'extra': {
				const extra = tools.find(t => t.name.startsWith('extra_tool_'));
				return extra
					? toolCalls([{ name: extra.name, arguments: { q: `q${n}` } }])
					: toolCalls([{ name: 'list_directory', arguments: { path: '.' } }]);
			}
			default:
				return withReasoning(toolCalls([{ name: 'read_file', arguments: { path: pick(Object.keys(files)) } }]));
		}
	};
	const turns: PrefillTurn[] = Array.from({ length: 1 + Math.floor(next() * 3) }, (_, t) => {
		const steps: Step[] = [];
		for (let i = 0, n = 1 + Math.floor(next() * 6); i < n; i++) {
			const s = step(t * 10 + i);
			// Two empty replies in a row end the turn: keep the script and the loop in step.
			if ((s as { text?: string }).text === '' && (steps.at(-1) as { text?: string } | undefined)?.text === '') {
				continue;
			}
			steps.push(s);
		}
		if ((steps.at(-1) as { text?: string } | undefined)?.text === '') {
			steps.pop();
		}
		steps.push({ ...text(`Answer ${t + 1}.`), ...(reasoning ? { reasoning } : {}) });
		const mode = t > 0 && next() < 0.4 ? `Base instructions.\n\nMode: ${pick(['Plan', 'Act', 'Ask'])}.` : undefined;
		return { prompt: `Question ${t + 1}: look at the files.`, steps, ...(mode ? { systemPrompt: mode } : {}) };
	});
	return { registry, toolPolicy, files, turns };
}

/** The generation prompt ends every request; what follows a discarded reply need not be the assistant's. */
const GENERATION_PROMPT = '<|im_start|>assistant\n';

function assertExtends(prompts: string[], label: string): void {
	prompts.forEach((prompt, i) => {
		const previous = i > 0 ? prompts[i - 1].slice(0, -GENERATION_PROMPT.length) : '';
		if (i > 0 && !prompt.startsWith(previous)) {
			let at = 0;
			while (previous[at] === prompt[at]) at++;
			assert.fail(
				`${label}: request ${i + 1} does not start with request ${i}; first difference at ${at}: ` +
					`${JSON.stringify(previous.slice(at, at + 60))} → ${JSON.stringify(prompt.slice(at, at + 60))}`,
			);
		}
	});
}

describe('requests extend each other (generated sessions, three wires)', function () {
	this.timeout(120_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	after(() => double.close());

	for (const wire of WIRES) {
		it(`${wire}: in 12 generated sessions request N+1 starts with request N`, async () => {
			for (let seed = 1; seed <= 12; seed++) {
				const spec = generate(seed * 7919 + WIRES.indexOf(wire));
				const { requests } = await runPrefillSession(double, wire, {
					...spec,
					systemPrompt: 'Base instructions.\n\nMode: Act.',
				});
				assert.ok(requests.length >= spec.turns.length, `seed ${seed}: the session ran`);
				assertExtends(requests.map(renderPrompt), `${wire} seed ${seed}`);
			}
		});
	}
});

describe('compaction in one step, remembered; options that reload a model stay put; cache figures', function () {
	this.timeout(60_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	after(() => double.close());

	const bigFiles = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`f${i}.ts`, `${i} `.repeat(1200)]));
	const reads = (from: number, n: number) =>
		Array.from({ length: n }, (_, i) => toolCalls([{ name: 'read_file', arguments: { path: `f${from + i}.ts` } }]));

	for (const wire of WIRES) {
		it(`${wire}: a small window compacts once, well below the threshold; the requests after it extend it, the next turn too`, async () => {
			const { requests, events } = await runPrefillSession(double, wire, {
				registry: new ToolRegistry(fileTools),
				files: bigFiles,
				// Ten reads pass the threshold (80 % of 7,680) by a few hundred tokens, whatever the tools' schemas weigh.
				recovery: { contextWindow: 7680 },
				turns: [
					{ prompt: 'Read them all.', steps: [...reads(0, 10), text('Read.')] },
					{ prompt: 'And two more.', steps: [...reads(10, 2), text('Done.')] },
				],
			});
			const compactions = events.filter(e => e.type === 'notice' && e.code === 'compacted');
			assert.equal(compactions.length, 1, 'one compaction for the whole session');
			assert.match(
				compactions[0].type === 'notice' ? compactions[0].text : '',
				/compacted \d+ old tool output\(s\) \(read_file ×\d+\) to ~\d+ tokens at once; they stay compacted/,
			);
			const prompts = requests.map(renderPrompt);
			const at = prompts.findIndex(p => p.includes('removed to save context'));
			assert.ok(at > 0, 'the window forced a compaction');
			assertExtends(prompts.slice(at), `${wire} after the compaction`);
		});
	}

	it('ollama: num_ctx and keep_alive are the same in every request, a re-ask with other sampling included', async () => {
		const degenerate = 'the same words again and again '.repeat(40);
		const { requests } = await runPrefillSession(double, 'ollama', {
			registry: new ToolRegistry(fileTools),
			files: bigFiles,
			turns: [
				{ prompt: 'Read f0.', steps: [...reads(0, 1), text(degenerate), text('Fine.')] },
				{ prompt: 'And f1.', steps: [...reads(1, 1), text('Done.')] },
			],
		});
		const loadOptions = requests.map(r => JSON.stringify([r.body.options?.num_ctx, r.body.keep_alive]));
		assert.equal(new Set(loadOptions).size, 1, `load-time options changed: ${loadOptions.join(' ')}`);
		const resampled = requests.filter(r => r.body.options?.repeat_penalty !== undefined);
		assert.equal(resampled.length, 1, 'the re-ask after degenerate output carries its sampling options');
	});

	for (const wire of WIRES) {
		it(`${wire}: the usage event carries the server's cached and prefilled prompt tokens and the time to first token`, async () => {
			const { events, requests } = await runPrefillSession(double, wire, {
				registry: new ToolRegistry(fileTools),
				files: bigFiles,
				turns: [
					{
						prompt: 'Hi.',
						steps: [{ ...text('Hello.'), usage: { promptTokens: 2000, cachedTokens: 1500 } }],
					},
				],
			});
			const usage = events.find(e => e.type === 'usage');
			assert.ok(usage?.type === 'usage');
			assert.equal(usage.prefilledTokens, 500);
			// Ollama says only what it evaluated; the others say what came from the cache.
			assert.equal(usage.cachedTokens, wire === 'ollama' ? undefined : 1500);
			assert.ok(typeof usage.ttftMs === 'number' && usage.ttftMs >= 0);
			if (wire === 'anthropic') {
				const body = requests[0].body;
				assert.deepEqual(body.system[0].cache_control, { type: 'ephemeral' });
				assert.deepEqual(body.tools.at(-1).cache_control, { type: 'ephemeral' });
				assert.deepEqual(body.messages.at(-1).content.at(-1).cache_control, { type: 'ephemeral' });
			}
		});
	}
});
