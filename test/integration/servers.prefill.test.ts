// Long prefills through the real loop over HTTP. The double holds the first byte while it
// "reads the prompt" and answers its health and model endpoints meanwhile; a client that hangs
// up cancels the work, so a request sent again is read from the start (as llama.cpp and Ollama
// do). As llama.cpp it streams `prompt_progress` frames when asked with `return_progress: true`
// (https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md). Timeouts are scaled
// down (idle 1 s, prefill 3.5 s); KEEL_PREFILL_SECONDS=150 runs the silent case at full scale
// with Keel's default 120 s idle timeout.
import * as assert from 'node:assert/strict';
import { startModelDouble, text, type ModelDouble } from '../support/modelDouble';
import { serverSession } from '../support/servers/serverSession';

const REAL_SECONDS = Number(process.env.KEEL_PREFILL_SECONDS ?? 0);

describe('prefills are never cut (HTTP, real loop)', function () {
	this.timeout(REAL_SECONDS ? (REAL_SECONDS + 120) * 1000 : 40_000);
	let double: ModelDouble;
	beforeEach(async () => (double = await startModelDouble({ models: ['qwen3:8b'] })));
	afterEach(() => double.close());

	it('a silent prefill several times the idle timeout: one request, waited out while the server answers', async () => {
		const prefillMs = REAL_SECONDS ? REAL_SECONDS * 1000 : 3500;
		const idle = REAL_SECONDS ? {} : { streamIdleTimeoutMs: 1000 };
		double.script({ ...text('Read it all.'), prefillMs });
		const s = serverSession(double, { provider: 'custom', model: 'qwen3:8b', recovery: idle });
		const started = Date.now();
		const outcome = await s.chat.send('Summarise the repository.');
		const seconds = (Date.now() - started) / 1000;
		assert.equal(outcome.reason, 'completed', JSON.stringify(s.notices().map(n => n.text)));
		assert.equal(double.modelRequests.length, 1, 'nothing was sent again while the server worked');
		assert.deepEqual(s.notices('streamRetry'), []);
		const chat = double.modelRequests[0];
		const probes = double.requests.filter(r => r.path === '/v1/models' && r.time > chat.time);
		assert.ok(probes.length >= 1, 'Keel asked the server whether it was still there');
		const waits = s.prefills();
		assert.equal(waits[0].elapsedMs, 0, 'the chat shows the wait from the start');
		if (REAL_SECONDS) {
			console.log(
				`      figure: ${REAL_SECONDS} s silent prefill → ${double.modelRequests.length} request, first token after ${s.usages()[0].ttftMs} ms, turn ${seconds.toFixed(1)} s, ${probes.length} liveness checks`,
			);
		}
	});

	it('llama.cpp: return_progress frames show tokens processed of the total and the cached part', async () => {
		await double.close();
		double = await startModelDouble({ models: ['keel-noise'], server: { kind: 'llamacpp', nCtx: 65_536 } });
		// Keel asks whether the server is alive after a quarter of the idle timeout in silence: frames
		// every 600 ms (a tenth of the prefill) against 1,250 ms leave a loaded machine 650 ms to
		// deliver each one, and the prefill still outlasts the idle timeout.
		double.script({ ...text('Done.'), prefillMs: 6000, usage: { promptTokens: 48_000, cachedTokens: 30_000 } });
		const s = serverSession(double, {
			provider: 'llamacpp',
			model: 'keel-noise',
			recovery: { streamIdleTimeoutMs: 5000 },
		});
		const outcome = await s.chat.send('Go on.');
		assert.equal(outcome.reason, 'completed');
		assert.equal(double.modelRequests.length, 1);
		assert.equal(double.modelRequests[0].body.return_progress, true, 'asked for progress');
		const progress = s.prefills().flatMap(p => (p.progress ? [p.progress] : []));
		assert.ok(progress.length >= 3, `progress frames reached the chat (${progress.length})`);
		for (const p of progress) {
			assert.equal(p.total, 48_000);
			assert.equal(p.cached, 30_000);
		}
		const processed = progress.map(p => p.processed);
		assert.deepEqual(
			processed,
			[...processed].sort((a, b) => a - b),
			'processed only grows',
		);
		assert.equal(processed.at(-1), 48_000);
		// Progress is proof of life: no liveness question was needed.
		const chat = double.modelRequests[0];
		assert.equal(double.requests.filter(r => r.path === '/health' && r.time > chat.time).length, 0);
	});

	it('Ollama native: a silent load and prefill is waited out too', async () => {
		double.script({ ...text('Loaded.'), prefillMs: 3000 });
		const s = serverSession(double, {
			provider: 'ollama',
			model: 'qwen3:8b',
			recovery: { streamIdleTimeoutMs: 1000 },
		});
		const outcome = await s.chat.send('hi');
		assert.equal(outcome.reason, 'completed');
		assert.equal(double.modelRequests.length, 1);
		assert.ok(
			double.requests.some(r => r.path === '/api/version'),
			'asked Ollama whether it is there',
		);
	});

	it('a server that stops answering mid-prefill fails at once with the existing advice, never waiting out the prefill', async () => {
		double.script({ ...text('never'), prefillMs: 120_000 });
		const s = serverSession(double, {
			provider: 'custom',
			model: 'qwen3:8b',
			recovery: { streamIdleTimeoutMs: 1000 },
		});
		setTimeout(() => double.setHealth('hang'), 300);
		const outcome = await s.chat.send('hi');
		assert.equal(outcome.reason, 'failed');
		assert.equal(outcome.error?.code, 'modelUnreachable');
		assert.match(
			outcome.error?.message ?? '',
			/No model server answered at http:\/\/127\.0\.0\.1:\d+\/v1 — check that the server is running/,
		);
		assert.ok(
			double.modelRequests.every(r => r.response?.status === 0 && r.response.frames === 0),
			`no request got to its first token: ${JSON.stringify(double.modelRequests.map(r => r.response))}`,
		);
	});

	it('a server alive but with no first token within keel.model.requestTimeoutSeconds: the turn stops, nothing sent again', async () => {
		double.script({ ...text('never'), prefillMs: 120_000 });
		const s = serverSession(double, {
			provider: 'custom',
			model: 'qwen3:8b',
			recovery: { streamIdleTimeoutMs: 1000, firstTokenTimeoutMs: 2500 },
		});
		const outcome = await s.chat.send('hi');
		assert.equal(outcome.reason, 'failed');
		assert.equal(outcome.error?.code, 'modelTimeout');
		assert.match(outcome.error?.message ?? '', /Raise keel\.model\.requestTimeoutSeconds/);
		assert.equal(double.modelRequests.length, 1, 'not sent again: that would start the reading over');
	});

	it('a server that goes away (socket closed) fails with the same advice', async () => {
		double.script({ ...text('never'), prefillMs: 120_000 });
		const s = serverSession(double, {
			provider: 'llamacpp',
			model: 'qwen3:8b',
			recovery: { streamIdleTimeoutMs: 1000 },
		});
		setTimeout(() => void double.close(), 300);
		const outcome = await s.chat.send('hi');
		assert.equal(outcome.reason, 'failed');
		assert.equal(outcome.error?.code, 'modelUnreachable');
		assert.match(outcome.error?.message ?? '', /start llama\.cpp's server/);
	});
});
