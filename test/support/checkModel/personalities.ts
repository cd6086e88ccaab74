// Scripted models for the Check Model suite, behind the real HTTP model double. Each knows
// how to solve every task (references.ts) and differs only in how its answers reach the wire,
// the way real models and servers differ:
// - clean: native tool calls when tools are offered, `<tool_call>` text when Keel asks for text;
// - textOnly: writes every call as `<tool_call>` text, even when native tools are offered;
// - flaky: like clean, but every third call it writes has malformed JSON (a trailing comma);
// - truncating: like clean, behind a server that reads at most `window` prompt tokens and
//   says so in its usage (Ollama's /v1 silently cuts a prompt to its context length).
import { CHECK_TASKS } from '../../../src/core/checkModel/suite';
import { text, toolCall, type DataStep, type ModelDouble, type RecordedRequest, type StepFn } from '../modelDouble';
import { readConversation } from '../resilience/conversation';
import { REFERENCES, type Action } from './references';

export type PersonalityName = 'clean' | 'textOnly' | 'flaky' | 'truncating';
export const PERSONALITIES: readonly PersonalityName[] = ['clean', 'textOnly', 'flaky', 'truncating'];

export interface PersonalityOptions {
	/** truncating: the most prompt tokens the server reads. */
	window?: number;
	/** flaky: which calls it breaks, by their 1-based count; default every third. */
	breaks?: (callNumber: number) => boolean;
}

const MODEL_FAULT = /category: (invalid_parameters|type_mismatch|tool_not_found)/;

/** What the model says to Keel's probe (one get_weather call). */
const PROBE_TOOL = 'get_weather';
const PROBE: Action = { call: PROBE_TOOL, args: { city: 'Paris' } };

/** The task a request belongs to, found by its prompt; the probe when it offers get_weather. */
export function nextAction(req: RecordedRequest): Action {
	const body = JSON.stringify(req.body ?? {});
	if (body.includes(PROBE_TOOL)) {
		return PROBE;
	}
	const task = CHECK_TASKS.find(t => body.includes(JSON.stringify(t.prompt).slice(1, 60)));
	const actions = task ? REFERENCES[task.id] : undefined;
	if (!actions) {
		return { text: 'I do not know this task.' };
	}
	// A call Keel sent back as written wrong is made again; any other result (a refusal too) moves on.
	const done = readConversation(req).results.filter(r => !MODEL_FAULT.test(r)).length;
	return actions[Math.min(done, actions.length - 1)];
}

/** A personality's answers, and what it did: how many calls it wrote, and broke, per mode. */
export interface Personality {
	step: StepFn;
	calls: { native: number; text: number };
	broken: { native: number; text: number };
}

export function personality(name: PersonalityName, options: PersonalityOptions = {}): Personality {
	const breaks = options.breaks ?? (n => n % 3 === 0);
	const made: Personality = { step: () => text(''), calls: { native: 0, text: 0 }, broken: { native: 0, text: 0 } };
	made.step = req => {
		const action = nextAction(req);
		const mode = readConversation(req).textMode ? 'text' : 'native';
		if ('text' in action) {
			return withUsage(text(action.text), req, name, options);
		}
		const count = ++made.calls[mode];
		const broken = name === 'flaky' && action.call !== PROBE_TOOL && breaks(count);
		made.broken[mode] += broken ? 1 : 0;
		const args = broken ? JSON.stringify(action.args).replace(/}$/, ',}') : JSON.stringify(action.args);
		const step =
			mode === 'text' || name === 'textOnly'
				? text(`<tool_call>{"name": ${JSON.stringify(action.call)}, "arguments": ${args}}</tool_call>`)
				: toolCall(action.call, args);
		return withUsage(step, req, name, options);
	};
	return made;
}

/** A server that cut the prompt reports the tokens it read: at most its window. */
function withUsage(step: DataStep, req: RecordedRequest, name: PersonalityName, options: PersonalityOptions): DataStep {
	if (name !== 'truncating' || step.kind !== 'reply') {
		return step;
	}
	const body = (req.body ?? {}) as { messages?: unknown; tools?: unknown };
	const sent = Math.ceil(JSON.stringify([body.messages, body.tools ?? []]).length / 4);
	return { ...step, usage: { promptTokens: Math.min(sent, options.window ?? 2048) } };
}

/** Queues enough answers for a whole check (every request of every trial consumes one). */
export function scriptPersonality(double: ModelDouble, step: StepFn, count = 3000): void {
	double.script(...Array.from({ length: count }, () => step));
}
