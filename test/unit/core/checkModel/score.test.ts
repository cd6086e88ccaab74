// Scores and recommendations of Check Model as properties over generated trial outcomes: what
// pass@1 and pass^k mean, which mode wins, and that a recommendation never writes what is already set.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { reportMarkdown } from '../../../../src/core/checkModel/markdown';
import { advise } from '../../../../src/core/checkModel/recommend';
import { buildReport } from '../../../../src/core/checkModel/report';
import { betterMode, contextFigures, summarizeMode, wasCut } from '../../../../src/core/checkModel/score';
import { CHECK_TASKS } from '../../../../src/core/checkModel/suite';
import type { RequestSample, ToolCallMode, TrialResult } from '../../../../src/core/checkModel/types';

const TASKS = ['a', 'b', 'c', 'd'];

function trial(taskId: string, mode: ToolCallMode, index: number, passed: boolean, broken = 0): TrialResult {
	return {
		taskId,
		mode,
		trial: index + 1,
		passed,
		why: passed ? '' : 'wrong',
		end: 'completed',
		durationMs: 1000,
		requests: 2,
		toolCalls: 2,
		promptTokens: 500,
		completionTokens: 50,
		tokensEstimated: false,
		recoveries: broken ? { jsonRepair: broken } : {},
		brokenCalls: broken,
	};
}

/** k trials of every task in one mode, pass or fail as generated. */
const outcomes = (k: number) =>
	fc.array(fc.array(fc.boolean(), { minLength: k, maxLength: k }), {
		minLength: TASKS.length,
		maxLength: TASKS.length,
	});
const trialsOf = (mode: ToolCallMode, grid: boolean[][]) =>
	grid.flatMap((passes, t) => passes.map((passed, i) => trial(TASKS[t], mode, i, passed)));

describe('Check Model scores', () => {
	it('pass^k never exceeds pass@1, and is 1 exactly when every trial passed', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 5 }).chain(outcomes), grid => {
				const summary = summarizeMode('native', TASKS, trialsOf('native', grid));
				assert.ok(summary.passHatK <= summary.passAt1 + 1e-9);
				assert.equal(
					summary.passHatK === 1,
					grid.every(row => row.every(Boolean)),
				);
				assert.equal(summary.passedTrials, grid.flat().filter(Boolean).length);
			}),
		);
	});

	it('the better mode is the one relied on more, whichever order the modes come in', () => {
		fc.assert(
			fc.property(outcomes(3), outcomes(3), (nativeGrid, textGrid) => {
				const results = [...trialsOf('native', nativeGrid), ...trialsOf('text', textGrid)];
				const native = summarizeMode('native', TASKS, results);
				const text = summarizeMode('text', TASKS, results);
				const forward = betterMode([native, text]).mode;
				assert.equal(betterMode([text, native]).mode, forward, 'order does not matter');
				if (native.passHatK !== text.passHatK) {
					assert.equal(forward, native.passHatK > text.passHatK ? 'native' : 'text');
				}
			}),
		);
	});

	it('recommends only changes, and the tool mode follows the better mode', () => {
		fc.assert(
			fc.property(
				outcomes(2),
				outcomes(2),
				fc.constantFrom('auto', 'native', 'text') as fc.Arbitrary<'auto' | 'native' | 'text'>,
				(nativeGrid, textGrid, toolMode) => {
					const results = [...trialsOf('native', nativeGrid), ...trialsOf('text', textGrid)];
					const modes = (['native', 'text'] as const).map(m => summarizeMode(m, TASKS, results));
					const better = betterMode(modes);
					const advice = advise({
						model: 'm',
						modes,
						better,
						nativeOffered: true,
						speed: { tokensPerTask: 0, longestAnswerTokens: 100, cutAtLimit: 0 },
						context: contextFigures([], 32_768),
						current: { toolMode, contextWindow: 32_768, maxOutputTokens: 0 },
					});
					for (const r of advice.recommendations) {
						assert.equal(r.change, r.current !== r.recommended);
					}
					const mode = advice.recommendations.find(r => r.setting === 'keel.recovery.toolMode')!;
					assert.equal(mode.recommended === 'text', better.mode === 'text');
					const best = modes.find(m => m.mode === better.mode)!;
					assert.equal(advice.verdict === 'notUsable', best.passAt1 < 0.5);
				},
			),
		);
	});

	it('a server that cut prompts: the window it gave, fitted when Keel can work in it, else raised with a warning', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1024, max: 16_000 }),
				fc.integer({ min: 500, max: 4000 }),
				(served, smallest) => {
					const samples: RequestSample[] = [
						{
							mode: 'native',
							durationMs: 1,
							estimatedPromptTokens: smallest,
							promptTokens: smallest,
							failed: false,
						},
						{
							mode: 'native',
							durationMs: 1,
							estimatedPromptTokens: served * 2,
							promptTokens: served,
							failed: false,
						},
					];
					const context = contextFigures(samples, 32_768);
					assert.equal(context.servedWindow, served);
					const modes = [
						summarizeMode(
							'native',
							TASKS,
							trialsOf(
								'native',
								TASKS.map(() => [true]),
							),
						),
					];
					const advice = advise({
						model: 'm',
						modes,
						better: betterMode(modes),
						nativeOffered: true,
						speed: { tokensPerTask: 0, longestAnswerTokens: 10, cutAtLimit: 0 },
						context,
						current: { toolMode: 'auto', contextWindow: 32_768, maxOutputTokens: 0 },
					});
					const window = advice.recommendations.find(r => r.setting === 'keel.model.contextWindow')!;
					if (served >= smallest * 1.5) {
						assert.ok(Number(window.recommended) <= served && Number(window.recommended) > served - 256);
						assert.equal(advice.verdict, 'usable');
					} else {
						assert.ok(Number(window.recommended) >= served * 2, 'room for the largest prompt');
						assert.equal(advice.verdict, 'notUsable');
					}
					assert.match(advice.warnings[0], /The server cut 1 of 2 prompts/);
				},
			),
		);
	});

	it('a server counting only what it evaluated is cut only when it read well under the new part', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 2000, max: 30_000 }),
				fc.double({ min: 0, max: 1, noNaN: true }),
				fc.double({ min: 0.05, max: 1.2, noNaN: true }),
				(estimate, newShare, readShare) => {
					const fresh = Math.round(estimate * newShare);
					const read = Math.round(fresh * readShare);
					const sample: RequestSample = {
						mode: 'native',
						durationMs: 1,
						estimatedPromptTokens: estimate,
						newPromptTokens: fresh,
						promptTokens: read,
						countsNewOnly: true,
						failed: false,
					};
					const cut = read >= 1024 && read < estimate * 0.6 && read < fresh * 0.6;
					assert.equal(wasCut(sample), cut);
					// A server that counts the whole prompt is judged against all of it.
					assert.equal(wasCut({ ...sample, countsNewOnly: false }), read >= 1024 && read < estimate * 0.6);
				},
			),
		);
	});

	it('answers cut at the output limit raise keel.model.maxOutputTokens', () => {
		const modes = [
			summarizeMode(
				'native',
				TASKS,
				trialsOf(
					'native',
					TASKS.map(() => [true]),
				),
			),
		];
		const advice = advise({
			model: 'm',
			modes,
			better: betterMode(modes),
			nativeOffered: true,
			speed: { tokensPerTask: 0, longestAnswerTokens: 3000, cutAtLimit: 2 },
			context: contextFigures([], 32_768),
			current: { toolMode: 'auto', contextWindow: 32_768, maxOutputTokens: 2048 },
		});
		const tokens = advice.recommendations.find(r => r.setting === 'keel.model.maxOutputTokens')!;
		assert.equal(tokens.recommended, 6144);
		assert.match(tokens.why, /2 answer\(s\) were cut off/);
	});

	it('the Markdown names every task, every setting and the verdict', () => {
		const results = CHECK_TASKS.flatMap(task => [
			trial(task.id, 'native', 0, true),
			trial(task.id, 'text', 0, false, 1),
		]);
		const report = buildReport({
			endpoint: { provider: 'Ollama', baseUrl: 'http://127.0.0.1:11434', model: 'qwen3:8b' },
			startedAt: Date.UTC(2026, 0, 2, 3, 4),
			durationMs: 65_000,
			trials: 1,
			tasks: CHECK_TASKS,
			skipped: [],
			sandbox: true,
			probe: 'Native tool calling works.',
			nativeOffered: true,
			modes: ['native', 'text'],
			results,
			samples: [],
			current: { toolMode: 'auto', contextWindow: 32_768, maxOutputTokens: 0 },
		});
		const markdown = reportMarkdown(report);
		for (const task of CHECK_TASKS) {
			assert.ok(markdown.includes(`| ${task.title} |`), task.title);
		}
		for (const r of report.recommendations) {
			assert.ok(markdown.includes(`\`${r.setting}\``));
		}
		assert.match(markdown, /\*\*Verdict: works well\.\*\*/);
		assert.match(markdown, /2026-01-02 03:04 UTC · 1 trials per task · took 1 min 5 s/);
		assert.match(markdown, /malformed arguments, repaired \| 0 \| 11 \|/);
		assert.equal(report.id, 'qwen3-8b@127.0.0.1-11434-2026-01-02T03-04-00-000Z');
	});
});
