// Tool schemas the server must compile into its tool-call grammar, and what it does with
// tool_choice. The noise model shows enforcement plainly: left alone it writes noise, and only
// a grammar that the server really applies makes it open a call.
import { abbreviate, logSince, responsePart, serverLine, type Fixture } from './fixtures';
import { grammarProbes, schemaBytes } from './grammarProbes';
import type { LlamaServer } from './launch';
import { chatBody, READ_TOOLS } from './prompts';
import { jsonOrText, rawRequest } from './rawHttp';

const README = 'https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md';

/**
 * The server builds a request's grammar when it gives the request a slot, before it checks the
 * prompt against the window: a tool set too large for the window that comes back with the
 * context error has therefore compiled. Each probe is sent with tool_choice auto (a lazy grammar)
 * and required (a grammar from the first token).
 */
export async function captureGrammar(server: LlamaServer): Promise<Fixture[]> {
	const probes: Array<Record<string, unknown>> = [];
	const out: Fixture[] = [];
	for (const probe of grammarProbes()) {
		for (const toolChoice of ['auto', 'required']) {
			const body = chatBody('List the open issues.', {
				tools: probe.tools,
				tool_choice: toolChoice,
				max_tokens: 4,
			});
			const from = server.log().length;
			const raw = await rawRequest(server.url, 'POST', '/v1/chat/completions', body);
			await settle();
			const answer = jsonOrText(raw.body) as { error?: { message?: string; type?: string } };
			const grammarLog = logSince(server, from, 400).filter(line =>
				/failed to parse|number of repetitions|parse: error/.test(line),
			);
			const refusedGrammar = raw.status !== 200 && /grammar|sampler/i.test(answer.error?.message ?? '');
			probes.push({
				probe: probe.name,
				tool_choice: toolChoice,
				reference: probe.reference,
				tools: probe.tools.length,
				schemaBytes: schemaBytes(probe.tools),
				status: raw.status,
				...(answer.error ? { error: answer.error } : {}),
				grammar: refusedGrammar ? 'refused' : 'compiled',
				...(refusedGrammar ? {} : { schemaRules: schemaRulesOf(server.log().slice(from)) }),
				ms: raw.ms,
				...(grammarLog.length ? { log: grammarLog.slice(0, 6) } : {}),
			});
			if (refusedGrammar && !out.some(f => f.name === 'grammar-failure')) {
				out.push({
					name: 'grammar-failure',
					shows: `The first probe the server refused (${probe.name}, tool_choice ${toolChoice}): status and body of a tool-call grammar it could not build.`,
					references: [probe.reference, 'https://github.com/ggml-org/llama.cpp/issues/25895'],
					server: serverLine(server),
					request: { method: 'POST', path: '/v1/chat/completions', body: abbreviate(body) },
					response: responsePart(raw),
					log: logSince(server, from),
				});
				const streamed = await rawRequest(server.url, 'POST', '/v1/chat/completions', {
					...body,
					stream: true,
				});
				out.push({
					name: 'grammar-failure-stream',
					shows: 'The same refusal with stream: true: a plain HTTP error before any SSE byte.',
					references: [probe.reference],
					server: serverLine(server),
					request: {
						method: 'POST',
						path: '/v1/chat/completions',
						body: abbreviate({ ...body, stream: true }),
					},
					response: responsePart(streamed),
				});
			}
		}
	}
	out.push({
		name: 'grammar-probes',
		shows: 'Every tool-schema probe, with tool_choice auto and required, and what this revision answered. The grammar is built before the prompt is checked against the window, so a context error (exceed_context_size_error) means the grammar compiled.',
		references: [
			'https://github.com/ggml-org/llama.cpp/issues/25895',
			'https://github.com/ggml-org/llama.cpp/issues/26596',
			'https://github.com/ggml-org/llama.cpp/issues/27859',
		],
		server: serverLine(server),
		observed: { probes },
	});
	return out;
}

interface ChoiceCase {
	name: string;
	toolChoice?: unknown;
	extra?: Record<string, unknown>;
	shows: string;
	references: string[];
}

const CHOICES: ChoiceCase[] = [
	{
		name: 'tool-choice-auto',
		toolChoice: 'auto',
		shows: 'tool_choice "auto" (the baseline): the noise model writes noise and opens no call.',
		references: [`${README}#post-v1chatcompletions-openai-compatible-chat-completions-api`],
	},
	{
		name: 'tool-choice-required',
		toolChoice: 'required',
		shows: 'tool_choice "required": whether the server forces a call with its grammar (a noise model can only call a tool if the grammar makes it).',
		references: [
			'https://github.com/ggml-org/llama.cpp/issues/27217',
			'https://github.com/ggml-org/llama.cpp/pull/9639',
		],
	},
	{
		name: 'tool-choice-required-thinking-off',
		toolChoice: 'required',
		extra: { chat_template_kwargs: { enable_thinking: false } },
		shows: 'tool_choice "required" with enable_thinking false (reported not enforced for Qwen3.6 templates).',
		references: ['https://github.com/ggml-org/llama.cpp/issues/27767'],
	},
	{
		name: 'tool-choice-named',
		toolChoice: { type: 'function', function: { name: 'list_directory' } },
		shows: 'A named tool_choice object: whether it is honoured, downgraded to auto (and where that is said) or refused.',
		references: [
			'https://github.com/ggml-org/llama.cpp/issues/26535',
			'https://github.com/ggml-org/llama.cpp/pull/28806',
		],
	},
	{
		name: 'tool-choice-none',
		toolChoice: 'none',
		shows: 'tool_choice "none": tools are sent but no call may be made.',
		references: [`${README}#post-v1chatcompletions-openai-compatible-chat-completions-api`],
	},
	{
		name: 'tool-choice-invalid',
		toolChoice: 'any',
		shows: 'tool_choice "any" (Anthropic\'s word, not OpenAI\'s) on the OpenAI endpoint: the refusal.',
		references: ['https://github.com/ggml-org/llama.cpp/blob/master/common/chat.cpp'],
	},
];

export async function captureToolChoice(server: LlamaServer): Promise<Fixture[]> {
	const out: Fixture[] = [];
	for (const choice of CHOICES) {
		const body = chatBody('Read src/a.ts and tell me what it exports.', {
			tools: READ_TOOLS,
			...(choice.toolChoice === undefined ? {} : { tool_choice: choice.toolChoice }),
			// Enough to see whether a call opens; the noise after that is not the point.
			max_tokens: 16,
			stream: true,
			...choice.extra,
		});
		const from = server.log().length;
		const raw = await rawRequest(server.url, 'POST', '/v1/chat/completions', body);
		await settle();
		const { body: sse, settings } = withoutVerbose(raw.body);
		const response = responsePart({ ...raw, body: sse });
		const waiting = (
			server
				.log()
				.slice(from)
				.match(/Grammar still awaiting trigger/g) ?? []
		).length;
		out.push({
			name: choice.name,
			shows: choice.shows,
			references: choice.references,
			server: serverLine(server),
			request: { method: 'POST', path: '/v1/chat/completions', body },
			response,
			observed: {
				...summariseStream(response.frames ?? []),
				...(settings ? { grammar: grammarOf(settings, waiting) } : {}),
			},
			log: logSince(server, from, 2000).filter(line => / W |chat format/i.test(line)),
		});
	}
	return out;
}

interface VerboseSettings {
	grammar?: string;
	grammar_lazy?: boolean;
	grammar_triggers?: unknown[];
	chat_format?: string;
	reasoning_format?: string;
}

/**
 * A verbose server (-v) adds `__verbose` to a stream's last frame, with the sampling settings it
 * used (the grammar among them). A default server does not: the member is taken out of the SSE
 * text (that one line re-serialised) and its settings handed back.
 */
function withoutVerbose(sse: string): { body: string; settings?: VerboseSettings } {
	let settings: VerboseSettings | undefined;
	const body = sse
		.split('\n')
		.map(line => {
			if (!line.startsWith('data: ') || !line.includes('"__verbose"')) return line;
			const frame = JSON.parse(line.slice(6)) as { __verbose?: { generation_settings?: VerboseSettings } };
			settings = frame.__verbose?.generation_settings;
			delete frame.__verbose;
			return `data: ${JSON.stringify(frame)}`;
		})
		.join('\n');
	return { body, ...(settings ? { settings } : {}) };
}

/**
 * What the grammar says about forcing a call: the rules that decide it (root, tool-calls,
 * tool-call), whether it was lazy (applied only once a trigger such as "<tool_call>" appears)
 * and, from the verbose log, how many tokens were sampled while it still waited for that trigger.
 */
export function grammarOf(settings: VerboseSettings, tokensBeforeTrigger: number): Record<string, unknown> {
	const rules = (settings.grammar ?? '').split('\n').filter(line => /^(root|tool-calls|tool-call) ::=/.test(line));
	return {
		rules,
		grammar_lazy: settings.grammar_lazy,
		grammar_triggers: settings.grammar_triggers,
		chat_format: settings.chat_format,
		reasoning_format: settings.reasoning_format,
		tokensSampledBeforeTrigger: tokensBeforeTrigger,
	};
}

/** What a client makes of a chat stream: the text, the calls by index, the finish reason. */
export function summariseStream(frames: unknown[]): Record<string, unknown> {
	let content = '';
	let reasoning = '';
	const calls: Array<{ name: string; arguments: string }> = [];
	let finish: unknown;
	for (const frame of frames as Array<Record<string, any>>) {
		const choice = frame?.choices?.[0];
		if (!choice) continue;
		content += choice.delta?.content ?? '';
		reasoning += choice.delta?.reasoning_content ?? '';
		for (const call of choice.delta?.tool_calls ?? []) {
			const slot = (calls[call.index ?? 0] ??= { name: '', arguments: '' });
			slot.name += call.function?.name ?? '';
			slot.arguments += call.function?.arguments ?? '';
		}
		finish = choice.finish_reason ?? finish;
	}
	return { content, reasoning, toolCalls: calls, finishReason: finish };
}

/** The server logs a request's last lines after its response: wait for them, so the next request's log starts clean. */
const settle = () => new Promise(resolve => setTimeout(resolve, 400));

/** The grammar block the verbose log (-v) printed for the first request after the log's start. */
function grammarBlock(log: string): string | undefined {
	const start = log.indexOf('Grammar (tool_calls):');
	if (start < 0) return undefined;
	const end = log.indexOf('\n\n', start);
	return log.slice(start, end > 0 ? end : undefined).replace(/^.*Grammar \(tool_calls\): /, '');
}

/** The rules a tool's schema became (those with a repetition bound or a pattern), to show how a keyword was compiled. */
function schemaRulesOf(log: string): string[] {
	const block = grammarBlock(log) ?? '';
	return block
		.split('\n')
		.filter(line => /-schema-[^ ]* ::=/.test(line) && !/-kv ::=|-rest ::=/.test(line))
		.map(line => (line.length > 240 ? `${line.slice(0, 240)}…` : line))
		.slice(0, 4);
}
