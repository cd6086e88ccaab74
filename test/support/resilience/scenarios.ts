// Seeded fault scenarios for the resilience integration tests and `npm run bench:resilience`.
// A scenario is a 3-tool task (list → read → write an upper-cased copy) answered by a simulated
// model behind the HTTP model double; one fault class is injected at one step. The score is
// the final file, never the transcript.
//
// The simulated model's assumptions, stated so the numbers can be judged:
// - transport/stream faults are bursts of 1–3 failed responses, then the server recovers;
// - format faults are persistent for that step: the model writes the same broken call every
//   time it is asked the same thing, and writes it correctly once told precisely what was wrong
//   (a Keel correction: "could not be parsed" / loop nudge), as instruction-following models do.

// - a *stubborn* model ignores each correction with probability ½ (a seeded coin per scenario
//   and trial) and repeats its mistake.

import {
	presets,
	disconnect,
	httpError,
	text,
	toolCall,
	withFaults,
	type DataStep,
	type RecordedRequest,
	type StepFn,
	type Wire,
} from '../modelDouble';
import { isCorrection, readConversation, thinkingTools } from './conversation';
import { MODERN_CLASSES, modernFault, type ModernClass } from './modernFaults';

export const CLASSIC_CLASSES = [
	'http429',
	'http5xx',
	'reset',
	'streamDrop',
	'streamStall',
	'streamError',
	'badJson',
	'textCall',
	'nameCase',
	'ollamaParse500',
	'llamacppParse500',
	'invalidArgs400',
	'loop',
	'contextOverflow',
] as const;
export const FAULT_CLASSES = [...CLASSIC_CLASSES, ...MODERN_CLASSES] as const;
/** Faults no recovery can fix (the model never learns, the server stays down, the account is empty): budgets must end the turn. */
export const HOPELESS_CLASSES = [
	'stubbornParse500',
	'stubbornArgs',
	'stubbornDegenerate',
	'serverDown',
	'billing',
] as const;
export type FaultClass = (typeof CLASSIC_CLASSES)[number] | ModernClass | (typeof HOPELESS_CLASSES)[number] | 'none';
export const WIRES: readonly Wire[] = ['openai', 'ollama', 'anthropic'];

export interface Scenario {
	id: number;
	fault: FaultClass;
	wire: Wire;
	/** Ignores each correction with probability ½. */
	stubborn: boolean;
	/** Which repetition of the same task (pass^k): only the stubborn model's coin changes. */
	trial: number;
	/**
	 * Think-augmented function calling for this run: undefined leaves the tool policy off (as
	 * every other scenario runs); true/false attach it with TAFC on (every tool of the task
	 * augmented) or off, for the with/without comparison.
	 */
	tafc?: boolean;
	/** Which step gets the fault: 0 list, 1 read, 2 write. */
	phase: number;
	burst: number;
	variant: number;
	key: string;
	word: string;
}

/** mulberry32: small, seeded, good enough to spread scenarios. */
export function rng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const WORDS = ['harbor', 'lantern', 'pebble', 'saffron', 'tundra', 'quill', 'meadow', 'cobalt', 'ember', 'willow'];

const ANY_PHASE: readonly FaultClass[] = [
	'emptyAnswer',
	'reasoningOnly',
	'droppedCall',
	'thinkTags',
	'reasoningField',
	'harmony',
	'degenerate',
	'overloaded',
	'stubbornDegenerate',
];

function phaseFor(fault: FaultClass, random: () => number): number {
	if (fault === 'loop' || fault === 'gluedCalls') {
		return 1;
	}
	if (fault === 'truncatedWrite') {
		return 2;
	}
	if (fault === 'billing') {
		// The first request, so "requests per turn" reads as "not retried".
		return 0;
	}
	return Math.floor(random() * (ANY_PHASE.includes(fault) ? 4 : 3));
}

export function makeScenarios(
	perClass: number,
	seed = 1,
	classes: readonly FaultClass[] = FAULT_CLASSES,
	wires: readonly Wire[] = WIRES,
	stubborn = false,
): Scenario[] {
	const random = rng(seed);
	const out: Scenario[] = [];
	for (const fault of classes) {
		for (let i = 0; i < perClass * wires.length; i++) {
			const id = out.length;
			out.push({
				id,
				fault,
				wire: wires[i % wires.length],
				stubborn,
				trial: 0,
				phase: phaseFor(fault, random),
				burst: 1 + Math.floor(random() * 3),
				variant: Math.floor(random() * 5),
				key: `n${id}`,
				word: WORDS[Math.floor(random() * WORDS.length)] + id,
			});
		}
	}
	return out;
}

export function scenarioPrompt(s: Scenario): string {
	return `List the notes folder, read notes/${s.key}.txt, and write its content in upper case to out/${s.key}.txt.`;
}

export function initialFiles(s: Scenario): Record<string, string> {
	return { [`notes/${s.key}.txt`]: s.word, 'notes/readme.txt': 'notes live here' };
}

/** The model: decides its answer from the conversation it is sent, injecting the scenario's fault. */
export function scenarioBrain(s: Scenario): StepFn {
	let sent = 0;
	const coin = rng(s.id * 7919 + s.trial * 104_729 + 13);
	return (req: RecordedRequest): DataStep => {
		const conv = readConversation(req);
		const { results, textMode } = conv;
		// A correction is obeyed, unless this model is stubborn and the coin says no.
		const corrected = isCorrection(conv.lastUser) && !(s.stubborn && coin() < 0.5);
		const wrote = results.some(r => r.includes(`wrote out/${s.key}.txt`));
		const read = results.some(r => r.includes(`content of notes/${s.key}.txt:`));
		const listed = results.some(
			r => r.includes(`${s.key}.txt`) && !r.includes('content of') && !r.includes('wrote'),
		);
		const phase = wrote ? 3 : read ? 2 : listed ? 1 : 0;
		const thinks = thinkingTools(req);
		// Offered a `thinking` property, the model fills it first, as the schema asks; what it
		// writes does not change which arguments it gets wrong: a script has no reasoning to improve.
		const withThinking = (name: string, args: Record<string, string>): [string, Record<string, string>] =>
			thinks.has(name)
				? [
						name,
						{
							thinking: `The user wants ${s.key}.txt copied in upper case. ${name} needs ${Object.entries(
								args,
							)
								.map(([k, v]) => `${k} "${v}"`)
								.join(' and ')}.`,
							...args,
						},
					]
				: [name, args];
		const calls: Array<[string, Record<string, string>]> = [
			withThinking('list_directory', { path: 'notes' }),
			withThinking('read_file', { path: `notes/${s.key}.txt` }),
			withThinking('write_file', { path: `out/${s.key}.txt`, content: s.word.toUpperCase() }),
		];
		const good = (p: number): DataStep => {
			if (p === 3) {
				return text(`Done: out/${s.key}.txt holds ${s.word.toUpperCase()}.`);
			}
			const [name, args] = calls[p];
			return textMode
				? text(`<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`)
				: toolCall(name, args);
		};

		if (s.fault === 'contextOverflow' && conv.size > 60_000) {
			const tokens = Math.round(conv.size / 4);
			return [
				presets.openaiContextLengthExceeded(16_000, tokens),
				presets.llamacppContextExceeded(tokens, 16_000),
				vllmContextExceeded(tokens),
				presets.anthropicPromptTooLong(tokens, 16_000),
				presets.openaiContextLengthExceeded(16_000, tokens),
			][s.variant];
		}
		if (
			s.fault === 'loop' &&
			phase === 1 &&
			!results.some(r => r.includes('[Keel: you have repeated')) &&
			!(s.stubborn && sent > 0 && coin() < 0.5)
		) {
			return good(0);
		}
		if (phase !== s.phase || s.fault === 'none') {
			return good(phase);
		}
		const [name, args] = calls[phase] ?? ['', {}];
		const json = JSON.stringify(args);
		if ((MODERN_CLASSES as readonly string[]).includes(s.fault)) {
			if (s.fault === 'overloaded') {
				return sent++ < s.burst ? overloaded(s, good(phase)) : good(phase);
			}
			if (corrected || (s.fault === 'degenerate' && conv.avoidRepetition && !(s.stubborn && coin() < 0.5))) {
				return good(phase);
			}
			return modernFault(s.fault as ModernClass, {
				wire: s.wire,
				variant: s.variant,
				phase,
				name,
				args,
				good: good(phase),
				textMode,
				otherPath: 'notes/readme.txt',
			});
		}
		switch (s.fault) {
			case 'stubbornParse500':
				return presets.ollamaV1ToolParse500('ls -R\n', "invalid character 'l' looking for beginning of value");
			case 'stubbornArgs':
				return toolCall(name, `${name} ${Object.values(args).join(' ')}`);
			case 'stubbornDegenerate':
				return text('<thinking about the user-providualize '.repeat(40), { chunks: 60 });
			case 'serverDown':
				return presets.serviceUnavailable();
			case 'billing':
				return httpError(429, {
					error: { code: '1113', message: 'Insufficient balance or no resource package. Please recharge.' },
				});
			case 'http429':
			case 'http5xx':
			case 'reset':
			case 'streamDrop':
			case 'streamStall':
			case 'streamError':
				if (sent >= s.burst) {
					return good(phase);
				}
				sent++;
				return transient(s, good(phase));
			case 'badJson':
				return textMode || corrected ? good(phase) : toolCall(name, malformed(json, s.variant));
			case 'textCall':
				return text(asText(name, args, s.variant));
			case 'nameCase':
				return toolCall(
					[
						name.toUpperCase(),
						name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()),
						name.replace('_', '-'),
						`functions.${name}`,
						name.replace(/^\w/, c => c.toUpperCase()),
					][s.variant],
					args,
				);
			case 'ollamaParse500':
				// Without native tools (text mode) the server has no tool call to parse.
				if (corrected || textMode) {
					return good(phase);
				}
				return s.variant < 3
					? presets.ollamaV1ToolParse500(
							malformed(json, s.variant),
							"invalid character '}' looking for beginning of object key string",
						)
					: presets.ollamaV1ToolParse500(
							`${name} ${Object.values(args).join(' ')}\n`,
							"invalid character 'l' looking for beginning of value",
						);
			case 'llamacppParse500':
				return corrected || textMode
					? good(phase)
					: presets.llamacppParseError(12, `<tool_call>\n<function=${name}>\n<`);
			case 'invalidArgs400':
				return corrected || textMode ? good(phase) : presets.ollamaInvalidToolCallArguments();
			default:
				return good(phase);
		}
	};
}

function vllmContextExceeded(tokens: number): DataStep {
	return httpError(400, {
		object: 'error',
		message: `This model's maximum context length is 16000 tokens. However, you requested ${tokens + 1024} tokens (${tokens} in the messages, 1024 in the completion). Please reduce the length of the messages or completion.`,
		type: 'BadRequestError',
		param: null,
		code: 400,
	});
}

/** Anthropic's overload: HTTP 529, or an `event: error` in the middle of a 200 stream. */
function overloaded(s: Scenario, good: DataStep): DataStep {
	return s.variant % 2 === 0
		? presets.anthropicOverloaded()
		: withFaults(good, { errorAfter: 2, streamError: { type: 'overloaded_error', message: 'Overloaded' } });
}

function transient(s: Scenario, good: DataStep): DataStep {
	switch (s.fault) {
		case 'http429':
			return httpError(
				429,
				{
					error: {
						message: 'Rate limit reached, try again in 20ms',
						type: 'requests',
						code: 'rate_limit_exceeded',
					},
				},
				{ 'retry-after-ms': '20' },
			);
		case 'http5xx':
			return [
				presets.serviceUnavailable(),
				presets.openaiServerError(),
				presets.badGatewayHtml(),
				presets.llamacppLoadingModel(),
				presets.serviceUnavailable(),
			][s.variant];
		case 'reset':
			return disconnect();
		case 'streamDrop':
			return withFaults(good, { dropAfter: 2 });
		case 'streamStall':
			return withFaults(good, { stallAfter: 2 });
		default:
			return withFaults(good, {
				errorAfter: 2,
				streamError: { type: 'server_error', message: 'upstream connection reset' },
			});
	}
}

/** The broken JSON small models write (competitors.md §3). */
export function malformed(json: string, variant: number): string {
	switch (variant % 5) {
		case 0:
			return json.replace(/}$/, ',}');
		case 1:
			return json.replace(/"/g, "'");
		case 2:
			return json.replace(/"(\w+)":/g, '$1:');
		case 3:
			return JSON.stringify(json);
		default:
			return json.slice(0, -2);
	}
}

function asText(name: string, args: Record<string, string>, variant: number): string {
	switch (variant % 5) {
		case 0:
			return `I'll do that now.\n${JSON.stringify({ name, arguments: args })}`;
		case 1:
			return `\`\`\`json\n${JSON.stringify({ name, parameters: args })}\n\`\`\``;
		case 2:
			return `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
		case 3:
			return `<function=${name}>\n${Object.entries(args)
				.map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>`)
				.join('\n')}\n</function>`;
		default:
			return `<tool_call>${name}\n${Object.entries(args)
				.map(([k, v]) => `<arg_key>${k}</arg_key>\n<arg_value>${v}</arg_value>`)
				.join('\n')}\n</tool_call>`;
	}
}
