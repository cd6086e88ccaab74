import type { ToolSpec } from '../../../llm/chatModel';
import { findDialectCalls } from '../../../llm/textCalls/textDialects';
import { matchToolName } from '../../../llm/textCalls/textToolCalls';
import type { ToolRegistry } from '../../../tools/registry';
import type { StepCall, StepOutput } from '../../loop/modelStep';
import { isJsonObject, looksCut } from '../../../llm/textCalls/jsonScan';
import type { Shortfall } from './shortfalls';
import { findTextCalls, type TextCallContext } from './textCalls';

export { escalation, nudgeText, shortfallLabel, type Shortfall } from './shortfalls';

export interface PreReview {
	output: StepOutput;
	notes: string[];
	/** Calls that were cut off (by max_tokens, or mid-JSON on a tool with side effects): never run. */
	truncated: string[];
	/** A Harmony call that names no offered tool. */
	unoffered?: string;
}

/**
 * Before repair: Harmony calls found in the text become calls (offered tools only), and calls
 * whose arguments were cut off are taken out — a repaired cut-off write would write half a file.
 */
export function preReview(
	output: StepOutput,
	registry: ToolRegistry,
	offered: readonly ToolSpec[],
	makeId: (index: number) => string,
): PreReview {
	const names = offered.map(tool => tool.name);
	const notes: string[] = [];
	let calls = output.calls;
	let unoffered: string | undefined;
	if (calls.length === 0 && output.harmonyCalls.length > 0) {
		calls = output.harmonyCalls.flatMap((call, i) => {
			const name = matchToolName(call.name, names);
			if (!name) {
				unoffered ??= call.name;
				return [];
			}
			return [{ id: makeId(i), name, rawArguments: call.rawArguments.trim() }];
		});
		if (calls.length > 0) {
			notes.push(`Recovered ${calls.map(c => c.name).join(', ')} from the model's Harmony channel`);
		}
	}
	const truncated: string[] = [];
	calls = calls.filter(call => {
		const name = matchToolName(call.name, names) ?? call.name;
		const effect = registry.get(name)?.effect;
		const cut =
			output.finishReason === 'length'
				? !isJsonObject(call.rawArguments)
				: looksCut(call.rawArguments) && effect !== undefined && effect !== 'read';
		if (cut) {
			truncated.push(name);
		}
		return !cut;
	});
	return { output: { ...output, calls }, notes, truncated, unoffered };
}

/**
 * After repair, a response with no call and no answer (or only an announcement of what it
 * will do): a complete call written in the reasoning is recovered (offered tool, valid
 * arguments); otherwise the reason it gave the loop nothing to do.
 */
export function postReview(
	output: StepOutput,
	registry: ToolRegistry,
	offered: readonly ToolSpec[],
	makeId: (index: number) => string,
	reading: Pick<TextCallContext, 'prompt' | 'extraction'> = {},
): { output: StepOutput; shortfall?: Shortfall; note?: string; detail?: string } {
	if (output.degenerate) {
		return { output: { ...output, calls: [], text: '' }, shortfall: 'degenerate' };
	}
	const names = offered.map(tool => tool.name);
	if (output.calls.length === 0 && output.text.trim()) {
		// A call in a token dialect for a tool that is not offered: never run, never left as the answer.
		const stray = findDialectCalls(output.text).find(call => !matchToolName(call.name, names));
		if (stray) {
			return { output: { ...output, text: '' }, shortfall: 'unofferedCall', detail: stray.name };
		}
	}
	const announced = output.calls.length === 0 && offered.length > 0 ? announcedAction(output.text) : undefined;
	if (output.calls.length > 0 || (output.text.trim() && !announced)) {
		return { output };
	}
	if (output.reasoning.trim()) {
		const found = findTextCalls(output.reasoning, { registry, offered, ...reading }).calls;
		// Only the last call the model settled on: reasoning often drafts, rejects and redrafts.
		const last = found[found.length - 1];
		if (last) {
			const call: StepCall = { id: makeId(0), ...last };
			return {
				output: { ...output, calls: [call], finishReason: 'tool_calls' },
				note: `Recovered the ${call.name} call the model wrote in its reasoning`,
			};
		}
		if (output.reasoningOverBudget !== undefined) {
			return { output, shortfall: 'reasoningRunaway', detail: String(output.reasoningOverBudget) };
		}
		if (!announced) {
			const mentions = names.some(name =>
				new RegExp(`${name}\\s*\\(|"name"\\s*:\\s*"${name}"|<tool_call>|to=functions\\.`, 'i').test(
					output.reasoning,
				),
			);
			return { output, shortfall: mentions ? 'callInReasoning' : 'reasoningOnly' };
		}
	}
	if (announced) {
		return { output, shortfall: 'announcedAction', detail: announced };
	}
	return { output, shortfall: output.finishReason === 'tool_calls' ? 'toolCallsWithoutCalls' : 'empty' };
}

/**
 * First person, about to act: "let me", "I'll", "I'm going to", "time to"… then a verb, whatever
 * the verb ("Let me take a look", "I'll go ahead and update"). Words that close a conversation
 * rather than open an action ("let me know", "I'll be happy to", "I'll wait"), and words about
 * the answer itself ("I'll note that…", "let me explain"), are not one.
 */
const INTENT =
	/(?:^|[,;:]\s*)(?:(?:ok(?:ay)?|now|next|first|then|so|alright|all right|great|sure|good|perfect|right|to (?:start|begin))\b[,!.:]?\s*)*(?:let me|let's|let us|i(?:'ll| will| am going to|'m going to| am about to|'m about to| shall| need to| must| want to|'m now| am now| now need to)|time to|the next step is to|going to)\s+(?!(?:know|be|wait|hear|leave|hope|stop|assume|suggest|recommend|note|mention|say|point out|explain|summari[sz]e|describe|clarify|reiterate|highlight|emphasi[sz]e|stress|remind|repeat|add that|answer)\b|keep (?:this|that|it) in mind\b|need (?:more|you|your|additional|further|clarification|access|permission)\b|(?:not|never)\b)(?:now\s+|first\s+|also\s+|quickly\s+|then\s+|just\s+)*[a-z][\w-]*/i;
/** A subordinate clause that puts the action off: what follows it waits for someone else. */
const DEFERRED = /^(?:if|once|when|whenever|unless|after you|as soon as|should you|in case)\b/i;
/** A step written as a heading that never came: "Running the tests now:", "Checking the file…". */
const PROGRESS = /^(?:now\s+|next\s+)?[a-z]+ing\b[^!?]*(?::|\.\.\.|…)$/i;

/**
 * A reply that stops where work should start: its last sentence announces the next action
 * ("Now let me read it.", "I'll go ahead and run the tests.") or it ends on a colon or an
 * ellipsis introducing what never came. The sentence, for the nudge; undefined for an answer.
 */
export function announcedAction(text: string): string | undefined {
	const trimmed = text.trim();
	if (!trimmed || /\?\s*$/.test(trimmed)) {
		return undefined;
	}
	const last =
		trimmed
			.split(/(?<=[.!?])\s+|\n+/)
			.filter(s => s.trim())
			.pop()
			?.trim() ?? '';
	const intent = INTENT.exec(last);
	// "Let me summarize: the bug was…" carries on past its colon: what it announced came.
	const acts =
		intent !== null &&
		!DEFERRED.test(last.slice(0, intent.index).trim() || last) &&
		!/:\s*\S/.test(last.slice(intent.index + intent[0].length));
	return acts || PROGRESS.test(last) || /:\s*$/.test(trimmed) ? last.slice(0, 120) : undefined;
}

export { looksCut };
