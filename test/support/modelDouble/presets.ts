// Error responses as the real servers send them. Bodies are copied from the servers' public
// issue threads and documentation or from the servers' own error code, so recovery
// code is tested against what users actually hit, not against what we imagine.
// Each preset is a literal httpError step: it is sent unchanged, whatever endpoint was hit.

import { httpError } from './builders';
import type { HttpErrorStep } from './types';

const oa = (message: string, type: string, code: string | null, param: string | null = null) => ({
	error: { message, type, param, code },
});
const an = (type: string, message: string) => ({ type: 'error', error: { type, message } });

export const presets = {
	// ---- OpenAI (api.openai.com) ----
	openaiRateLimit: (retryAfterSeconds = 1): HttpErrorStep =>
		httpError(
			429,
			oa(
				'Rate limit reached for gpt-4o in organization org-double on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 1s.',
				'requests',
				'rate_limit_exceeded',
			),
			{
				'retry-after': String(retryAfterSeconds),
				'x-ratelimit-limit-requests': '500',
				'x-ratelimit-remaining-requests': '0',
			},
		),
	/** Looks like a rate limit (429) but must never be retried. */
	openaiInsufficientQuota: (): HttpErrorStep =>
		httpError(
			429,
			oa(
				'You exceeded your current quota, please check your plan and billing details.',
				'insufficient_quota',
				'insufficient_quota',
			),
		),
	openaiInvalidApiKey: (): HttpErrorStep =>
		httpError(
			401,
			oa(
				'Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.',
				'invalid_request_error',
				'invalid_api_key',
			),
		),
	openaiContextLengthExceeded: (limit = 128000, sent = 131072): HttpErrorStep =>
		httpError(
			400,
			oa(
				`This model's maximum context length is ${limit} tokens. However, your messages resulted in ${sent} tokens. Please reduce the length of the messages.`,
				'invalid_request_error',
				'context_length_exceeded',
				'messages',
			),
		),
	openaiServerError: (): HttpErrorStep =>
		httpError(
			500,
			oa('The server had an error while processing your request. Sorry about that!', 'server_error', null),
		),
	serviceUnavailable: (retryAfterSeconds?: number): HttpErrorStep =>
		httpError(
			503,
			oa('The server is overloaded or not ready yet.', 'server_error', null),
			retryAfterSeconds === undefined ? undefined : { 'retry-after': String(retryAfterSeconds) },
		),
	/** A proxy in front of the model answering with HTML, not JSON. */
	badGatewayHtml: (): HttpErrorStep =>
		httpError(
			502,
			'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n',
			{ 'content-type': 'text/html' },
		),

	// ---- Ollama, native /api/chat ----
	ollamaModelNotFound: (model = 'qwen3:8b'): HttpErrorStep =>
		httpError(404, { error: `model "${model}" not found, try pulling it first` }),
	/** Ollama's own parser rejected the model's tool call (ollama#12884, #12064, continue#10221). */
	ollamaToolParse500: (raw: string, err: string): HttpErrorStep =>
		httpError(500, { error: `error parsing tool call: raw='${raw}', err=${err}` }),
	/** gpt-oss:20b wrote a shell command instead of JSON arguments (continue#10221). */
	ollamaToolParseNotJson: (): HttpErrorStep =>
		httpError(500, {
			error: "error parsing tool call: raw='ls -R\n', err=invalid character 'l' looking for beginning of value",
		}),
	/** Array-wrapped call with a trailing `]` (ollama#17638); the body really ends at `err=`. */
	ollamaToolParseArrayWrapped: (): HttpErrorStep =>
		httpError(500, {
			error: `error parsing tool call: raw='{"input":"*** Begin Patch\\n*** Update File: f.php\\n@@\\n-    public function total(float $rate): float\\n*** End Patch"}]', err=`,
		}),
	/** Ollama Cloud on a tool turn (codex-router#161). Not a transport retry: reflect it. */
	ollamaInvalidToolCallArguments: (): HttpErrorStep => httpError(400, { error: 'invalid tool call arguments' }),
	/** Replaying history with `arguments` as a string instead of an object (aliasrobotics/cai#76). */
	ollamaArgumentsAsString: (): HttpErrorStep =>
		httpError(400, {
			error: 'json: cannot unmarshal string into Go struct field ChatRequest.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments',
		}),
	/** Same mistake, message seen through promptfoo PR #10980. */
	ollamaValueLooksLikeObject: (): HttpErrorStep =>
		httpError(400, { error: "Value looks like object, but can't find closing '}' symbol" }),
	ollamaRunnerTerminated: (): HttpErrorStep =>
		httpError(500, { error: 'llama runner process has terminated: signal: killed' }),

	// ---- Ollama, OpenAI-compatible /v1 (its openai middleware wraps the same messages) ----
	ollamaV1ModelNotFound: (model = 'qwen3:8b'): HttpErrorStep =>
		httpError(404, oa(`model "${model}" not found, try pulling it first`, 'not_found_error', null)),
	ollamaV1ToolParse500: (raw: string, err: string): HttpErrorStep =>
		httpError(500, oa(`error parsing tool call: raw='${raw}', err=${err}`, 'api_error', null)),

	// ---- llama.cpp server ----
	/** The chat-template parser failed on the model's output (llama.cpp#20761, #24644). */
	llamacppParseError: (pos = 12, rest = '<tool_call>\n<function=read_file>\n<'): HttpErrorStep =>
		httpError(500, {
			error: { code: 500, message: `Failed to parse input at pos ${pos}: ${rest}`, type: 'server_error' },
		}),
	llamacppContextExceeded: (nPrompt = 4476, nCtx = 4096): HttpErrorStep =>
		httpError(400, {
			error: {
				code: 400,
				message: `request (${nPrompt} tokens) exceeds the available context size (${nCtx} tokens)`,
				type: 'exceed_context_size_error',
				n_prompt_tokens: nPrompt,
				n_ctx: nCtx,
			},
		}),
	llamacppLoadingModel: (): HttpErrorStep =>
		httpError(503, { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } }),

	// ---- Anthropic Messages ----
	anthropicOverloaded: (): HttpErrorStep => httpError(529, an('overloaded_error', 'Overloaded')),
	anthropicRateLimit: (retryAfterSeconds = 1): HttpErrorStep =>
		httpError(
			429,
			an(
				'rate_limit_error',
				'This request would exceed the rate limit for your organization of 50,000 input tokens per minute. Please try again later.',
			),
			{
				'retry-after': String(retryAfterSeconds),
				'anthropic-ratelimit-input-tokens-remaining': '0',
			},
		),
	anthropicPromptTooLong: (sent = 208310, max = 200000): HttpErrorStep =>
		httpError(400, an('invalid_request_error', `prompt is too long: ${sent} tokens > ${max} maximum`)),
	anthropicAuthentication: (): HttpErrorStep => httpError(401, an('authentication_error', 'invalid x-api-key')),
	anthropicApiError: (): HttpErrorStep => httpError(500, an('api_error', 'Internal server error')),
} as const;

export type PresetName = keyof typeof presets;
