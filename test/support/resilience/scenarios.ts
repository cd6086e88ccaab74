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
// - on a server that enforces a forced call (`constrained`), the model writes the call it means:
//   its mistakes are of form, and the server's grammar admits no other form. A forced call does
//   not make a cut call longer (Keel does not force one after a cut), nor stop repetition inside
//   a free string such as the answer.

import { text, toolCall, type DataStep, type RecordedRequest, type StepFn, type Wire } from '../modelDouble';
import { continuedCall, isCorrection, readConversation, thinkingTools } from './conversation';
import { MODERN_CLASSES, modernFault, type ModernClass } from './modernFaults';
import { classicFault, contextExceeded, overloaded } from './classicFaults';
import { CALL_ONLY, WIRE_CLASS_WIRES, WIRE_CLASSES, wireFault, type WireClass } from './wireFaults';
import { MEANING_CLASSES, meaningFault, type MeaningClass, MEANING_HOPELESS } from './meaningFaults';
import type { StepView } from './stepView';
import { STOP_CLASSES, stopFault, type StopClass } from './stopFaults';

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
export const FAULT_CLASSES = [
	...CLASSIC_CLASSES,
	...MODERN_CLASSES,
	...WIRE_CLASSES,
	...MEANING_CLASSES,
	...STOP_CLASSES,
] as const;
/** Faults no recovery can fix (the model never learns, the server stays down, the account is empty): budgets must end the turn. */
export const HOPELESS_CLASSES = [
	'stubbornParse500',
	'stubbornArgs',
	'stubbornDegenerate',
	'serverDown',
	'billing',
	...MEANING_HOPELESS,
] as const;
export type FaultClass =
	| (typeof CLASSIC_CLASSES)[number]
	| ModernClass
	| WireClass
	| MeaningClass
	| StopClass
	| (typeof HOPELESS_CLASSES)[number]
	| 'none';
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

const ANY_PHASE_FAMILY: readonly string[] = [
	...WIRE_CLASSES.filter(c => !CALL_ONLY.includes(c)),
	'budgetTooLarge',
	'unknownTransient',
];

function phaseFor(fault: FaultClass, random: () => number): number {
	if (fault === 'loop' || fault === 'gluedCalls') {
		return 1;
	}
	if (fault === 'truncatedWrite' || fault === 'doubleEscaped') {
		return 2;
	}
	if (fault === 'billing' || (MEANING_HOPELESS as readonly string[]).includes(fault)) {
		// The first request, so "requests per turn" reads as "not retried".
		return 0;
	}
	return Math.floor(random() * (ANY_PHASE.includes(fault) || ANY_PHASE_FAMILY.includes(fault) ? 4 : 3));
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
		const concerned = wires.filter(w => (WIRE_CLASS_WIRES[fault as WireClass] ?? WIRES).includes(w));
		for (let i = 0; i < perClass * concerned.length; i++) {
			const id = out.length;
			out.push({
				id,
				fault,
				wire: concerned[i % concerned.length],
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
	return { [`notes/${s.key}.txt`]: sourceText(s), 'notes/readme.txt': 'notes live here' };
}

/** The note to copy: one word, or several lines with quotes, a tab and an accent where escaping matters. */
export function sourceText(s: Scenario): string {
	return s.fault === 'doubleEscaped' ? `${s.word}\nsecond line, "quoted"\n\tindented café\n` : s.word;
}

export function expectedOutput(s: Scenario): string {
	return sourceText(s).toUpperCase();
}

/** The model: decides its answer from the conversation it is sent, injecting the scenario's fault. */
export function scenarioBrain(s: Scenario): StepFn {
	let sent = 0;
	const coin = rng(s.id * 7919 + s.trial * 104_729 + 13);
	// A Mistral-style server checks the ids of every request, not only the faulty step's.
	const mistral = s.fault === 'idRules' && s.wire === 'openai' && s.variant % 3 !== 0;
	return (req: RecordedRequest): DataStep => {
		const step = answer(req);
		return mistral && step.kind === 'reply' ? { ...step, idRule: 'mistral' } : step;
	};

	function answer(req: RecordedRequest): DataStep {
		const view = stepView(s, req, coin, () => sent++);
		const { conv, phase, good } = view;
		const rest = req.continues === undefined ? undefined : continuedCall(req.continues, view.name, view.args);
		if (rest !== undefined) {
			return text(rest);
		}
		if (req.constrained) {
			// A server that enforces the forced call admits only calls: the model writes the one it means,
			// and a finished task's answer goes through final_answer where it is offered. Inside that free
			// string the grammar does not stop a model that repeats itself; the sampling penalties the
			// request carries still apply under it, as they do without one (llama.cpp's sampler chain
			// runs penalties and grammar together, common/sampling.cpp; vLLM applies frequency_penalty
			// with guided decoding), so a penalty helps as often as it does unconstrained.
			const penalised = conv.avoidRepetition && !(s.stubborn && coin() < 0.5);
			const repeats = s.fault === 'stubbornDegenerate' || (s.fault === 'degenerate' && !penalised);
			const answer = repeats
				? 'I will now I will now continue the the task '.repeat(60)
				: `Done: out/${s.key}.txt holds ${s.word.toUpperCase()}.`;
			return phase === 3 && req.constrained.kind === 'required'
				? toolCall('final_answer', { text: answer })
				: good(phase);
		}
		if ((s.fault === 'contextOverflow' || s.fault === 'contextAnyShape') && conv.size > 60_000) {
			return contextExceeded(s, Math.round(conv.size / 4));
		}
		if (
			s.fault === 'loop' &&
			phase === 1 &&
			!conv.results.some(r => r.includes('[Keel: you have repeated')) &&
			!(s.stubborn && sent > 0 && coin() < 0.5)
		) {
			return good(0);
		}
		if (phase !== s.phase || s.fault === 'none') {
			return good(phase);
		}
		if ((MODERN_CLASSES as readonly string[]).includes(s.fault)) {
			if (s.fault === 'overloaded') {
				return sent++ < s.burst ? overloaded(s, good(phase)) : good(phase);
			}
			if (view.corrected || (s.fault === 'degenerate' && conv.avoidRepetition && !(s.stubborn && coin() < 0.5))) {
				return good(phase);
			}
			return modernFault(s.fault as ModernClass, {
				wire: s.wire,
				variant: s.variant,
				phase,
				name: view.name,
				args: view.args,
				good: good(phase),
				textMode: conv.textMode,
				otherPath: 'notes/readme.txt',
			});
		}
		return familyFault(view) ?? classicFault(view);
	}
}

function familyFault(view: StepView): DataStep | undefined {
	const fault = view.s.fault as string;
	if ((WIRE_CLASSES as readonly string[]).includes(fault)) return wireFault(fault as WireClass, view);
	if ((STOP_CLASSES as readonly string[]).includes(fault)) return stopFault(fault as StopClass, view);
	if ([...MEANING_CLASSES, ...MEANING_HOPELESS].includes(fault as MeaningClass)) {
		return meaningFault(fault as MeaningClass, view);
	}
	return undefined;
}

/** What the simulated model knows when it answers: the task's phase, the calls it should make, a correction. */
function stepView(s: Scenario, req: RecordedRequest, coin: () => number, fire: () => number): StepView {
	const conv = readConversation(req);
	const { results, textMode } = conv;
	// A correction is obeyed, unless this model is stubborn and the coin says no.
	const corrected = isCorrection(conv.lastUser) && !(s.stubborn && coin() < 0.5);
	const wrote = results.some(r => r.includes(`wrote out/${s.key}.txt`));
	const read = results.some(r => r.includes(`content of notes/${s.key}.txt:`));
	const listed = results.some(r => r.includes(`${s.key}.txt`) && !r.includes('content of') && !r.includes('wrote'));
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
		withThinking('write_file', { path: `out/${s.key}.txt`, content: expectedOutput(s) }),
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
	const [name, args] = calls[phase] ?? ['', {}];
	return { s, req, conv, phase, corrected, name, args, good, coin, fire };
}
