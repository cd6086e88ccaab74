// The HTTP server: routes each endpoint to its wire, records every request, hands the next
// scripted step to each chat request, and serves the control API for other processes.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataStep, ModelDouble, ModelDoubleOptions, RecordedRequest, Step, Wire } from './types';
import { emptyScriptRendering, errorEnvelope, render } from './render';
import { send } from './send';
import { jsonRendering, type Rendering } from './wire/shared';
import { validateSteps } from './validate';
import { metaRoute } from './meta';
import { idViolation } from './wire/ids';
import { historyViolation } from './wire/history';
import { serverConstraint, serverContinues, serverRefusal, serverShaped } from './behaviour';
import type { HealthState } from './types';
import { noteOllamaLoad, personaRefusal, type ServerState } from './servers';
import { holdPrefill, prefillLeft } from './prefill';

const CHAT_ROUTES: Record<string, Wire> = {
	'POST /v1/chat/completions': 'openai',
	'POST /chat/completions': 'openai', // llama.cpp also serves it without /v1
	'POST /api/chat': 'ollama',
	'POST /v1/messages': 'anthropic',
};

export async function startModelDouble(options: ModelDoubleOptions = {}): Promise<ModelDouble> {
	let opts = options;
	const steps: Step[] = [];
	const requests: RecordedRequest[] = [];
	// Open chat responses, so reset() and close() can cut stalled streams instead of leaking them.
	const live = new Set<ServerResponse>();
	const state: ServerState = { ollamaLoaded: new Map() };
	let health: HealthState = 'ok';

	const server = createServer((req, res) => {
		handle(req, res).catch(err => {
			if (!res.headersSent)
				void send(
					res,
					jsonRendering(500, { error: `model double: ${String(err?.stack ?? err)}` }),
					{},
					{ status: 0, frames: 0 },
				);
			else res.destroy();
		});
	});

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const path = (req.url ?? '/').split('?')[0];
		const raw = await readBody(req);
		if (path.startsWith('/__double/'))
			return control(req.method ?? 'GET', path, raw, res, { steps, requests, reset });

		const rec: RecordedRequest = {
			method: req.method ?? 'GET',
			path,
			headers: { ...req.headers },
			body: parse(raw),
			time: Date.now(),
		};
		requests.push(rec);
		const wire = CHAT_ROUTES[`${rec.method} ${path}`];
		if (!wire) {
			if (health !== 'ok') {
				// Hung: the socket stays open and silent (cut by close()); gone: the connection drops.
				rec.response = { status: 0, frames: 0, fault: health === 'hang' ? 'stalled' : 'dropped' };
				if (health === 'down') res.socket?.destroy();
				else live.add(res);
				return;
			}
			const meta = metaRoute(rec, opts, state);
			rec.response = { status: meta.status, frames: 0 };
			return send(res, meta, {}, rec.response);
		}

		rec.wire = wire;
		if (wire === 'ollama') noteOllamaLoad(rec, opts, state);
		return answerChat(rec, wire, steps, res, live, opts);
	}

	function reset(): void {
		steps.length = 0;
		health = 'ok';
		requests.length = 0;
		for (const res of live) res.destroy();
		live.clear();
	}

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
	});
	const port = (server.address() as AddressInfo).port;
	const url = `http://127.0.0.1:${port}`;

	return {
		url,
		openaiBaseUrl: `${url}/v1`,
		port,
		requests,
		get modelRequests() {
			return requests.filter(r => r.wire);
		},
		get pending() {
			return steps.length;
		},
		script(...more: Step[]) {
			validateSteps(more.filter(s => typeof s !== 'function'));
			steps.push(...more);
		},
		setHealth(next: HealthState) {
			health = next;
		},
		setServer(next) {
			opts = { ...opts, server: next };
		},
		reset,
		close() {
			for (const res of live) res.destroy();
			return new Promise<void>(resolve => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
		},
	};
}

/** The control API another process scripts the double with. */
function control(
	method: string,
	path: string,
	raw: string,
	res: ServerResponse,
	state: { steps: Step[]; requests: RecordedRequest[]; reset(): void },
): Promise<void> {
	const reply = (status: number, body: unknown) =>
		send(res, jsonRendering(status, body), {}, { status: 0, frames: 0 });
	if (method === 'POST' && path === '/__double/script') {
		try {
			const body = parse(raw);
			const list: unknown[] = Array.isArray(body) ? body : [body];
			validateSteps(list);
			state.steps.push(...(list as DataStep[]));
			return reply(200, { queued: state.steps.length });
		} catch (err) {
			return reply(400, { error: (err as Error).message });
		}
	}
	if (method === 'POST' && path === '/__double/reset') {
		state.reset();
		return reply(200, { ok: true });
	}
	if (method === 'GET' && path === '/__double/requests') return reply(200, state.requests);
	return reply(404, { error: `model double: no control route ${method} ${path}` });
}

/** One chat request: the next step (a function decides from the request), rendered on the wire that was hit. */
async function answerChat(
	rec: RecordedRequest,
	wire: Wire,
	steps: Step[],
	res: ServerResponse,
	live: Set<ServerResponse>,
	opts: ModelDoubleOptions,
): Promise<void> {
	rec.response = { status: 0, frames: 0 };
	// A request the server itself refuses (a grammar it cannot build, a forced choice it does not take) never reaches the model.
	const refused = serverRefusal(opts.server, wire, rec.body);
	if (refused) {
		rec.response.status = refused.status;
		return send(res, refused, {}, rec.response);
	}
	rec.constrained = serverConstraint(opts.server, wire, rec.body);
	rec.continues = serverContinues(opts.server, rec.body);
	const next = steps.shift();
	let step: DataStep | undefined;
	let rendering: Rendering;
	try {
		step = typeof next === 'function' ? next(rec) : next;
		if (step) step = serverShaped(opts.server, wire, rec.body, step);
		if (step) validateSteps([step]);
		// A request whose ids break the server's rule is refused before it reaches the model: the step waits.
		const reply = step?.kind === 'reply' ? step : undefined;
		const badId =
			idViolation(wire, rec.body, reply?.idRule) ??
			historyViolation(wire, rec.body, reply?.historyRules, reply?.historyWording);
		if (badId) {
			if (next) steps.unshift(next);
			rec.response.status = 400;
			const refusal = jsonRendering(400, errorEnvelope(wire, 400, badId, 'invalid_request_error'));
			return send(res, refusal, {}, rec.response);
		}
		// A prompt longer than the server runs is refused before any work (llama.cpp's exceed_context_size_error).
		const refusal = personaRefusal(rec, wire, opts);
		if (refusal) {
			if (next) steps.unshift(next);
			rec.response.status = refusal.status;
			return send(res, refusal, {}, rec.response);
		}
		rendering = step ? render(step, rec, wire, opts) : emptyScriptRendering(wire);
	} catch (err) {
		step = undefined;
		rendering = jsonRendering(500, errorEnvelope(wire, 500, `model double: bad step: ${(err as Error).message}`));
	}
	live.add(res);
	res.once('close', () => live.delete(res));
	const held = Date.now();
	if (step?.kind === 'reply' && step.prefillMs && !(await holdPrefill(res, rec, step, wire, opts))) {
		// The client hung up mid-prefill: the server dropped the request, and a re-send reads the prompt again.
		rec.response.fault = 'clientAborted';
		if (next)
			steps.unshift(
				typeof next === 'function' ? next : { ...step, prefillMs: prefillLeft(step, Date.now() - held, opts) },
			);
		return;
	}
	await send(res, rendering, step ?? {}, rec.response);
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

function parse(raw: string): unknown {
	if (!raw) return undefined;
	try {
		return JSON.parse(raw);
	} catch {
		return raw;
	}
}
