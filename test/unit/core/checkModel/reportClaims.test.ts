/**
 * The Check Model report says only what the run saw. A model that never called a tool (one that
 * only writes text, or noise, as a random-weights model on a real llama.cpp server does) must
 * not read as one whose calls were all well formed, and an answer cut at the output limit is a
 * cut call only where a call was really cut.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { reportMarkdown } from '../../../../src/core/checkModel/markdown';
import { buildReport } from '../../../../src/core/checkModel/report';
import { CHECK_TASKS } from '../../../../src/core/checkModel/suite';
import type { RecoveryClass, RequestSample, ToolCallMode, TrialResult } from '../../../../src/core/checkModel/types';

interface Run {
	passed: boolean;
	toolCalls: number;
	cutCalls: number;
	reasks: number;
}

function trial(taskId: string, mode: ToolCallMode, run: Run): TrialResult {
	const recoveries: Partial<Record<RecoveryClass, number>> = {};
	if (run.cutCalls) recoveries.cutCall = run.cutCalls;
	if (run.reasks) recoveries.emptyAnswer = run.reasks;
	return {
		taskId,
		mode,
		trial: 1,
		passed: run.passed,
		why: run.passed ? '' : 'wrong',
		end: 'completed',
		durationMs: 1000,
		requests: 2,
		toolCalls: run.toolCalls,
		promptTokens: 500,
		completionTokens: 256,
		tokensEstimated: false,
		recoveries,
		brokenCalls: run.cutCalls,
	};
}

const anyRuns = fc.array(
	fc
		.record({
			passed: fc.boolean(),
			toolCalls: fc.integer({ min: 0, max: 4 }),
			cutCalls: fc.integer({ min: 0, max: 2 }),
			reasks: fc.integer({ min: 0, max: 2 }),
		})
		// A call can only be cut where the model made one.
		.map(run => ({ ...run, cutCalls: Math.min(run.cutCalls, run.toolCalls) })),
	{ minLength: CHECK_TASKS.length * 2, maxLength: CHECK_TASKS.length * 2 },
);

/** Runs where a mode may have made no call at all, and Keel may have had nothing to recover. */
const runs = fc
	.record({ runs: anyRuns, silentNative: fc.boolean(), silentText: fc.boolean(), quiet: fc.boolean() })
	.map(({ runs: generated, silentNative, silentText, quiet }) =>
		generated.map((run, i) => {
			const silent = i % 2 === 0 ? silentNative : silentText;
			const calls = silent ? 0 : run.toolCalls;
			return {
				...run,
				toolCalls: calls,
				cutCalls: quiet ? 0 : Math.min(run.cutCalls, calls),
				reasks: quiet ? 0 : run.reasks,
			};
		}),
	);

/** Every answer reached the output limit (finish_reason "length"), as a model that rambles does. */
const cutSamples = (n: number): RequestSample[] =>
	Array.from({ length: n }, (_, i) => ({
		mode: i % 2 ? 'text' : 'native',
		durationMs: 2000,
		estimatedPromptTokens: 1500,
		promptTokens: 1600,
		completionTokens: 256,
		finishReason: 'length',
		failed: false,
	}));

function markdownOf(generated: Run[]): string {
	const results = CHECK_TASKS.flatMap((task, i) => [
		trial(task.id, 'native', generated[2 * i]),
		trial(task.id, 'text', generated[2 * i + 1]),
	]);
	const report = buildReport({
		endpoint: { provider: 'llama.cpp server', baseUrl: 'http://127.0.0.1:8080/v1', model: 'noise' },
		startedAt: Date.UTC(2026, 0, 2),
		durationMs: 60_000,
		trials: 1,
		tasks: CHECK_TASKS,
		skipped: [],
		sandbox: true,
		probe: 'The model answered in text instead of calling the tool.',
		nativeOffered: true,
		modes: ['native', 'text'],
		results,
		samples: cutSamples(results.length),
		current: { toolMode: 'auto', contextWindow: 32_768, maxOutputTokens: 256 },
	});
	return reportMarkdown(report);
}

describe('Check Model report: only what the run saw', () => {
	it('a mode without a single tool call is said to have made none, never to have had them all well formed', () => {
		fc.assert(
			fc.property(runs, generated => {
				const markdown = markdownOf(generated);
				for (const [offset, mode] of [
					[0, 'native'],
					[1, 'text'],
				] as const) {
					const calls = generated.filter((_, i) => i % 2 === offset).reduce((n, r) => n + r.toolCalls, 0);
					assert.equal(markdown.includes(`${mode}: the model made no tool calls`), calls === 0, mode);
					assert.ok(!markdown.includes(`of its 0 calls`));
				}
				assert.ok(
					!/well formed|every answer usable/.test(markdown),
					'claims calls or answers it did not check',
				);
			}),
		);
	});

	it('answers cut at the output limit are called cut calls only when a call was cut', () => {
		fc.assert(
			fc.property(runs, generated => {
				const why = /`keel\.model\.maxOutputTokens` \|[^\n]*/.exec(markdownOf(generated))?.[0] ?? '';
				const cutCalls = generated.reduce((n, r) => n + r.cutCalls, 0);
				assert.match(why, /answer\(s\) were cut off at the output limit/);
				assert.equal(/tool call/.test(why), cutCalls > 0, why);
			}),
		);
	});

	it('the noise model of the real llama.cpp run: no calls, nothing repaired, every answer cut', () => {
		const markdown = markdownOf(
			CHECK_TASKS.flatMap(() => [
				{ passed: false, toolCalls: 0, cutCalls: 0, reasks: 0 },
				{ passed: false, toolCalls: 0, cutCalls: 0, reasks: 0 },
			]),
		);
		assert.match(
			markdown,
			/Nothing: Keel repaired no call and asked for no answer again\. native: the model made no tool calls; text: the model made no tool calls\./,
		);
		assert.match(markdown, /it made no tool calls at all\./);
	});
});
