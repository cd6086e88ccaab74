// Turns one step into one HTTP response in the wire format of the endpoint that was hit.
// This is the only place that knows a step is wire-independent.

import type { DataStep, ModelDoubleOptions, RecordedRequest, Wire } from './types';
import { applyReasoningControls } from './servers';
import { fillTemplate } from './template';
import { jsonRendering, resolve, type Rendering } from './wire/shared';
import { openaiErrorBody, renderOpenAI } from './wire/openai';
import { renderOllama } from './wire/ollama';
import { anthropicErrorBody, anthropicErrorType, renderAnthropic } from './wire/anthropic';

export const EMPTY_SCRIPT_MESSAGE = 'model double: no scripted response left';

export function render(step: DataStep, req: RecordedRequest, wire: Wire, opts: ModelDoubleOptions = {}): Rendering {
	switch (step.kind) {
		case 'reply': {
			const resolved = applyReasoningControls(
				resolve(step, req, wire, fillTemplate(step.text ?? '', req.body)),
				(req.body ?? {}) as Record<string, any>,
				wire,
				opts,
			);
			if (wire === 'openai') return renderOpenAI(resolved);
			if (wire === 'ollama') return renderOllama(resolved);
			return renderAnthropic(resolved);
		}
		case 'httpError': {
			const r = jsonRendering(step.status, step.body, step.headers);
			// A body given as non-JSON text is sent as text, exactly as written.
			if (typeof step.body === 'string' && !isJson(step.body))
				r.headers['content-type'] = 'text/plain; charset=utf-8';
			if (step.headers) Object.assign(r.headers, step.headers);
			return r;
		}
		case 'wireError':
			return jsonRendering(
				step.status,
				errorEnvelope(wire, step.status, step.message, step.type, step.code),
				step.headers,
			);
		default: {
			const unknown: never = step;
			throw new Error(`model double: unknown step ${JSON.stringify(unknown)}`);
		}
	}
}

/** The native error body of each wire, so the SDKs surface `message` the way they really do. */
export function errorEnvelope(
	wire: Wire,
	status: number,
	message: string,
	type?: string,
	code?: string | null,
): unknown {
	if (wire === 'ollama') return { error: message };
	if (wire === 'anthropic') return anthropicErrorBody(type ?? anthropicErrorType(status), message);
	return openaiErrorBody(message, type ?? openaiErrorType(status), code ?? null);
}

export function emptyScriptRendering(wire: Wire): Rendering {
	return jsonRendering(500, errorEnvelope(wire, 500, EMPTY_SCRIPT_MESSAGE, 'model_double_error'));
}

function openaiErrorType(status: number): string {
	if (status === 429) return 'requests';
	if (status >= 500) return 'server_error';
	return 'invalid_request_error';
}

function isJson(s: string): boolean {
	try {
		JSON.parse(s);
		return true;
	} catch {
		return false;
	}
}
