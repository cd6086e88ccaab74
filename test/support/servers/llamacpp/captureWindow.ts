// The window the server runs: /props, /v1/models and /health with -c 4096 (slots left to the
// server) and with --parallel 2, and what it answers when a prompt does not fit.
import { abbreviate, logSince, responsePart, serverLine, type Fixture } from './fixtures';
import type { LlamaServer } from './launch';
import { chatBody, countTokens, textOfTokens } from './prompts';
import { rawRequest } from './rawHttp';

const README = 'https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md';

/** One GET as a fixture; the template text in /props is shortened (it is the file the server was given). */
async function get(
	server: LlamaServer,
	name: string,
	path: string,
	shows: string,
	references: string[],
): Promise<Fixture> {
	const raw = await rawRequest(server.url, 'GET', path);
	const response = responsePart(raw);
	const body = response.body as Record<string, unknown> | undefined;
	if (body && typeof body.chat_template === 'string') body.chat_template = abbreviate(body.chat_template, 200);
	return { name, shows, references, server: serverLine(server), request: { method: 'GET', path }, response };
}

/** -c 4096, slots left to the server (auto: 4 slots sharing one unified KV cache). */
export async function captureWindow(server: LlamaServer, suffix: string, slotsNote: string): Promise<Fixture[]> {
	const out: Fixture[] = [];
	out.push(
		await get(
			server,
			`props-${suffix}`,
			'/props',
			`GET /props ${slotsNote}: default_generation_settings.n_ctx is the window one slot runs, total_slots the slots; the trained window is not here.`,
			[`${README}#get-props-get-server-global-properties`, 'https://github.com/ggml-org/llama.cpp/issues/25895'],
		),
	);
	out.push(
		await get(
			server,
			`models-${suffix}`,
			'/v1/models',
			`GET /v1/models ${slotsNote}: data[].meta.n_ctx_train is the trained window (262,144 for this model), not the one the server runs.`,
			[`${README}#get-v1models-openai-compatible-model-info-api`],
		),
	);
	return out;
}

export async function captureHealth(server: LlamaServer): Promise<Fixture> {
	const fixture = await get(
		server,
		'health',
		'/health',
		'GET /health once the model is loaded; observed.whileLoading is what it answered before (503, "Loading model").',
		[`${README}#get-health-returns-health-check-result`],
	);
	if (server.loadingAnswer) {
		fixture.observed = {
			whileLoading: { status: server.loadingAnswer.status, body: JSON.parse(server.loadingAnswer.body) },
		};
	}
	return fixture;
}

/** A prompt of `tokens` tokens with nothing else; stream or not. */
async function overflow(
	server: LlamaServer,
	name: string,
	shows: string,
	tokens: number,
	extra: Record<string, unknown>,
): Promise<Fixture> {
	const user = await textOfTokens(server.url, tokens);
	const body = chatBody(user, extra);
	const from = server.log().length;
	const raw = await rawRequest(server.url, 'POST', '/v1/chat/completions', body);
	return {
		name,
		shows,
		references: [
			`${README}#post-completion-given-a-prompt-it-returns-the-predicted-completion`,
			'https://github.com/ggml-org/llama.cpp/blob/master/tools/server/tests/unit/test_chat_completion.py',
		],
		server: serverLine(server),
		request: { method: 'POST', path: '/v1/chat/completions', body: abbreviate(body) },
		response: responsePart(raw),
		observed: { userTokens: await countTokens(server.url, user) },
		log: logSince(server, from),
	};
}

export async function captureContextErrors(server: LlamaServer, nCtxSlot: number, suffix: string): Promise<Fixture[]> {
	const tooMany = nCtxSlot + 400;
	const out = [
		await overflow(
			server,
			`context-exceeded-${suffix}`,
			`A prompt of about ${tooMany} tokens against a slot of ${nCtxSlot}: the status, the error type and the message with both counts.`,
			tooMany,
			{},
		),
		await overflow(
			server,
			`context-exceeded-stream-${suffix}`,
			'The same with stream: true: the error comes before the first byte of the stream, as a plain HTTP error with a JSON body, not as an SSE frame.',
			tooMany,
			{ stream: true, stream_options: { include_usage: true } },
		),
	];
	return out;
}

/** A prompt that fits, with no room left to answer: the server stops at the end of the window. */
export async function captureWindowFills(server: LlamaServer, nCtxSlot: number): Promise<Fixture> {
	return overflow(
		server,
		'context-fills-while-answering',
		`A prompt that fits a slot of ${nCtxSlot} with a few tokens to spare and max_tokens 200: no error; the answer stops at the end of the window (finish_reason and timings show it).`,
		nCtxSlot - 60,
		{ max_tokens: 200, stream: true, stream_options: { include_usage: true } },
	);
}
