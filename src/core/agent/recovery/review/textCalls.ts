import type { ToolSpec } from '../../../llm/chatModel';
import { repairArguments } from '../../../llm/textCalls/argumentRepair';
import { parseLoose } from '../../../llm/textCalls/argumentReaders';
import { isRecord } from '../../../util/json';
import { findCandidates } from '../../../llm/textCalls/callExtractor';
import type { Candidate } from '../../../llm/textCalls/candidate';
import {
	judgeCandidates,
	proseWithout,
	type CallProblem,
	type JudgeOptions,
	type Validation,
} from '../../../llm/textCalls/callJudge';
import { widenOverMarkup } from '../../../llm/textCalls/textScan';
import { unescapeTwice } from '../../../llm/textCalls/escapedTwice';
import { dialectMatches, parseTextToolCalls } from '../../../llm/textCalls/textToolCalls';
import type { ToolRegistry } from '../../../tools/registry';
import { looksCut } from '../../../llm/textCalls/jsonScan';

/** How calls written as text are read: the dialect parsers and the general extractor, or the dialect parsers alone (the bench's comparison). */
export type TextCallExtraction = 'general' | 'dialects';

export interface TextCallContext {
	registry: ToolRegistry;
	offered: readonly ToolSpec[];
	/** The user's message this turn answers. */
	prompt?: string;
	extraction?: TextCallExtraction;
}

export interface TextCalls {
	calls: Array<{ name: string; rawArguments: string }>;
	/** Calls to offered tools that cannot run as written, with what is wrong. */
	problems: CallProblem[];
	prose: string;
	/** What the model wrote after its last call, before it could have seen a result: never its answer. */
	afterCalls: string;
	/** Repairs made on the way (for the inline notices). */
	fixes: string[];
}

/**
 * Calls written in a reply's text (or reasoning): the dialect parsers as fast paths, the
 * general extractor behind them, one judge for both (callJudge.ts). What runs is an offered
 * tool whose arguments validate after Keel's repair; what names an offered tool but cannot
 * run comes back as a problem the model is told about.
 */
export function findTextCalls(text: string, ctx: TextCallContext): TextCalls {
	const names = ctx.offered.map(tool => tool.name);
	const fixes: string[] = [];
	if (ctx.extraction === 'dialects') {
		const parsed = parseTextToolCalls(text, names);
		return {
			calls: parsed.calls.map(c => ({ name: c.name, rawArguments: c.rawArguments })),
			problems: [],
			prose: parsed.prose,
			afterCalls: '',
			fixes,
		};
	}
	const options = { validate: validator(ctx, fixes), prompt: ctx.prompt };
	const chosen = overlappingGroups(dialectCandidates(text, names), findCandidates(text, ctx.offered)).flatMap(
		([dialect, general]) => choose(text, dialect, general, options),
	);
	const judged = judgeCandidates(text, chosen, options);
	const lastEnd = Math.max(0, ...judged.calls.map(c => c.end));
	const afterCalls = judged.calls.length > 0 ? text.slice(lastEnd).trim() : '';
	return {
		calls: judged.calls.map(c => ({ name: c.name, rawArguments: c.rawArguments })),
		problems: judged.problems,
		prose: afterCalls ? proseWithout(text.slice(0, lastEnd), [...judged.calls, ...judged.problems]) : judged.prose,
		afterCalls,
		fixes,
	};
}

/** The dialect parsers' finds as candidates, spans widened over the wrapper around them. */
function dialectCandidates(text: string, names: string[]): Candidate[] {
	return dialectMatches(text, names).map(m => {
		const value = parseLoose(m.call.rawArguments);
		const [start, end] = widenOverMarkup(text, m.start, m.end);
		const cut = looksCut(m.call.rawArguments);
		return {
			name: m.call.name,
			args: isRecord(value) ? value : undefined,
			raw: m.call.rawArguments,
			start,
			end,
			core: [m.start, m.end] as [number, number],
			wrapped: start < m.start || end > m.end || m.call.dialect !== 'json',
			group: m.start,
			...(cut
				? { problem: { kind: 'incomplete' as const, detail: 'its arguments stop before they close' } }
				: {}),
		};
	});
}

/** Regions where the dialect parsers and the general extractor found something, each side's finds apart. */
function overlappingGroups(dialect: Candidate[], general: Candidate[]): Array<[Candidate[], Candidate[]]> {
	const all = [...dialect.map(c => ({ c, d: true })), ...general.map(c => ({ c, d: false }))].sort(
		(a, b) => a.c.start - b.c.start,
	);
	const groups: Array<[Candidate[], Candidate[], number]> = [];
	for (const { c, d } of all) {
		const last = groups[groups.length - 1];
		if (!last || c.start >= last[2]) {
			groups.push([[], [], c.end]);
		}
		const group = groups[groups.length - 1];
		(d ? group[0] : group[1]).push(c);
		group[2] = Math.max(group[2], c.end);
	}
	return groups.map(([d, g]) => [d, g]);
}

/**
 * One region's reading: a cut the general extractor saw wins (a half call is never completed
 * by guesswork); otherwise the side whose calls validate, the dialect parsers first.
 */
function choose(text: string, dialect: Candidate[], general: Candidate[], options: JudgeOptions): Candidate[] {
	const cut = general.find(c => c.problem?.kind === 'incomplete');
	if (cut) {
		return [cut];
	}
	const sides = [dialect, general].filter(side => side.length > 0);
	const score = (side: Candidate[]) => {
		const judged = judgeCandidates(text, side, options);
		return judged.calls.length * 2 - judged.problems.length;
	};
	return sides.reduce((best, side) => (score(side) > score(best) ? side : best));
}

/** Keel's usual repair, the schema, then values escaped twice made what the model meant. */
export function validator(ctx: TextCallContext, fixes: string[]) {
	return (name: string, args: Record<string, unknown> | string): Validation => {
		const raw = typeof args === 'string' ? args : JSON.stringify(args);
		const spec = ctx.offered.find(tool => tool.name === name);
		const repaired = repairArguments(raw, spec?.parameters);
		const parsed = ctx.registry.parse(name, repaired?.json ?? raw);
		if (!parsed.ok || !repaired) {
			return { ok: false, error: parsed.ok ? 'its arguments are not a JSON object' : parsed.message };
		}
		fixes.push(...repaired.fixes);
		const unescaped = unescapeTwice(repaired.value as Record<string, unknown>);
		if (unescaped.changed.length > 0 && ctx.registry.parse(name, JSON.stringify(unescaped.value)).ok) {
			fixes.push(`decoded ${unescaped.changed.join(', ')} escaped twice`);
			return { ok: true, rawArguments: JSON.stringify(unescaped.value) };
		}
		return { ok: true, rawArguments: repaired.json };
	};
}
