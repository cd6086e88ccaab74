import type { HistoryRuleName } from './wire/history';
import type { ServerBehaviour } from './behaviour';
import type { ServerPersona } from './servers';

// The vocabulary of the model double. Steps are plain JSON on purpose: a test in another
// process (e.g. Playwright driving VS Code) must be able to POST them to /__double/script.

/** Which real server's protocol a request spoke; decides how a step is rendered. */
export type Wire = 'openai' | 'ollama' | 'anthropic';

/** Transport faults. Counts are in wire frames: one SSE event (`data:` line, or
 *  `event:`+`data:` pair for Anthropic) or one NDJSON line. A non-streamed body is one frame. */
export interface Faults {
	/** Destroy the socket after this many frames: no [DONE], no message_stop, no done:true. */
	dropAfter?: number;
	/** Send this many frames, then keep the connection open and silent (idle-timeout tests). */
	stallAfter?: number;
	/** After this many frames, send the wire's in-stream error event and end (HTTP status stays 200). */
	errorAfter?: number;
	/** The error carried by `errorAfter`; defaults to an overload. */
	streamError?: { type?: string; message: string };
	/** Wait this long before every frame. */
	delayMs?: number;
	/** Wait this long before the status line (a slow model load, time to first byte). */
	headerDelayMs?: number;
	/** Destroy the socket without any response (connection reset before headers). */
	closeBeforeHeaders?: boolean;
	/** Keep the connection open and silent after the last frame, as some servers do after their final chunk. */
	holdOpen?: boolean;
	/**
	 * Shape of the `errorAfter` error: an SSE `event: error`, a plain `data:` line, a raw JSON line
	 * with no SSE framing, or `field`: the error object on a line whose SSE field is `error:`
	 * (then `data: [DONE]`), as llama-server sent it in a 200 stream before
	 * https://github.com/ggml-org/llama.cpp/pull/16109 (issue #16104); the frame is quoted in
	 * https://github.com/coddy-project/coddy-agent/pull/106.
	 */
	streamErrorShape?: 'event' | 'data' | 'raw' | 'field';
	/** The whole JSON the `errorAfter` error carries, instead of the wire's own envelope around `streamError`. */
	streamErrorBody?: unknown;
}

/** SSE framing as servers in the wild write it (OpenAI and Anthropic wires); all of it is valid per the spec. */
export interface SseStyle {
	/** `: keep-alive` comment lines between events. */
	comments?: boolean;
	/** `data:{…}` without the space after the colon. */
	noSpace?: boolean;
	/** CRLF line endings. */
	crlf?: boolean;
	/** JSON pretty-printed over several `data:` lines of one event. */
	multiline?: boolean;
	/** No `data: [DONE]` at the end (OpenAI). */
	noDone?: boolean;
}

/** How argument deltas carry a call's arguments (see `ReplyStep.argDeltas`). */
export type ArgDeltaShape = 'pieces' | 'accumulated' | 'repeatComplete' | 'objectPieces';

export interface ToolCallSpec {
	name: string;
	/** Kept verbatim on every wire, so malformed JSON reaches the client as a real server would send it. */
	arguments: string;
	id?: string;
}

export interface Usage {
	/** Override to simulate e.g. Ollama silently truncating the prompt to num_ctx. */
	promptTokens?: number;
	completionTokens?: number;
	/** Prompt tokens the server took from its KV / prompt cache, reported in each wire's own fields:
	 *  OpenAI `prompt_tokens_details.cached_tokens` with llama.cpp's `timings` (cache_n, prompt_n),
	 *  Ollama a `prompt_eval_count` without them, Anthropic `cache_read_input_tokens`. */
	cachedTokens?: number;
}

/** One assistant turn: optional text, then optional tool calls. */
export interface ReplyStep extends Faults {
	kind: 'reply';
	/** May hold {{lastToolResult}} and {{lastUser}}, filled from the request at answer time. */
	text?: string;
	textChunks?: number;
	toolCalls?: ToolCallSpec[];
	/** Fragments per tool call's arguments on wires that stream fragments (OpenAI, Anthropic). */
	argSplit?: number;
	usage?: Usage;
	/** How long the server says it took: llama.cpp's `timings` on the OpenAI wire, Ollama's durations. */
	serverTimings?: { promptMs: number; generationMs: number };
	/** Overrides finish_reason / stop_reason / done_reason. */
	finishReason?: string;
	/** Model name echoed back; defaults to the request's `model`. */
	model?: string;
	/** Reasoning sent apart from the answer, before it: OpenAI-compatible `reasoning_content`
	 *  (or `reasoning`, see reasoningField), Ollama `message.thinking`, Anthropic thinking blocks. */
	reasoning?: string;
	reasoningField?: 'reasoning_content' | 'reasoning';
	/** OpenAI wire only: how the calls are shaped on the wire, as some servers really send them.
	 *  legacyFunctionCall: the old `function_call` delta; indexZero: every call with index 0 (Ollama /v1);
	 *  objectArguments: `arguments` as a JSON object instead of a string. */
	callShape?: 'standard' | 'legacyFunctionCall' | 'indexZero' | 'objectArguments';
	/**
	 * OpenAI wire, standard call shape: how each call's argument deltas carry the text, as servers
	 * send them. `pieces`: string fragments to append (OpenAI); `accumulated`: every fragment
	 * repeats the whole buffer so far; `repeatComplete`: the fragments, then the complete object
	 * once more; `objectPieces`: each delta an object with some of the keys, a long string value
	 * split over consecutive deltas of the same key, as MiniMax streams them
	 * (https://github.com/can1357/oh-my-pi/pull/1779, https://github.com/can1357/oh-my-pi/pull/2082).
	 */
	argDeltas?: ArgDeltaShape;
	/** SSE framing variants (OpenAI, Anthropic). */
	sse?: SseStyle;
	/** OpenAI wire: `content` (and reasoning) as a list of typed parts instead of a string. */
	contentParts?: boolean;
	/** Every call is sent twice: OpenAI the whole call again under the same index and id, Ollama
	 *  the tool_calls line again, Anthropic the tool_use block again with the same id. */
	resendCalls?: boolean;
	/** No finish_reason / stop_reason / done_reason at all. */
	omitFinish?: boolean;
	/** Text sent after the tool calls in the same response (a model inventing the call's output). */
	textAfter?: string;
	/**
	 * The server reads the prompt this long before its first token (prefill.ts): silent, or with
	 * llama.cpp's status line, `prompt_progress` frames or pings when the double is a llama.cpp
	 * server. A client that hangs up meanwhile cancels the work: the step waits for the request
	 * sent again, which is read from the start (as llama.cpp, from what the slot had processed).
	 */
	prefillMs?: number;
	/** Ids the request carries must follow this server's rule, else HTTP 400 in its words:
	 *  `mistral` (9 characters a-z, A-Z, 0-9). OpenAI's 40-character limit and Anthropic's
	 *  `^[a-zA-Z0-9_-]+$` are always checked on their wires. */
	idRule?: 'mistral';
	/** History rules real servers enforce (wire/history.ts, each with its reference), refused with
	 *  HTTP 400 in the server's words; `historyWording` picks among each rule's real wordings. */
	historyRules?: HistoryRuleName[];
	historyWording?: number;
}

/** A literal HTTP error: exactly this status, body and headers, whatever the wire. */
export interface HttpErrorStep extends Faults {
	kind: 'httpError';
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

/** An error rendered in the native envelope of whichever wire was hit. */
export interface WireErrorStep extends Faults {
	kind: 'wireError';
	status: number;
	message: string;
	/** OpenAI `error.type` / Anthropic `error.type`; Ollama's envelope has no type. */
	type?: string;
	code?: string | null;
	headers?: Record<string, string>;
}

export type DataStep = ReplyStep | HttpErrorStep | WireErrorStep;

/** In-process only: decide the answer from the request (e.g. echo an argument back). */
export type StepFn = (req: RecordedRequest) => DataStep;
export type Step = DataStep | StepFn;

export interface ResponseRecord {
	status: number;
	/** Frames actually written. */
	frames: number;
	/** What cut the response short, if anything. */
	fault?: 'dropped' | 'stalled' | 'streamError' | 'closedBeforeHeaders' | 'clientAborted';
}

export interface RecordedRequest {
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON, or the raw text when the body was not JSON, or undefined when empty. */
	body: any;
	/** Epoch ms when the request body had been read. */
	time: number;
	wire?: Wire;
	/**
	 * The server holds the model to a call in this request (a forced tool_choice it enforces):
	 * a step function answers as a model under that grammar does, with the call it means.
	 */
	constrained?: { kind: 'required' } | { kind: 'named'; name: string };
	/**
	 * The request ends with an assistant message the server continues (llama.cpp's assistant
	 * prefill, Ollama, Anthropic's prefill): its text. A step function answers with the rest.
	 */
	continues?: string;
	/** Filled in as the response is written, so it is final once the client saw the end. */
	response?: ResponseRecord;
}

/** A real server the double plays: a persona (kind), tool behaviours, or both. */
export type ServerDescription = (ServerPersona | { kind?: undefined }) & ServerBehaviour;

export interface ModelDoubleOptions {
	/** 0 (default) picks a free port. */
	port?: number;
	/** Names listed by /v1/models and /api/tags. */
	models?: string[];
	/** Reported by /api/show as `<family>.context_length`. */
	contextLength?: number;
	/** Reported by /api/show; drop "tools" to test capability filtering. */
	capabilities?: string[];
	ollamaVersion?: string;
	/**
	 * Which real server it is beyond the chat wires (servers.ts: its window endpoints and what it
	 * does because of them), and what it does with tools around the model (behaviour/: the
	 * grammar it builds, what it does with a forced call). Either part alone is fine.
	 */
	server?: ServerDescription;
}

/** How the server answers everything but chat requests: normally, not at all (hung), or by dropping the connection. */
export type HealthState = 'ok' | 'hang' | 'down';

export interface ModelDouble {
	readonly url: string;
	readonly openaiBaseUrl: string;
	readonly port: number;
	readonly requests: RecordedRequest[];
	/** Requests that consumed a step (chat endpoints only). */
	readonly modelRequests: RecordedRequest[];
	/** How many steps are still queued. */
	readonly pending: number;
	script(...steps: Step[]): void;
	/** A server that stops answering its health and model endpoints while chat requests stay open (hung or gone). */
	setHealth(state: HealthState): void;
	/** The server restarted as another (or with other flags): what its endpoints say from now on. */
	setServer(server: ServerDescription | undefined): void;
	reset(): void;
	close(): Promise<void>;
}
