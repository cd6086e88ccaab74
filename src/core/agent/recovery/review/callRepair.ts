import type { ToolResultData } from '../../../llm/canonical';
import type { ToolSpec } from '../../../llm/chatModel';
import { repairArguments, splitConcatenated } from '../../../llm/textCalls/argumentRepair';
import { matchToolName } from '../../../llm/textCalls/textToolCalls';
import type { CallProblem } from '../../../llm/textCalls/callJudge';
import { unescapeTwice } from '../../../llm/textCalls/escapedTwice';
import { tryParseJson } from '../../../util/json';
import { findTextCalls, type TextCallContext } from './textCalls';
import type { ToolEffect } from '../../../tools/defineTool';
import type { ToolRegistry } from '../../../tools/registry';
import type { StepCall, StepOutput } from '../../loop/modelStep';
import { looksCut } from '../../../llm/textCalls/jsonScan';
import { compactSchema, exampleArguments } from './textMode';

export interface CallRecovery {
	output: StepOutput;
	/** One line per repair, for the inline notices. */
	notes: string[];
	/** The calls were found in the text, not in native tool_calls. */
	fromText: boolean;
	/** Native calls whose arguments could not be made valid (feeds the auto → text switch). */
	unrepairable: number;
	/** Calls written as text to offered tools that cannot run as written (cut off, empty, invalid). */
	problems: CallProblem[];
	/** What the model wrote after its calls, before it could have seen a result: set aside, never its answer. */
	afterCalls: string;
}

/**
 * R3 on a completed response, before validation: calls written as text become calls, names
 * are matched case/separator-insensitively, near-valid arguments are repaired and coerced to
 * the schema. Calls that still fail are left as they are; validation reports them to the model.
 */
export function recoverCalls(
	output: StepOutput,
	registry: ToolRegistry,
	offered: readonly ToolSpec[],
	makeId: (index: number) => string,
	reading: Pick<TextCallContext, 'prompt' | 'extraction'> = {},
): CallRecovery {
	const notes: string[] = [];
	const read = callsOf(output, { registry, offered, ...reading }, makeId, notes);
	// Two calls' arguments glued into one string become two calls.
	const calls = read.calls.flatMap(call => {
		const parts = splitConcatenated(call.rawArguments);
		if (!parts) {
			return [call];
		}
		notes.push(`Split ${parts.length} ${call.name} calls that arrived glued together`);
		return parts.map((rawArguments, i) => ({
			id: i === 0 ? call.id : makeId(100 + i),
			name: call.name,
			rawArguments,
		}));
	});
	let unrepairable = 0;
	const repaired = calls.map(call => {
		const fixed = repairCall(call, registry, offered, notes, read.fromText);
		unrepairable += fixed.unrepairable ? 1 : 0;
		return fixed.call;
	});
	return {
		output: { ...output, text: read.text, calls: withoutRepeats(repaired, notes) },
		notes,
		fromText: read.fromText,
		unrepairable,
		problems: read.problems,
		afterCalls: read.afterCalls,
	};
}

/**
 * The response's calls: its native ones, or those written in its text. Text written after a
 * native call (before any result could exist) is set apart as what it is: an invented output.
 */
function callsOf(output: StepOutput, ctx: TextCallContext, makeId: (index: number) => string, notes: string[]) {
	const none = {
		calls: output.calls,
		text: output.text,
		fromText: false,
		problems: [] as CallProblem[],
		afterCalls: '',
	};
	if (output.calls.length === 0 && output.text.trim()) {
		const found = findTextCalls(output.text, ctx);
		if (found.calls.length === 0) {
			return { ...none, problems: found.problems, text: found.problems.length > 0 ? found.prose : output.text };
		}
		const calls = found.calls.map((call, i) => ({ id: makeId(i), ...call }));
		const fixes = found.fixes.length ? ` (${[...new Set(found.fixes)].join(', ')})` : '';
		notes.push(
			`Recovered ${calls.map(c => c.name).join(', ')} call${calls.length > 1 ? 's' : ''} written as text${fixes}`,
		);
		return { calls, text: found.prose, fromText: true, problems: found.problems, afterCalls: found.afterCalls };
	}
	const settled = output.calls.length > 0 && output.text.trim() ? settleWithText(output, ctx, notes) : undefined;
	if (settled) {
		return { ...none, ...settled };
	}
	const at = output.textBeforeCalls;
	if (output.calls.length > 0 && at !== undefined && output.text.slice(at).trim()) {
		return { ...none, text: output.text.slice(0, at).trimEnd(), afterCalls: output.text.slice(at).trim() };
	}
	if (output.calls.length > 0 && output.text.trim() && ctx.extraction !== 'dialects') {
		// Native calls also written out in the text (llama.cpp sends both): the text copy is not prose.
		const found = findTextCalls(output.text, ctx);
		const echoes = found.calls.length > 0 && found.calls.every(t => output.calls.some(n => sameCall(n, t)));
		return echoes ? { ...none, text: found.prose } : none;
	}
	return none;
}

/**
 * A structured call and a call written in the text to the same tool that disagree: the
 * complete one runs, once, under the structured call's id. A call whose arguments do not
 * validate, or hold only part of what the other's hold, is the incomplete one (a server's
 * parser that lost the arguments sends `{}` beside the call the model wrote out whole).
 * Undefined when no structured call lost, so the usual reading applies.
 */
function settleWithText(output: StepOutput, ctx: TextCallContext, notes: string[]) {
	if (ctx.extraction === 'dialects') {
		return undefined;
	}
	const found = findTextCalls(output.text, ctx);
	const used = new Set<number>();
	let replaced = false;
	const calls = output.calls.map(call => {
		const name =
			matchToolName(
				call.name,
				ctx.offered.map(tool => tool.name),
			) ?? call.name;
		const i = found.calls.findIndex((t, j) => !used.has(j) && t.name === name);
		if (i < 0) {
			return call;
		}
		const written = found.calls[i];
		if (sameCall({ ...call, name }, written)) {
			used.add(i);
			return call;
		}
		if (!moreComplete(written.rawArguments, call.rawArguments, name, ctx)) {
			return call;
		}
		used.add(i);
		replaced = true;
		notes.push(`Ran the ${name} call written in the text: the structured one beside it had incomplete arguments`);
		return { ...call, name, rawArguments: written.rawArguments };
	});
	if (!replaced) {
		return undefined;
	}
	// The text shown loses the calls only when each of them was run or was the same as one run.
	return { calls, text: used.size === found.calls.length ? found.prose : output.text };
}

/**
 * `a` (valid, from the text) is more complete than `b`: `b` does not validate as sent (empty,
 * cut off, broken: a repair would only guess what `a` says), or its keys are a strict part of
 * `a`'s with the same values.
 */
function moreComplete(a: string, b: string, name: string, ctx: TextCallContext): boolean {
	if (!ctx.registry.parse(name, b).ok) {
		return true;
	}
	const full = tryParseJson(a) as Record<string, unknown> | undefined;
	const part = (b.trim() === '' ? {} : tryParseJson(b)) as Record<string, unknown> | undefined;
	if (!full || typeof full !== 'object' || !part || typeof part !== 'object') {
		return false;
	}
	const keys = Object.keys(part);
	return (
		keys.length < Object.keys(full).length &&
		keys.every(key => key in full && JSON.stringify(full[key]) === JSON.stringify(part[key]))
	);
}

function sameCall(a: { name: string; rawArguments: string }, b: { name: string; rawArguments: string }): boolean {
	const canonical = (raw: string) => JSON.stringify(tryParseJson(raw) ?? raw);
	return a.name === b.name && canonical(a.rawArguments) === canonical(b.rawArguments);
}

/** A name matched to an offered tool, arguments repaired and coerced to the schema when they do not validate. */
function repairCall(
	call: StepCall,
	registry: ToolRegistry,
	offered: readonly ToolSpec[],
	notes: string[],
	fromText: boolean,
): { call: StepCall; unrepairable?: boolean } {
	const name =
		matchToolName(
			call.name,
			offered.map(tool => tool.name),
		) ?? call.name;
	if (name !== call.name) {
		notes.push(`Matched tool name "${call.name}" to ${name}`);
	}
	const first = registry.parse(name, call.rawArguments);
	if (first.ok) {
		return { call: unescaped({ ...call, name }, registry, notes) };
	}
	if (first.errorKind === 'unknownTool') {
		return { call: { ...call, name } };
	}
	const repaired = repairArguments(call.rawArguments, offered.find(tool => tool.name === name)?.parameters);
	if (repaired && registry.parse(name, repaired.json).ok) {
		if (!fromText || repaired.fixes.length > 0) {
			const fixes = repaired.fixes.length ? ` (${repaired.fixes.join(', ')})` : '';
			notes.push(`Repaired malformed arguments for ${name}${fixes}`);
		}
		return { call: { ...call, name, rawArguments: repaired.json } };
	}
	return { call: { ...call, name }, unrepairable: !repaired };
}

/** A native call whose values arrived escaped twice (a file body with literal `\n`) runs as the model meant it. */
function unescaped(call: StepCall, registry: ToolRegistry, notes: string[]): StepCall {
	const value = tryParseJson(call.rawArguments);
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		return call;
	}
	const { value: decoded, changed } = unescapeTwice(value as Record<string, unknown>);
	const rawArguments = JSON.stringify(decoded);
	if (changed.length === 0 || !registry.parse(call.name, rawArguments).ok) {
		return call;
	}
	notes.push(`Decoded ${changed.join(', ')} of ${call.name}, escaped twice`);
	return { ...call, rawArguments };
}

/** The same call twice in one response (a server that sent it again) runs once. */
function withoutRepeats(calls: StepCall[], notes: string[]): StepCall[] {
	const seen = new Set<string>();
	return calls.filter(call => {
		const value = tryParseJson(call.rawArguments);
		const key = `${call.name}\u0000${value === undefined ? call.rawArguments : JSON.stringify(value)}`;
		if (seen.has(key)) {
			notes.push(`Ignored a repeated ${call.name} call in the same response`);
			return false;
		}
		seen.add(key);
		return true;
	});
}

/**
 * The raw text out of a server's parse error: a whole call in some dialect, or just the
 * arguments — then the one offered tool they validate against, if exactly one does (only for
 * text known to be the model's output, `argumentsOnly`).
 */
export function recoverFromRaw(
	raw: string,
	offered: readonly ToolSpec[],
	registry: ToolRegistry,
	argumentsOnly = true,
): Array<Omit<StepCall, 'id'>> | undefined {
	const valid = findTextCalls(raw, { registry, offered }).calls;
	// A call whose arguments stop mid-way is never completed by guesswork when it changes something.
	const whole = (name: string, args: string) => !looksCut(args) || registry.get(name)?.effect === 'read';
	if (valid.length > 0 || !argumentsOnly) {
		return valid.length > 0 ? valid : undefined;
	}
	// Arguments only: the tool they validate against, preferring the one whose required keys
	// they fill (an all-optional schema accepts anything); a tie means we cannot know.
	const fits = offered.flatMap(tool => {
		if (!whole(tool.name, raw)) {
			return [];
		}
		const repaired = repairArguments(raw, tool.parameters);
		if (!repaired || !registry.parse(tool.name, repaired.json).ok) {
			return [];
		}
		const required = (tool.parameters.required ?? []) as string[];
		const score = required.filter(key => key in (repaired.value as object)).length;
		return [{ call: { name: tool.name, rawArguments: repaired.json }, score }];
	});
	const best = Math.max(...fits.map(fit => fit.score));
	const top = fits.filter(fit => fit.score === best);
	return top.length === 1 ? [top[0].call] : undefined;
}

/** A schema error says what to fix; add the expected shape and a call the model can copy. */
export function explainToolError(result: ToolResultData, offered: readonly ToolSpec[]): ToolResultData {
	if (result.errorKind !== 'invalidArguments') {
		return result;
	}
	const spec = offered.find(tool => tool.name === result.name);
	if (!spec) {
		return result;
	}
	const hint = `Expected arguments: ${compactSchema(spec.parameters)}. Example: ${JSON.stringify({ name: spec.name, arguments: exampleArguments(spec.parameters) })}`;
	return { ...result, output: `${result.output}\n${hint}` };
}

/** How often a failing tool may be tried again in one turn: reads are cheap, side effects are not. */
export class ToolRetryBudget {
	private readonly _failures = new Map<string, number>();

	constructor(private readonly _limits: { read: number; sideEffect: number }) {}

	limit(effect: ToolEffect | undefined): number {
		return effect === 'read' ? this._limits.read : this._limits.sideEffect;
	}

	exhausted(name: string, effect: ToolEffect | undefined): boolean {
		return (this._failures.get(name) ?? 0) > this.limit(effect);
	}

	/**
	 * Only calls that could not run count (bad arguments, unknown tool): a command that exited
	 * non-zero or a page that answered 503 is a result. A success of the tool starts it afresh.
	 */
	record(result: ToolResultData): void {
		if (result.ok) {
			this._failures.delete(result.name);
		} else if (result.errorKind === 'invalidArguments' || result.errorKind === 'unknownTool') {
			this._failures.set(result.name, (this._failures.get(result.name) ?? 0) + 1);
		}
	}
}
