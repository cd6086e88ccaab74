/**
 * Output filters are data: a rule names the commands it applies to and the strategy that
 * turns what a terminal shows a human into what a model needs. Built-in rules
 * (builtinRules.ts) and the user's and workspace's rule files share this one shape.
 */

/** How sure a filter is that it kept what matters; a pipeline reports its worst stage. */
export type FilterConfidence = 'full' | 'partial' | 'fallback';

/** Exactly one of the three; regexes are limited to MAX_PATTERN_LENGTH characters. */
export type RuleMatch = { exact: string } | { prefix: string } | { regex: string };

export type Strategy =
	/** Drop lines matching any pattern. */
	| { type: 'strip_noise'; patterns: string[] }
	/** Keep only lines matching a pattern; with nothing matching, the input stays as it was. */
	| { type: 'keep_matching'; patterns: string[] }
	/** Drop lines carrying an annotation prefix (e.g. `note:`, `help:`) and their indented continuation. */
	| { type: 'strip_annotated'; prefixes: string[] }
	/** First `head` and last `tail` lines above `maxLines`; lines in between matching `keep` survive. */
	| { type: 'truncate'; maxLines?: number; head?: number; tail?: number; keep?: string[] }
	/** Test runners: drop passing lines and noise, keep failures and the summary. */
	| { type: 'test_summary'; passing: string[]; summary: string[]; noise?: string[]; maxLines?: number }
	/** Diagnostics (lints, type errors) grouped by rule id, one line per rule with its places. */
	| {
			type: 'group_by_rule';
			line?: string | string[];
			fileHeader?: string;
			blockStart?: string;
			location?: string;
			rule?: string;
			keep?: string[];
			maxPlaces?: number;
	  }
	/** `git status` in its long form, compacted to branch and one line per section. */
	| { type: 'git_status' }
	/** Diffs capped at `maxDiffLines`; every file header survives the cap. */
	| { type: 'git_diff'; maxDiffLines?: number }
	/** Consecutive lines equal once timestamps, UUIDs, hex ids and durations are normalised, counted. */
	| { type: 'dedup' };

export interface FilterRule {
	name: string;
	match: RuleMatch;
	/** One strategy or several applied in order. */
	strategy: Strategy | Strategy[];
	/** A rule switched off (in a file or by keel.filters.disabledRules) is skipped. */
	enabled?: boolean;
	/** Below this many lines the output is left as it is (after sanitising). Default 0. */
	minLines?: number;
}

export interface StageResult {
	lines: string[];
	confidence: FilterConfidence;
}

export interface FilterResult {
	text: string;
	linesBefore: number;
	linesAfter: number;
	/** Worst confidence across the stages that ran. */
	confidence: FilterConfidence;
	/** The rule that matched, if any. */
	rule?: string;
	/** Stages that changed something, e.g. ["ansi", "progress", "cargo-test"]. */
	applied: string[];
}

export const MAX_PATTERN_LENGTH = 512;
export const MAX_RULE_FILE_BYTES = 1024 * 1024;

const ORDER: Record<FilterConfidence, number> = { full: 0, partial: 1, fallback: 2 };

export function worst(a: FilterConfidence, b: FilterConfidence): FilterConfidence {
	return ORDER[a] >= ORDER[b] ? a : b;
}
