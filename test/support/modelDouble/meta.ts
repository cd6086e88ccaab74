// Endpoints that are not a model turn: model lists, Ollama's show/version probes, llama.cpp's
// health check. Clients call these to discover models and capabilities, so they answer
// without consuming a scripted step.

import type { ModelDoubleOptions, RecordedRequest } from './types';
import { personaRoute, type ServerState } from './servers';
import { jsonRendering, type Rendering } from './wire/shared';
import { openaiModels } from './wire/openai';
import { anthropicModels } from './wire/anthropic';
import { ollamaShow, ollamaTags } from './wire/ollama';

const DEFAULT_MODELS = ['qwen3:8b'];

export function metaRoute(rec: RecordedRequest, opts: ModelDoubleOptions, state: ServerState): Rendering {
	const models = opts.models ?? DEFAULT_MODELS;
	const route = `${rec.method} ${rec.path}`;
	const persona = personaRoute(rec, opts, models, state);
	if (persona) return persona;
	switch (route) {
		case 'GET /v1/models':
			// Anthropic's SDK lists models on the same path; its version header tells them apart.
			return jsonRendering(
				200,
				rec.headers['anthropic-version'] ? anthropicModels(models) : openaiModels(models),
			);
		case 'GET /api/tags':
			return jsonRendering(200, ollamaTags(models));
		case 'POST /api/show': {
			const name = String(rec.body?.model ?? rec.body?.name ?? '');
			if (!name || (opts.models && !opts.models.includes(name)))
				return jsonRendering(404, { error: `model '${name}' not found` });
			return jsonRendering(
				200,
				ollamaShow(name, opts.contextLength ?? 40960, opts.capabilities ?? ['completion', 'tools']),
			);
		}
		case 'GET /api/version':
			return jsonRendering(200, { version: opts.ollamaVersion ?? '0.12.6' });
		case 'GET /health':
			return jsonRendering(200, { status: 'ok' });
		case 'GET /':
		case 'HEAD /':
			return text(200, 'Ollama is running');
		default:
			return text(404, '404 page not found');
	}
}

function text(status: number, body: string): Rendering {
	return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, frames: [body] };
}
