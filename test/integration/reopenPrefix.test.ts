// The prefix survives a reopen: the real session (ChatSession → adapter → HTTP) against the
// model double, kept in a real SQLite session store as the host keeps it, closed between turns
// and reopened from the store. Generated sessions vary what decides a request's bytes (the
// offered tools chosen from many, request_tools' catalogue and what the model asked for with it,
// the reasoning sent back, a mode change arriving as a note, compaction's stubs); the principle
// asserted is that the first request after each reopen starts with the last request before it,
// rendered the way a server renders it, so a local server with the conversation cached reads
// only what was added.
import * as assert from 'node:assert/strict';
import * as z from 'zod';
import { createRequestToolsTool } from '../../src/core/agent/toolPolicy/toolSelection';
import { defineTool, ok } from '../../src/core/tools/defineTool';
import { ToolRegistry } from '../../src/core/tools/registry';
import { fileTools } from '../fakes/readTools';
import { startModelDouble, text, toolCalls, type ModelDouble, type ReplyStep, type Step } from '../support/modelDouble';
import { renderPrompt } from '../support/prefill/render';
import { runPrefillSession, WIRES, type PrefillSession, type PrefillTurn } from '../support/prefill/session';

function random(seed: number): () => number {
	let x = seed;
	return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const TOPICS = ['issue', 'release', 'workflow', 'deployment', 'secret', 'label', 'branch', 'review'];

/** Tools a server brings, more than a request offers: which are offered depends on the conversation. */
function sourcedTools(count: number) {
	return Array.from({ length: count }, (_, i) =>
		defineTool({
			name: `mcp_${TOPICS[i % TOPICS.length]}_${i}`,
			description: `Work with a ${TOPICS[i % TOPICS.length]} of the repository (tool ${i}).`,
			input: z.object({ repo: z.string(), query: z.string().optional() }),
			effect: 'read',
			source: 'mcp:forge',
			describe: () => `tool ${i}`,
			execute: async input => ok(`${TOPICS[i % TOPICS.length]} ${i} of ${input.repo}`),
		}),
	);
}

const FILES = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}.ts`, `line ${i}\n`.repeat(30 + i)]));
const base = 'You are Keel, a coding agent. Use the tools to look at files.';

/** A random session of 2–4 turns, reopened before at least one of the turns after the first. */
function generate(seed: number): PrefillSession {
	const next = random(seed);
	const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
	const sourced = sourcedTools(20 + Math.floor(next() * 40));
	const registry = new ToolRegistry([...fileTools, ...sourced]);
	registry.register(createRequestToolsTool(() => ({ maxOffered: 8 + Math.floor(next() * 5) })));
	const reasoning = next() < 0.5 ? 'Let me think about the next step.' : undefined;
	const withReasoning = (step: ReplyStep): Step => (reasoning && next() < 0.6 ? { ...step, reasoning } : step);
	const turnCount = 2 + Math.floor(next() * 3);
	let asked = false;
	const turns: PrefillTurn[] = Array.from({ length: turnCount }, (_, t) => {
		const steps: Step[] = [];
		for (let s = 0, n = 1 + Math.floor(next() * 3); s < n; s++) {
			steps.push(
				withReasoning(toolCalls([{ name: 'read_file', arguments: { path: pick(Object.keys(FILES)) } }])),
			);
		}
		if (!asked && next() < 0.4) {
			// The model asks for a withheld tool and calls it: kept offered after the reopen too.
			const wanted = sourced[sourced.length - 1].name;
			steps.push(toolCalls([{ name: 'request_tools', arguments: { names: [wanted] } }]));
			steps.push(toolCalls([{ name: wanted, arguments: { repo: 'keel' } }]));
			asked = true;
		}
		steps.push(withReasoning(text(`Answer ${t + 1}.`)));
		return {
			prompt: `Question ${t + 1}: what about the ${pick(TOPICS)} and the ${pick(TOPICS)}?`,
			steps,
			reopen: t > 0 && (t === turnCount - 1 || next() < 0.6),
			...(t > 0 && next() < 0.3 ? { systemPrompt: `${base}\n\nMode: ${pick(['Plan', 'Act', 'Ask'])}.` } : {}),
		};
	});
	return { registry, files: FILES, turns, systemPrompt: base };
}

function assertReopensExtend(prompts: string[], turnStarts: number[], spec: PrefillSession, label: string): void {
	let reopens = 0;
	spec.turns.forEach((turn, i) => {
		if (!turn.reopen) {
			return;
		}
		reopens++;
		const before = prompts[turnStarts[i] - 1];
		const after = prompts[turnStarts[i]];
		if (!after.startsWith(before)) {
			let at = 0;
			while (at < before.length && before[at] === after[at]) at++;
			assert.fail(
				`${label}: the first request after reopening before turn ${i + 1} does not extend the last one before it; they part at character ${at} of ${before.length}:\n  before: …${JSON.stringify(before.slice(Math.max(0, at - 80), at + 80))}\n  after:  …${JSON.stringify(after.slice(Math.max(0, at - 80), at + 80))}`,
			);
		}
	});
	assert.ok(reopens > 0, `${label}: the session was reopened`);
}

describe('The prefix survives a reopen (real session over HTTP, real session store)', function () {
	this.timeout(120_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	after(() => double.close());

	for (const wire of WIRES) {
		it(`${wire}: generated sessions — the first request after each reopen starts with the last request before it`, async () => {
			for (let seed = 1; seed <= 12; seed++) {
				const spec = generate(seed * 7919 + WIRES.indexOf(wire));
				const { requests, turnStarts } = await runPrefillSession(double, wire, spec, `reopen-${wire}-${seed}`);
				assertReopensExtend(requests.map(renderPrompt), turnStarts, spec, `${wire} seed ${seed}`);
			}
		});

		it(`${wire}: what compaction stubbed stays stubbed after a reopen`, async () => {
			const bigFiles = Object.fromEntries(
				Array.from({ length: 16 }, (_, i) => [`f${i}.ts`, `${i} `.repeat(1200)]),
			);
			const reads = (from: number, n: number) =>
				Array.from({ length: n }, (_, i) =>
					toolCalls([{ name: 'read_file', arguments: { path: `f${from + i}.ts` } }]),
				);
			const spec: PrefillSession = {
				registry: new ToolRegistry(fileTools),
				files: bigFiles,
				recovery: { contextWindow: 7680 },
				turns: [
					{ prompt: 'Read them all.', steps: [...reads(0, 12), text('Read.')] },
					{ prompt: 'And two more.', reopen: true, steps: [...reads(12, 2), text('Done.')] },
				],
			};
			const { requests, turnStarts, events } = await runPrefillSession(double, wire, spec, `reopen-stub-${wire}`);
			const prompts = requests.map(renderPrompt);
			assert.ok(
				prompts[turnStarts[1] - 1].includes('removed to save context'),
				'the window forced a compaction before the reopen',
			);
			assert.equal(events.filter(e => e.type === 'notice' && e.code === 'compacted').length, 1, 'one compaction');
			assertReopensExtend(prompts, turnStarts, spec, `${wire} compaction`);
		});
	}
});
