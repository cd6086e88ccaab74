// Keel: Check Model end to end in plain Node: the real suite, loop, tools and scratch folder
// against scripted personalities behind the HTTP model double, each producing the report and
// the recommendations a user of such a model should get.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { serverWindowOf } from '../../src/core/checkModel/endpoint';
import { reportMarkdown } from '../../src/core/checkModel/markdown';
import { CHECK_TASKS } from '../../src/core/checkModel/suite';
import type { CheckReport, ModeSummary } from '../../src/core/checkModel/types';
import { createChatModel, resolveProvider } from '../../src/core/llm/catalog/providers';
import { personality, scriptPersonality } from '../support/checkModel/personalities';
import { checkAgainst, scratchParent } from '../support/checkModel/runAgainst';
import { startModelDouble, type ModelDouble } from '../support/modelDouble';

const mode = (report: CheckReport, name: 'native' | 'text'): ModeSummary => {
	const found = report.modes.find(m => m.mode === name);
	assert.ok(found, `the report has ${name} results`);
	return found;
};
const change = (report: CheckReport) =>
	Object.fromEntries(report.recommendations.filter(r => r.change).map(r => [r.setting, r.recommended]));
const failures = (report: CheckReport) =>
	report.results.filter(r => !r.passed).map(r => `${r.taskId}/${r.mode}: ${r.why}`);
/** Every task but the shell one, which needs the sandbox (see checkModel.docker.test.ts). */
const RAN = CHECK_TASKS.filter(task => !task.needsShell).length;

describe('Check Model — scripted personalities through the real suite', function () {
	this.timeout(120_000);
	let double: ModelDouble;
	beforeEach(async () => (double = await startModelDouble({ models: ['double'] })));
	afterEach(() => double.close());

	it('a clean native model on Ollama: every task passes both ways, nothing to change, speed from the server', async () => {
		const model = personality('clean');
		scriptPersonality(double, model.step);
		const resolved = resolveProvider({
			provider: 'ollama',
			baseUrl: double.url,
			model: 'double',
			contextWindow: 32_768,
			requestTimeoutSeconds: 60,
		});
		const { report, tmpDir } = await checkAgainst(double, 'ollama', {
			serverWindow: () => serverWindowOf(createChatModel(resolved, undefined)),
		});
		assert.deepEqual(failures(report), []);
		assert.equal(report.trials, 3, 'three trials per task by default');
		for (const name of ['native', 'text'] as const) {
			assert.equal(mode(report, name).trials, RAN * 3);
			assert.equal(mode(report, name).passHatK, 1);
			assert.deepEqual(mode(report, name).recoveries, {});
		}
		assert.equal(report.verdict, 'good');
		assert.equal(report.better, 'native', 'a tie goes to the server’s own format');
		assert.deepEqual(change(report), {}, 'nothing to change');
		assert.deepEqual(
			report.skipped.map(s => s.taskId),
			['fix-test'],
		);
		// Ollama's done line carries prompt_eval_duration and eval_duration: the figures are the server's.
		assert.equal(report.speed.promptSource, 'server');
		assert.equal(report.speed.generationSource, 'server');
		assert.equal(report.context.advertised, 40_960);
		assert.equal(report.context.truncatedRequests, 0);
		assert.deepEqual(fs.readdirSync(tmpDir), [], 'the scratch folder is gone');
	});

	it("a llama.cpp server's own timings are the speed figures; without them Keel measures", async () => {
		const model = personality('clean');
		// llama-server reports prompt_n/prompt_ms and predicted_n/predicted_ms with each answer.
		scriptPersonality(double, req => {
			const step = model.step(req);
			return step.kind === 'reply'
				? {
						...step,
						usage: { promptTokens: 1000, completionTokens: 20 },
						serverTimings: { promptMs: 200, generationMs: 400 },
					}
				: step;
		});
		const tasks = CHECK_TASKS.filter(t => ['read-answer', 'no-tool'].includes(t.id));
		const { report } = await checkAgainst(double, 'openai', { tasks, trials: 1 });
		assert.equal(report.speed.promptSource, 'server');
		assert.equal(report.speed.promptTokensPerSecond, 5000);
		assert.equal(report.speed.generationSource, 'server');
		assert.equal(report.speed.generationTokensPerSecond, 50);
		assert.match(reportMarkdown(report), /\| Generation \| 50\.0 tokens\/s \(server timings\) \|/);
	});

	it('a llama.cpp server at -c 4096 of a 262,144-token model: the report shows both windows, and its trials plan for 4,096', async () => {
		// GET /props default_generation_settings.n_ctx (per slot) and /v1/models meta.n_ctx_train, as
		// llama-server answers them: https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md#get-props-get-server-global-properties
		await double.close();
		double = await startModelDouble({
			models: ['double'],
			server: { kind: 'llamacpp', nCtx: 4096, nCtxTrain: 262_144, totalSlots: 4 },
		});
		const model = personality('clean');
		scriptPersonality(double, model.step);
		const resolved = resolveProvider({
			provider: 'llamacpp',
			baseUrl: double.openaiBaseUrl,
			model: 'double',
			contextWindow: 32_768,
			requestTimeoutSeconds: 60,
		});
		const chat = createChatModel(resolved, undefined);
		const tasks = CHECK_TASKS.filter(t => ['read-answer', 'no-tool'].includes(t.id));
		const { report } = await checkAgainst(double, 'openai', {
			model: chat,
			tasks,
			trials: 1,
			serverWindow: () => serverWindowOf(chat),
		});
		assert.equal(report.context.advertised, 262_144, 'trained for');
		assert.equal(report.context.running, 4096, 'runs');
		const markdown = reportMarkdown(report);
		assert.match(markdown, /\| The model was trained for \| 262,144 \|/);
		assert.match(markdown, /\| The server runs \| 4,096 \(llama\.cpp \/props n_ctx \(per slot\)\) \|/);
		assert.deepEqual(change(report), { 'keel.model.contextWindow': 4096 });
		assert.equal(
			double.modelRequests.filter(r => r.response?.status === 400).length,
			0,
			'no trial sent a prompt past the slot',
		);
		assert.ok(
			double.modelRequests.every(r => r.body.max_tokens === undefined || r.body.max_tokens <= 4096),
			'every answer was asked to fit the 4,096',
		);
	});

	it('a model that only writes calls as text: native needs every call recovered, so text is recommended', async () => {
		const model = personality('textOnly');
		scriptPersonality(double, model.step);
		const { report } = await checkAgainst(double, 'openai');
		assert.deepEqual(failures(report), []);
		const native = mode(report, 'native');
		assert.equal(native.recoveries.textCall, native.toolCalls, 'every native call was written as text');
		assert.equal(native.brokenCalls, native.toolCalls);
		assert.deepEqual(mode(report, 'text').recoveries, {});
		assert.equal(report.better, 'text');
		assert.match(report.betterWhy, /repair fewer calls/);
		assert.deepEqual(change(report), { 'keel.recovery.toolMode': 'text' });
		assert.equal(report.speed.promptSource, 'measured', 'an OpenAI-compatible server without timings is measured');
		assert.match(
			reportMarkdown(report),
			new RegExp(`call written as text, recovered \\| ${native.toolCalls} \\| 0 \\|`),
		);
	});

	it('a flaky model that breaks one call in three: Keel repairs each one and every task still passes', async () => {
		const model = personality('flaky');
		scriptPersonality(double, model.step);
		const { report } = await checkAgainst(double, 'openai');
		assert.deepEqual(failures(report), []);
		const native = mode(report, 'native');
		assert.ok(model.broken.native >= 10, `it broke ${model.broken.native} native calls`);
		assert.equal(native.recoveries.jsonRepair, model.broken.native, 'every broken native call is counted, once');
		assert.equal(native.brokenCalls, model.broken.native);
		assert.equal(report.verdict, 'good');
		assert.match(
			reportMarkdown(report),
			new RegExp(`native: the model broke ${model.broken.native} of ${native.toolCalls} calls \\(1 in 3\\)`),
		);
	});

	it('a server that truncates the context: the window it really gives, and a context window that fits it', async () => {
		const model = personality('truncating', { window: 4096 });
		scriptPersonality(double, model.step);
		const { report } = await checkAgainst(double, 'openai');
		assert.equal(report.context.servedWindow, 4096);
		assert.ok(report.context.truncatedRequests > 0);
		assert.ok(report.context.largestPromptSent > 4096 / 0.6, 'the long file makes the prompt outgrow the window');
		assert.equal(report.verdict, 'usable');
		assert.deepEqual(change(report), { 'keel.model.contextWindow': 4096 });
		assert.match(report.warnings[0], /The server cut \d+ of \d+ prompts: it read at most 4,096 tokens/);
		assert.match(report.warnings[0], /Raise the server's context to 16,384/);
	});

	it("Ollama's native API cuts the prompt too: the same window is found from prompt_eval_count", async () => {
		const model = personality('truncating', { window: 4096 });
		scriptPersonality(double, model.step);
		const tasks = CHECK_TASKS.filter(t => ['long-file', 'multi-step'].includes(t.id));
		const { report } = await checkAgainst(double, 'ollama', { tasks, trials: 2 });
		assert.equal(report.context.servedWindow, 4096);
		assert.equal(report.context.truncatedRequests, 4, 'the long file once read, in each trial and mode');
		assert.deepEqual(change(report), { 'keel.model.contextWindow': 4096 });
	});

	it('counts exactly the calls a model broke, whichever they are (generated patterns)', async () => {
		const tasks = CHECK_TASKS.filter(t => ['multi-step', 'rename-symbol', 'search-read'].includes(t.id));
		await fc.assert(
			fc.asyncProperty(fc.array(fc.integer({ min: 2, max: 14 }), { maxLength: 6 }), async broken => {
				double.reset();
				const model = personality('flaky', { breaks: n => broken.includes(n) });
				scriptPersonality(double, model.step);
				const { report } = await checkAgainst(double, 'openai', { tasks, trials: 1, modes: ['native'] });
				assert.deepEqual(failures(report), []);
				assert.equal(mode(report, 'native').recoveries.jsonRepair ?? 0, model.broken.native);
			}),
			{ numRuns: 8 },
		);
	});

	it('a server that refuses native tools: only text mode is checked, and the report says why', async () => {
		const model = personality('clean');
		double.script({
			kind: 'httpError',
			status: 400,
			body: {
				error: {
					message: 'registry.ollama.ai/library/double does not support tools',
					type: 'invalid_request_error',
				},
			},
		});
		scriptPersonality(double, model.step);
		const { report } = await checkAgainst(double, 'openai', { trials: 1 });
		assert.equal(report.nativeOffered, false);
		assert.deepEqual(
			report.modes.map(m => m.mode),
			['text'],
		);
		assert.match(report.probe, /refused native tool calls/);
		assert.equal(change(report)['keel.recovery.toolMode'], 'text');
	});

	it('an unreachable server ends the check with a sentence to act on, and leaves nothing behind', async () => {
		const { url } = double;
		await double.close();
		const tmpDir = scratchParent();
		const gone = { ...double, url, openaiBaseUrl: `${url}/v1` } as ModelDouble;
		const error = await checkAgainst(gone, 'openai', { tmpDir }).then(
			() => assert.fail('the check should not run'),
			(thrown: Error) => thrown,
		);
		assert.match(
			error.message,
			/^Check Model could not start: No model server answered at http:\/\/127\.0\.0\.1:\d+\/v1/,
		);
		assert.deepEqual(fs.readdirSync(tmpDir), []);
		double = await startModelDouble();
	});
});
