import type { ToolResultData } from '../../llm/canonical';
import type { ToolSpec } from '../../llm/chatModel';
import { repairArguments, splitConcatenated } from '../../llm/argumentRepair';
import { matchToolName, parseTextToolCalls } from '../../llm/textToolCalls';
import type { ToolEffect } from '../../tools/defineTool';
import type { ToolRegistry } from '../../tools/registry';
import type { StepCall, StepOutput } from '../loop/modelStep';
import { looksCut } from './stepReview';
import { compactSchema, exampleArguments } from './textMode';

export interface CallRecovery {
	output: StepOutput;
	/** One line per repair, for the inline notices. */
	notes: string[];
	/** The calls were found in the text, not in native tool_calls. */
	fromText: boolean;
	/** Native calls whose arguments could not be made valid (feeds the auto → text switch). */
	unrepairable: number;
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
): CallRecovery {
	const names = offered.map(tool => tool.name);
	const notes: string[] = [];
	let calls: StepCall[] = output.calls;
	let text = output.text;
	let fromText = false;
	if (calls.length === 0 && text.trim()) {
		const parsed = parseTextToolCalls(text, names);
		if (parsed.calls.length > 0) {
			calls = parsed.calls.map((call, i) => ({
				id: makeId(i),
				name: call.name,
				rawArguments: call.rawArguments,
			}));
			text = parsed.prose;
			fromText = true;
			notes.push(
				`Recovered ${calls.map(c => c.name).join(', ')} call${calls.length > 1 ? 's' : ''} written as text`,
			);
		}
	}
	// Two calls' arguments glued into one string become two calls.
	calls = calls.flatMap(call => {
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
	calls = calls.map(call => {
		const name = matchToolName(call.name, names) ?? call.name;
		if (name !== call.name) {
			notes.push(`Matched tool name "${call.name}" to ${name}`);
		}
		const first = registry.parse(name, call.rawArguments);
		if (first.ok || first.errorKind === 'unknownTool') {
			return { ...call, name };
		}
		const spec = offered.find(tool => tool.name === name);
		const repaired = repairArguments(call.rawArguments, spec?.parameters);
		if (repaired && registry.parse(name, repaired.json).ok) {
			if (!fromText || repaired.fixes.length > 0) {
				notes.push(
					`Repaired malformed arguments for ${name}${repaired.fixes.length ? ` (${repaired.fixes.join(', ')})` : ''}`,
				);
			}
			return { ...call, name, rawArguments: repaired.json };
		}
		if (!repaired) {
			unrepairable++;
		}
		return { ...call, name };
	});
	return { output: { ...output, text, calls }, notes, fromText, unrepairable };
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
	const names = offered.map(tool => tool.name);
	const parsed = parseTextToolCalls(raw, names);
	// A call whose arguments stop mid-way is never completed by guesswork when it changes something.
	const whole = (name: string, args: string) => !looksCut(args) || registry.get(name)?.effect === 'read';
	const valid = parsed.calls
		.filter(call => whole(call.name, call.rawArguments))
		.map(call => {
			const repaired = repairArguments(call.rawArguments, offered.find(t => t.name === call.name)?.parameters);
			return repaired && registry.parse(call.name, repaired.json).ok
				? { name: call.name, rawArguments: repaired.json }
				: undefined;
		})
		.filter((call): call is Omit<StepCall, 'id'> => call !== undefined);
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
