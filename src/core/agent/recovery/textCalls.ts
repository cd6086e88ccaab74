import type { ToolSpec } from '../../llm/chatModel';
import { repairArguments } from '../../llm/argumentRepair';
import { isRecord, parseLoose } from '../../llm/argumentReaders';
import { findCandidates, type Candidate } from '../../llm/callExtractor';
import { judgeCandidates, type CallProblem, type Validation } from '../../llm/callJudge';
import { unescapeTwice } from '../../llm/escapedTwice';
import { dialectMatches, parseTextToolCalls } from '../../llm/textToolCalls';
import type { ToolRegistry } from '../../tools/registry';
import { looksCut } from './stepReview';

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
			fixes,
		};
	}
	const dialect: Candidate[] = dialectMatches(text, names).map(m => {
		const value = parseLoose(m.call.rawArguments);
		const cut = looksCut(m.call.rawArguments);
		return {
			name: m.call.name,
			args: isRecord(value) ? value : undefined,
			raw: m.call.rawArguments,
			start: m.start,
			end: m.end,
			wrapped: true,
			...(cut
				? { problem: { kind: 'incomplete' as const, detail: 'its arguments stop before they close' } }
				: {}),
		};
	});
	const general = findCandidates(text, ctx.offered);
	const merged = dialect.map(
		d => general.find(g => g.problem?.kind === 'incomplete' && g.start < d.end && g.end > d.start) ?? d,
	);
	merged.push(...general.filter(g => !merged.some(d => g.start < d.end && g.end > d.start)));
	merged.sort((a, b) => a.start - b.start);
	const judged = judgeCandidates(text, merged, { validate: validator(ctx, fixes), prompt: ctx.prompt });
	return {
		calls: judged.calls.map(c => ({ name: c.name, rawArguments: c.rawArguments })),
		problems: judged.problems,
		prose: judged.prose,
		fixes,
	};
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
