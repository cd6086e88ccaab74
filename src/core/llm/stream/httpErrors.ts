import { AgentError } from '../../errors';
import { remoteLoopbackHint } from './remoteHints';
import { serverHints, type ServerHints } from './serverHints';

/** What we know about a failed model request, independent of which SDK raised it. */
export interface ModelFailure {
	status?: number;
	body?: string;
	headers?: Record<string, string>;
	/** True when no HTTP response arrived at all (refused, reset, DNS). */
	connection?: boolean;
}

export interface EndpointInfo {
	baseUrl: string;
	model: string;
	/** keel.model.provider as resolved: which server's advice the error gives. */
	provider?: string;
	/**
	 * The remote Keel runs in (VS Code's remoteName: ssh-remote, wsl, dev-container, …), told by
	 * the host; absent in a local window. A loopback address is then that remote machine.
	 */
	remote?: string;
}

/**
 * Maps a failed request to an error whose sentence tells the user what to do. Recovery
 * (retry, reflect) is decided elsewhere; this only names the failure.
 */
export function describeModelFailure(failure: ModelFailure, endpoint: EndpointInfo): AgentError {
	const { status, body = '' } = failure;
	const details = { status, body, headers: failure.headers };
	if (failure.connection) {
		const remote = remoteLoopbackHint(endpoint.baseUrl, endpoint.remote);
		return new AgentError(
			'modelUnreachable',
			`No model server answered at ${endpoint.baseUrl} — ${hintsFor(endpoint).start}.${remote ? ` ${remote}` : ''}`,
			details,
		);
	}
	if (status === 401 || status === 403) {
		return new AgentError(
			'modelAuth',
			`The model endpoint ${endpoint.baseUrl} refused the request (HTTP ${status}). Run "Keel: Set API Key" to store a valid key.`,
			details,
		);
	}
	if (status === 404 && /model/i.test(body)) {
		return new AgentError(
			'modelNotFound',
			`Model "${endpoint.model}" was not found at ${endpoint.baseUrl} — ${hintsFor(endpoint).missingModel(endpoint.model)}.`,
			details,
		);
	}
	const summary = extractErrorMessage(body) ?? 'no details';
	return new AgentError('modelHttp', `The model server answered HTTP ${status ?? '?'}: ${summary}`, details);
}

/** How an adapter saw a thrown error; everything after that is mapped the same way for every provider. */
export interface ThrownModelError {
	/** The user stopped the request (the SDK's abort error, or the request's own signal). */
	aborted?: boolean;
	/** An HTTP error the SDK parsed; no status means an error event inside a 200 stream. */
	http?: ModelFailure;
}

/**
 * The one error mapper of the model adapters: a stop is `cancelled`, the request timeout and a
 * stream that broke after it started are `modelStream` (recovery replays those), an HTTP error
 * is named by describeModelFailure, anything else before the first byte is an unreachable server.
 */
export function mapModelError(
	error: unknown,
	seen: ThrownModelError,
	midStream: boolean,
	endpoint: EndpointInfo,
): AgentError {
	const name = (error as { name?: string } | undefined)?.name;
	if (seen.aborted || name === 'AbortError') {
		return new AgentError('cancelled', 'Stopped.', { cause: error });
	}
	if (name === 'TimeoutError') {
		return new AgentError('modelStream', `The model did not finish within keel.model.requestTimeoutSeconds.`, {
			cause: error,
		});
	}
	const message = error instanceof Error ? error.message : String(error);
	if (seen.http) {
		if (midStream && seen.http.status === undefined) {
			return new AgentError('modelStream', `The model stream broke: ${message}`, {
				body: seen.http.body,
				cause: error,
			});
		}
		return describeModelFailure(seen.http, endpoint);
	}
	if (midStream) {
		return new AgentError('modelStream', `The model stream broke: ${message}`, { cause: error });
	}
	return describeModelFailure({ connection: true }, endpoint);
}

/** Pulls the human message out of the error bodies OpenAI, Ollama, llama.cpp and Anthropic send. */
export function extractErrorMessage(body: string): string | undefined {
	if (!body) {
		return undefined;
	}
	try {
		const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
		const error = parsed.error;
		if (typeof error === 'string') {
			return error;
		}
		if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
			return (error as { message: string }).message;
		}
		if (typeof parsed.message === 'string') {
			return parsed.message;
		}
	} catch {
		// Not JSON: fall through to the raw text, trimmed.
	}
	return body.slice(0, 500);
}

/** The provider when known; else a local Ollama is recognised by its port (settings from before presets). */
function hintsFor(endpoint: EndpointInfo): ServerHints {
	const local = /^https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):11434\b/.test(endpoint.baseUrl);
	return serverHints(endpoint.provider ?? (local ? 'ollama' : undefined));
}
