import * as assert from 'assert';
import { mapModelError } from '../../../../../src/core/llm/stream/httpErrors';

// The one mapper every adapter ends in: what the user reads, and what recovery retries.
describe('mapModelError (shared by the OpenAI-compatible, Ollama and Anthropic adapters)', () => {
	const endpoint = { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3:8b' };
	const named = (name: string, message = name) => Object.assign(new Error(message), { name });

	it('a stop is "cancelled", whichever way the SDK reports it', () => {
		assert.strictEqual(mapModelError(new Error('aborted'), { aborted: true }, false, endpoint).code, 'cancelled');
		assert.strictEqual(mapModelError(named('AbortError'), {}, true, endpoint).code, 'cancelled');
	});

	it('the request timeout names the setting to raise', () => {
		const error = mapModelError(named('TimeoutError'), {}, true, endpoint);
		assert.deepStrictEqual(
			[error.code, error.message],
			['modelStream', 'The model did not finish within keel.model.requestTimeoutSeconds.'],
		);
	});

	it('before the first byte, no response means an unreachable server with what to do', () => {
		const error = mapModelError(new Error('ECONNREFUSED'), {}, false, endpoint);
		assert.strictEqual(error.code, 'modelUnreachable');
		assert.match(error.message, /ollama serve/);
	});

	it("after it, a break is a stream error recovery can replay, with the server's words", () => {
		assert.deepStrictEqual(
			[mapModelError(new Error('socket hang up'), {}, true, endpoint)].map(e => [e.code, e.message]),
			[['modelStream', 'The model stream broke: socket hang up']],
		);
		const inStream = mapModelError(
			new Error('overloaded'),
			{ http: { body: '{"error":"overloaded"}' } },
			true,
			endpoint,
		);
		assert.deepStrictEqual([inStream.code, inStream.details.body], ['modelStream', '{"error":"overloaded"}']);
	});

	it('an HTTP error is described with its status, body and headers kept for Retry-After', () => {
		const auth = mapModelError(new Error('401'), { http: { status: 401, body: '' } }, false, endpoint);
		assert.strictEqual(auth.code, 'modelAuth');
		const busy = mapModelError(
			new Error('429'),
			{ http: { status: 429, body: '{"error":{"message":"slow down"}}', headers: { 'retry-after': '3' } } },
			true,
			endpoint,
		);
		assert.deepStrictEqual(
			[busy.code, busy.message, busy.details.headers],
			['modelHttp', 'The model server answered HTTP 429: slow down', { 'retry-after': '3' }],
		);
	});
});
