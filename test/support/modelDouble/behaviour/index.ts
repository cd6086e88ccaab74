// Real servers' behaviours the double can take on, around the scripted model: what it refuses
// before the model runs (a grammar it cannot build, a forced choice it does not take) and what
// it lets out of the model (a forced call it enforces). Off unless a test asks for them.

import type { DataStep, Wire } from '../types';
import { openaiErrorBody } from '../wire/openai';
import { anthropicErrorBody } from '../wire/anthropic';
import { jsonRendering, type Rendering } from '../wire/shared';
import { grammarRefusal, llamaCppMessage, type GrammarFlavour } from './grammar';
import { constrain, enforces, forcedChoice, refusal, type ToolChoiceBehaviour } from './toolChoice';

export type { GrammarFlavour } from './grammar';
export type { ToolChoiceBehaviour } from './toolChoice';

export interface ServerBehaviour {
	/** Compiles the request's tools into a grammar first, and refuses what that server refuses. */
	grammar?: GrammarFlavour;
	/** Bytes of tool schemas the grammar still parses (about 98 KB on llama.cpp); smaller for a server that refuses everything. */
	grammarCeilingBytes?: number;
	/** What the server does with a forced tool choice. */
	toolChoice?: ToolChoiceBehaviour;
	/**
	 * A request that ends with an assistant message: 'continue' (the default) renders it open and
	 * generates the rest, as llama.cpp (unless --no-prefill-assistant), Ollama's /api/chat and
	 * Anthropic's Messages API do (docs.anthropic.com "Prefill Claude's response"); 'restart'
	 * starts a new reply after it, as OpenAI's API does.
	 */
	prefill?: 'continue' | 'restart';
}

/** The open assistant message this server continues, or undefined. */
export function serverContinues(server: ServerBehaviour | undefined, body: any): string | undefined {
	if (server?.prefill === 'restart') return undefined;
	const messages: Array<{ role?: string; content?: unknown }> = Array.isArray(body?.messages) ? body.messages : [];
	const last = messages[messages.length - 1];
	if (last?.role !== 'assistant') return undefined;
	if (typeof last.content === 'string') return last.content;
	const blocks = Array.isArray(last.content) ? (last.content as Array<{ type?: string; text?: string }>) : [];
	return blocks.every(b => b.type === 'text') ? blocks.map(b => b.text ?? '').join('') : undefined;
}

/** A refusal before any step is consumed, or undefined when the request reaches the model. */
export function serverRefusal(server: ServerBehaviour | undefined, wire: Wire, body: any): Rendering | undefined {
	if (!server || wire === 'ollama') return undefined;
	const forced = forcedChoice(wire, body);
	if (forced && server.toolChoice === 'refuse') {
		const r = refusal(wire);
		return jsonRendering(
			r.status,
			wire === 'anthropic' ? anthropicErrorBody(r.type, r.message) : openaiErrorBody(r.message, r.type, r.code),
		);
	}
	const tools: unknown[] = Array.isArray(body?.tools) ? body.tools : [];
	if (!server.grammar || tools.length === 0 || body?.tool_choice === 'none') return undefined;
	const refused = grammarRefusal(tools, server.grammar, server.grammarCeilingBytes);
	if (!refused) return undefined;
	const engine = { error: { code: 400, message: llamaCppMessage(refused), type: 'invalid_request_error' } };
	if (server.grammar === 'llamacpp') return jsonRendering(400, engine);
	// LM Studio passes the engine's answer on inside its own words; on /v1/messages as a 500 api_error.
	const wrapped = `Engine protocol predict request returned 400: ${JSON.stringify(engine)}`;
	return wire === 'anthropic'
		? jsonRendering(500, anthropicErrorBody('api_error', wrapped))
		: jsonRendering(400, openaiErrorBody(wrapped, 'invalid_request_error'));
}

/** The forced call this server holds the model to in this request, or undefined. */
export function serverConstraint(server: ServerBehaviour | undefined, wire: Wire, body: any) {
	const forced = forcedChoice(wire, body);
	return forced && enforces(server?.toolChoice, forced) ? forced : undefined;
}

/** The step as the server lets it out: a forced call it enforces is always a call. */
export function serverShaped(server: ServerBehaviour | undefined, wire: Wire, body: any, step: DataStep): DataStep {
	const forced = forcedChoice(wire, body);
	return forced && enforces(server?.toolChoice, forced) ? constrain(step, forced, body) : step;
}
