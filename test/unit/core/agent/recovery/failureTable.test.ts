import * as assert from 'assert';
import { classifyFailure, parseRetryAfter } from '../../../../../src/core/agent/recovery/failures/failureTable';
import { AgentError } from '../../../../../src/core/errors';
import { describeModelFailure } from '../../../../../src/core/llm/stream/httpErrors';

const endpoint = { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3:8b' };
const http = (status: number, body: unknown, headers?: Record<string, string>) =>
	describeModelFailure({ status, body: typeof body === 'string' ? body : JSON.stringify(body), headers }, endpoint);

describe('failure classification table', () => {
	const rows: Array<[string, unknown, string, string]> = [
		[
			'429 rate limit',
			http(429, { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } }),
			'transient',
			'retry',
		],
		[
			'429 insufficient quota',
			http(429, { error: { message: 'You exceeded your current quota', type: 'insufficient_quota' } }),
			'billing',
			'stop',
		],
		[
			'429 Z.AI 1113 insufficient balance',
			http(429, {
				error: { code: '1113', message: 'Insufficient balance or no resource package. Please recharge.' },
			}),
			'billing',
			'stop',
		],
		[
			'400 Anthropic credit balance',
			http(400, {
				type: 'error',
				error: {
					type: 'invalid_request_error',
					message: 'Your credit balance is too low to access the Anthropic API.',
				},
			}),
			'billing',
			'stop',
		],
		[
			'400 Ollama does not support tools',
			http(400, { error: 'registry.ollama.ai/library/gemma3:4b does not support tools' }),
			'toolsUnsupported',
			'textMode',
		],
		[
			'400 vLLM auto tool choice',
			http(400, {
				object: 'error',
				message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
				type: 'BadRequestError',
				code: 400,
			}),
			'toolsUnsupported',
			'textMode',
		],
		[
			'500 Ollama input exceeds context length',
			http(500, { error: 'input exceeds context length' }),
			'contextOverflow',
			'compact',
		],
		[
			'400 vLLM maximum context length',
			http(400, {
				object: 'error',
				message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
			}),
			'contextOverflow',
			'compact',
		],
		// OpenAI's own words for a passing server-side failure.
		['500 server error', http(500, { error: { message: 'The server had an error' } }), 'transient', 'retry'],
		// An error whose words Keel does not know is retried at most twice, whatever its status.
		[
			'500 unknown words',
			http(500, { error: { message: 'Something went sideways (E-7731)' } }),
			'unknown',
			'retryUnknown',
		],
		['502 HTML from a proxy', http(502, '<html>502 Bad Gateway</html>'), 'transient', 'retry'],
		['503 loading model', http(503, { error: { code: 503, message: 'Loading model' } }), 'transient', 'retry'],
		[
			'529 overloaded',
			http(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
			'transient',
			'retry',
		],
		['connection refused', describeModelFailure({ connection: true }, endpoint), 'transient', 'retry'],
		['stream broke', new AgentError('modelStream', 'The model stream broke: terminated'), 'stream', 'retryStream'],
		[
			'no first token within the request timeout, the server alive: not sent again',
			new AgentError('modelTimeout', 'No first token after 600 s (keel.model.requestTimeoutSeconds)'),
			'permanent',
			'stop',
		],
		[
			'error event inside a 200 stream',
			new AgentError('modelHttp', 'x', { status: undefined }),
			'stream',
			'retryStream',
		],
		[
			'Ollama 500 tool parse',
			http(500, { error: "error parsing tool call: raw='ls -R\n', err=invalid character 'l'" }),
			'format',
			'reflect',
		],
		[
			'llama.cpp 500 parse',
			http(500, { error: { code: 500, message: 'Failed to parse input at pos 12: <tool_call>' } }),
			'format',
			'reflect',
		],
		['Ollama Cloud 400 invalid args', http(400, { error: 'invalid tool call arguments' }), 'format', 'reflect'],
		[
			'OpenAI context length',
			http(400, {
				error: {
					message: "This model's maximum context length is 128000 tokens.",
					code: 'context_length_exceeded',
				},
			}),
			'contextOverflow',
			'compact',
		],
		[
			'llama.cpp context',
			http(400, { error: { message: 'request (4476 tokens) exceeds the available context size (4096 tokens)' } }),
			'contextOverflow',
			'compact',
		],
		[
			'Anthropic prompt too long',
			http(400, { type: 'error', error: { message: 'prompt is too long: 208310 tokens > 200000 maximum' } }),
			'contextOverflow',
			'compact',
		],
		[
			'400 bad request',
			http(400, { error: { message: 'Unrecognized request argument' } }),
			'unknown',
			'retryUnknown',
		],
		['401 auth', http(401, { error: { message: 'Incorrect API key' } }), 'permanent', 'stop'],
		['403 forbidden', http(403, 'forbidden'), 'permanent', 'stop'],
		[
			'404 model not found',
			http(404, { error: 'model "qwen3:8b" not found, try pulling it first' }),
			'permanent',
			'stop',
		],
		['422 unprocessable', http(422, { detail: 'bad' }), 'unknown', 'retryUnknown'],
		[
			'Ollama replay 400 (arguments as string)',
			http(400, {
				error: 'json: cannot unmarshal string into Go struct field ChatRequest.messages.tool_calls.function.arguments',
			}),
			'unknown',
			'retryUnknown',
		],
		['cancelled', new AgentError('cancelled', 'Stopped.'), 'cancelled', 'stop'],
		['abort error', Object.assign(new Error('aborted'), { name: 'AbortError' }), 'cancelled', 'stop'],
		['unknown thrown value', new Error('boom'), 'permanent', 'stop'],
	];
	for (const [name, error, failureClass, action] of rows) {
		it(`${name} → ${failureClass} / ${action}`, () => {
			const c = classifyFailure(error);
			assert.strictEqual(c.failureClass, failureClass);
			assert.strictEqual(c.action, action);
		});
	}

	it('takes the raw model text out of provider parse errors', () => {
		assert.strictEqual(
			classifyFailure(http(500, { error: "error parsing tool call: raw='ls -R\n', err=invalid" })).raw,
			'ls -R\n',
		);
		assert.strictEqual(
			classifyFailure(
				http(500, {
					error: { message: 'Failed to parse input at pos 12: <tool_call>\n<function=read_file>\n<' },
				}),
			).raw,
			'<tool_call>\n<function=read_file>\n<',
		);
	});

	it('says how to fix permanent failures', () => {
		assert.match(http(401, {}).message, /Keel: Set API Key/);
		assert.match(describeModelFailure({ connection: true }, endpoint).message, /ollama serve/);
		assert.match(http(404, { error: 'model "qwen3:8b" not found' }).message, /"qwen3:8b"/);
	});

	it('reads Retry-After as ms, seconds or an HTTP date', () => {
		assert.strictEqual(parseRetryAfter({ 'retry-after-ms': '250' }), 250);
		assert.strictEqual(parseRetryAfter({ 'retry-after': '3' }), 3000);
		const now = Date.parse('2026-01-01T00:00:00Z');
		assert.strictEqual(
			parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, () => now),
			10_000,
		);
		assert.strictEqual(parseRetryAfter({ 'retry-after': 'soon' }), undefined);
		assert.strictEqual(classifyFailure(http(429, {}, { 'retry-after': '2' })).retryAfterMs, 2000);
	});
});
