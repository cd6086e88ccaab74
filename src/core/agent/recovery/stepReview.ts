import type { ToolSpec } from '../../llm/chatModel';
import { repairArguments } from '../../llm/argumentRepair';
import { findDialectCalls } from '../../llm/textDialects';
import { matchToolName, parseTextToolCalls } from '../../llm/textToolCalls';
import type { ToolRegistry } from '../../tools/registry';
import type { StepCall, StepOutput } from '../loop/modelStep';
import { scanOutsideStrings } from '../../llm/jsonScan';

/** Why a response gave the loop nothing to do: each one is re-asked once with its own nudge. */
export type Shortfall =
	| 'empty'
	| 'reasoningOnly'
	| 'callInReasoning'
	| 'toolCallsWithoutCalls'
	| 'truncatedCall'
	| 'degenerate'
	| 'unofferedCall';

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
 * After repair, a response with no call and no answer: a complete call written in the
 * reasoning is recovered (offered tool, valid arguments); otherwise the reason it was empty.
 */
export function postReview(
	output: StepOutput,
	registry: ToolRegistry,
	offered: readonly ToolSpec[],
	makeId: (index: number) => string,
): { output: StepOutput; shortfall?: Shortfall; note?: string; detail?: string } {
	if (output.degenerate) {
		return { output: { ...output, calls: [], text: '' }, shortfall: 'degenerate' };
	}
	if (output.calls.length === 0 && output.text.trim()) {
		// A call in a token dialect for a tool that is not offered: never run, never left as the answer.
		const names = offered.map(tool => tool.name);
		const stray = findDialectCalls(output.text).find(call => !matchToolName(call.name, names));
		if (stray) {
			return { output: { ...output, text: '' }, shortfall: 'unofferedCall', detail: stray.name };
		}
	}
	if (output.calls.length > 0 || output.text.trim()) {
		return { output };
	}
	if (output.reasoning.trim()) {
		const names = offered.map(tool => tool.name);
		const found = parseTextToolCalls(output.reasoning, names).calls.flatMap(call => {
			const repaired = repairArguments(call.rawArguments, offered.find(t => t.name === call.name)?.parameters);
			return repaired && registry.parse(call.name, repaired.json).ok
				? [{ name: call.name, rawArguments: repaired.json }]
				: [];
		});
		// Only the last call the model settled on: reasoning often drafts, rejects and redrafts.
		const last = found[found.length - 1];
		if (last) {
			const call: StepCall = { id: makeId(0), ...last };
			return {
				output: { ...output, calls: [call], finishReason: 'tool_calls' },
				note: `Recovered the ${call.name} call the model wrote in its reasoning`,
			};
		}
		const mentions = names.some(name =>
			new RegExp(`${name}\\s*\\(|"name"\\s*:\\s*"${name}"|<tool_call>|to=functions\\.`, 'i').test(
				output.reasoning,
			),
		);
		return { output, shortfall: mentions ? 'callInReasoning' : 'reasoningOnly' };
	}
	return { output, shortfall: output.finishReason === 'tool_calls' ? 'toolCallsWithoutCalls' : 'empty' };
}

/** The correction sent with the one re-ask; precise, so the model knows what to change. */
export function nudgeText(shortfall: Shortfall, detail = ''): string {
	switch (shortfall) {
		case 'empty':
			return 'Your last reply was empty: no text and no tool call, so nothing happened. Continue the task now: call one of the offered tools, or write your answer for the user.';
		case 'reasoningOnly':
			return 'Your last reply contained only reasoning and no answer or tool call, so the user saw nothing. Do not stop after thinking: call a tool as a real tool call, or write the answer for the user.';
		case 'callInReasoning':
			return 'You wrote a tool call inside your reasoning. Calls there are never run. Issue it now as a real tool call (the tool-calling format, with its arguments as a JSON object).';
		case 'toolCallsWithoutCalls':
			return 'Your last reply said it was calling a tool (finish_reason "tool_calls") but no tool call arrived: the server probably dropped a call it could not parse, and nothing ran. Call the tool again with its arguments as one valid JSON object.';
		case 'truncatedCall':
			return `Your ${detail || 'tool'} call was cut off by the output token limit before its arguments were complete, so it could not be parsed and did not run. Call it again with shorter arguments (for a large file, write it in smaller parts).`;
		case 'degenerate':
			return 'Your last reply kept repeating the same words, so it was stopped. Do not repeat yourself: give a short answer, or call a tool.';
		case 'unofferedCall':
			return `You called "${detail}", which is not one of the offered tools, so it could not be parsed as a call and nothing ran. Use only the offered tools, as real tool calls.`;
	}
}

/** What the user reads in the chat when the re-ask happens, and when the second attempt fails too. */
export function shortfallLabel(shortfall: Shortfall, detail = ''): string {
	switch (shortfall) {
		case 'empty':
			return 'The model sent an empty answer (no text, no tool call)';
		case 'reasoningOnly':
			return 'The model only reasoned and gave no answer or tool call';
		case 'callInReasoning':
			return 'The model wrote its tool call inside its reasoning, where it cannot run';
		case 'toolCallsWithoutCalls':
			return 'The server announced a tool call but sent none (it probably dropped a call it could not parse)';
		case 'truncatedCall':
			return `The ${detail || 'tool'} call was cut off by the output token limit; it did not run`;
		case 'degenerate':
			return 'The model started repeating itself; the answer was stopped';
		case 'unofferedCall':
			return `The model called "${detail}", which is not an offered tool`;
	}
}

function isJsonObject(raw: string): boolean {
	try {
		const value = JSON.parse(raw);
		return typeof value === 'object' && value !== null && !Array.isArray(value);
	} catch {
		return false;
	}
}

/** Ends inside a string or with braces still open: text that stopped, not text that is merely malformed. */
export function looksCut(raw: string): boolean {
	const text = raw.trim();
	if (!text.startsWith('{') || isJsonObject(text)) {
		return false;
	}
	let depth = 0;
	const inString = scanOutsideStrings(text, c => {
		if (c === '{' || c === '[') {
			depth++;
		} else if (c === '}' || c === ']') {
			depth--;
		}
	});
	return inString || depth > 0;
}
