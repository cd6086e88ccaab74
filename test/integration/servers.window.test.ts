// The window the server runs, through the real loop over HTTP: the double answers as llama.cpp
// (`-c 4096` of a 262,144-token model: /props n_ctx per slot, and HTTP 400
// exceed_context_size_error for a prompt that does not fit, as the real llama-server does),
// LM Studio (/api/v1/models: 4,096 loaded of 262,144), vLLM (max_model_len) and Ollama
// (/api/show, /api/ps). References: test/support/modelDouble/servers.ts.
import * as assert from 'node:assert/strict';
import { startModelDouble, text, toolCall, type ModelDouble } from '../support/modelDouble';
import { serverSession } from '../support/servers/serverSession';

/** A file of about `tokens` tokens (four characters each), in lines of 60 characters. */
const big = (tokens: number, tag: string) =>
	Array.from(
		{ length: Math.ceil((tokens * 4) / 60) },
		(_, i) => `${tag}${i} lorem ipsum dolor sit amet consectetur adipiscing e`,
	).join('\n');
const files = {
	'a.txt': big(1200, 'a'),
	'b.txt': big(1200, 'b'),
	'c.txt': big(1200, 'c'),
	'd.txt': big(1200, 'd'),
};
/** Four reads of ~1,200 tokens each, then the answer: ~5,000 tokens in all, more than 4,096 unless compacted. */
const reads = () => [
	toolCall('read_file', { path: 'a.txt' }),
	toolCall('read_file', { path: 'b.txt' }),
	toolCall('read_file', { path: 'c.txt' }),
	toolCall('read_file', { path: 'd.txt' }),
	text('Read them all.'),
];

describe('the window the server runs (HTTP, real loop)', function () {
	this.timeout(30_000);

	describe('llama.cpp at -c 4096 of a 262,144-token model', () => {
		let double: ModelDouble;
		before(async () => {
			double = await startModelDouble({
				models: ['keel-noise'],
				server: { kind: 'llamacpp', nCtx: 4096, nCtxTrain: 262_144, totalSlots: 4 },
			});
		});
		afterEach(() => double.reset());
		after(() => double.close());

		it('plans for 4,096, compacts in time (the server never refuses a prompt), warns once with what to change', async () => {
			const s = serverSession(double, { provider: 'llamacpp', model: 'keel-noise', files });
			double.script(...reads(), text('Still here.'));
			const first = await s.chat.send('Read the four files.');
			assert.equal(first.reason, 'completed', JSON.stringify(s.notices().map(n => n.text)));
			const second = await s.chat.send('And now?');
			assert.equal(second.reason, 'completed');

			const refused = double.modelRequests.filter(r => r.response?.status === 400);
			assert.deepEqual(
				refused.map(r => r.response?.status),
				[],
				'no prompt past the slot’s 4,096 tokens',
			);
			assert.ok(s.usages().length >= 6);
			for (const usage of s.usages()) {
				assert.equal(usage.contextWindow, 4096, 'the meter shows the window the server runs');
				assert.match(
					usage.windowNote ?? '',
					/the server runs 4,096 tokens \(llama\.cpp \/props n_ctx \(per slot\)\); keel\.model\.contextWindow is 32,768/,
				);
			}
			const warnings = s.notices('serverWindow');
			assert.equal(warnings.length, 1, 'said once, not at every turn');
			assert.equal(warnings[0].notify, true);
			assert.match(warnings[0].text, /runs a 4,096-token context window \(the model was trained for 262,144\)/);
			assert.match(warnings[0].text, /--ctx-size/);
			assert.ok(
				s.notices('compacted').length >= 1,
				`old tool outputs were compacted to fit 4,096: ${JSON.stringify(s.usages().map(u => u.promptTokens))} ${JSON.stringify(s.notices().map(n => n.text))}`,
			);
			// Every request asked for an answer that fits what is left of the 4,096.
			for (const request of double.modelRequests) {
				assert.ok(request.body.max_tokens <= 4096, `max_tokens ${request.body.max_tokens}`);
			}
		});

		it('a second chat in the same window is not warned again', async () => {
			const shownOnce = new Set<string>();
			double.script(text('One.'), text('Two.'));
			const a = serverSession(double, { provider: 'llamacpp', model: 'keel-noise', shownOnce });
			await a.chat.send('hi');
			const b = serverSession(double, { provider: 'llamacpp', model: 'keel-noise', shownOnce });
			await b.chat.send('hi again');
			assert.equal(a.notices('serverWindow').length, 1);
			assert.equal(b.notices('serverWindow').length, 0);
			assert.equal(b.usages()[0].contextWindow, 4096);
		});

		it('a setting already within what the server runs is kept, and nothing is said', async () => {
			double.script(text('Fine.'));
			const s = serverSession(double, { provider: 'llamacpp', model: 'keel-noise', contextWindow: 4096 });
			await s.chat.send('hi');
			assert.equal(s.notices('serverWindow').length, 0);
			assert.equal(s.usages()[0].contextWindow, 4096);
			assert.equal(s.usages()[0].windowNote, undefined);
		});
	});

	it('LM Studio: the loaded instance’s 4,096, not the model’s 262,144', async () => {
		const double = await startModelDouble({
			models: ['qwen/qwen3.6-35b'],
			server: { kind: 'lmstudio', maxContext: 262_144, loadedContext: 4096 },
		});
		try {
			double.script(text('Hello.'));
			const s = serverSession(double, { provider: 'lmstudio', model: 'qwen/qwen3.6-35b' });
			await s.chat.send('hi');
			assert.equal(s.usages()[0].contextWindow, 4096);
			assert.match(s.notices('serverWindow')[0].text, /load the model in LM Studio with a larger Context Length/);
			assert.ok(
				double.requests.some(r => r.path === '/api/v1/models'),
				'asked LM Studio’s own API',
			);
		} finally {
			await double.close();
		}
	});

	it('vLLM: max_model_len from /v1/models', async () => {
		const double = await startModelDouble({
			models: ['Qwen/Qwen3-8B'],
			server: { kind: 'vllm', maxModelLen: 8192 },
		});
		try {
			double.script(text('Hello.'));
			const s = serverSession(double, { provider: 'custom', model: 'Qwen/Qwen3-8B' });
			await s.chat.send('hi');
			assert.equal(s.usages()[0].contextWindow, 8192);
			assert.match(s.notices('serverWindow')[0].text, /--max-model-len/);
		} finally {
			await double.close();
		}
	});

	it('Ollama: num_ctx is what Keel plans for, cut to the trained window; a load smaller than asked is noticed', async () => {
		const double = await startModelDouble({ models: ['small:1b'], contextLength: 8192 });
		try {
			double.script(text('One.'), text('Two.'));
			const s = serverSession(double, { provider: 'ollama', model: 'small:1b' });
			await s.chat.send('hi');
			const chat = double.modelRequests[0].body;
			assert.equal(chat.options.num_ctx, 8192, 'asked for what the model was trained for, not 32,768');
			assert.equal(s.usages()[0].contextWindow, 8192);
			assert.match(s.notices('serverWindow')[0].text, /trained for 8,192 tokens/);
			// /api/ps shows the model loaded with what Keel asked: the next turn plans the same.
			const ps = (await (await fetch(`${double.url}/api/ps`)).json()) as {
				models: Array<{ context_length: number }>;
			};
			assert.equal(ps.models[0].context_length, 8192);
			await s.chat.send('again');
			assert.equal(s.usages().at(-1)!.contextWindow, 8192);
			assert.equal(s.notices('serverWindow').length, 1);
		} finally {
			await double.close();
		}
	});
});
