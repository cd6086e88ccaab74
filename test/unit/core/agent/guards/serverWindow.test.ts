// The window a turn plans for, over generated settings and server answers: never more than the
// setting, never more than what the server runs, and a warning exactly when the server runs less.
import * as assert from 'assert';
import * as fc from 'fast-check';
import { windowInForce } from '../../../../../src/core/agent/guards/serverWindow';
import type { ServerFacts } from '../../../../../src/core/llm/chatModel';

const size = fc.integer({ min: 1024, max: 1_048_576 });
const kind = fc.constantFrom<ServerFacts['kind']>('llamacpp', 'lmstudio', 'vllm', undefined);

describe('the window in force', () => {
	it('is the setting, or what the server runs when that is less; a warning says so exactly then', () => {
		fc.assert(
			fc.property(
				size,
				fc.option(size, { nil: undefined }),
				fc.option(size, { nil: undefined }),
				kind,
				(configured, running, trained, k) => {
					const facts: ServerFacts = { kind: k, running, trained };
					const w = windowInForce(configured, facts);
					assert.ok(w.window <= configured, 'never more than the setting');
					if (running !== undefined) {
						assert.strictEqual(w.window, Math.min(configured, running));
					} else if (trained !== undefined) {
						assert.strictEqual(w.window, Math.min(configured, trained));
					} else {
						assert.strictEqual(w.window, configured);
					}
					assert.strictEqual(w.warning !== undefined, w.window < configured);
					assert.strictEqual(w.note !== undefined, w.window < configured);
					// The same server and window make the same key: said once, not at every turn.
					assert.deepStrictEqual(windowInForce(configured, facts).warning?.key, w.warning?.key);
				},
			),
		);
	});

	it('llama.cpp at 4,096 of a 262,144 model: Keel plans for 4,096 and says what to change', () => {
		const w = windowInForce(32_768, {
			kind: 'llamacpp',
			running: 4096,
			trained: 262_144,
			slots: 4,
			source: 'llama.cpp /props n_ctx (per slot)',
		});
		assert.strictEqual(w.window, 4096);
		assert.match(w.warning!.text, /runs a 4,096-token context window \(the model was trained for 262,144\)/);
		assert.match(w.warning!.text, /--ctx-size/);
		assert.match(w.warning!.text, /--parallel 1/);
		assert.match(w.warning!.text, /keel\.model\.contextWindow to 4,096/);
		assert.match(w.note!, /llama\.cpp \/props n_ctx \(per slot\)/);
	});

	it('LM Studio names its Context Length; vLLM its --max-model-len', () => {
		assert.match(
			windowInForce(32_768, { kind: 'lmstudio', running: 4096 }).warning!.text,
			/LM Studio with a larger Context Length/,
		);
		assert.match(windowInForce(32_768, { kind: 'vllm', running: 8192 }).warning!.text, /--max-model-len/);
	});

	it('Ollama: asked for the setting up to what the model was trained for; a smaller load than asked is noticed', () => {
		fc.assert(
			fc.property(size, size, fc.option(size, { nil: undefined }), (configured, trained, loaded) => {
				const first = windowInForce(configured, { kind: 'ollama', trained, running: loaded });
				// Before Keel asked for anything, what another client loaded says nothing about Keel's request.
				assert.strictEqual(first.window, Math.min(configured, trained));
				const later = windowInForce(configured, { kind: 'ollama', trained, running: loaded }, first.window);
				const expected = loaded !== undefined && loaded < first.window ? loaded : first.window;
				assert.strictEqual(later.window, expected);
			}),
		);
		const cut = windowInForce(32_768, { kind: 'ollama', trained: 40_960, running: 8192 }, 32_768);
		assert.match(
			cut.warning!.text,
			/Ollama loaded the model with a 8,192-token context although Keel asked for 32,768 \(num_ctx\)/,
		);
	});
});
