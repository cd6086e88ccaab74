import * as z from 'zod';
import { checkPattern } from '../patterns/linearRegex';
import { MAX_PATTERN_LENGTH, MAX_RULE_FILE_BYTES, type FilterRule } from './types';

/**
 * A user's or workspace's rule file (JSON): `{ "rules": [ { name, match, strategy, enabled } ] }`.
 * Invalid rules are skipped with a warning and the valid ones in the same file still load;
 * a file over 1 MiB or not JSON is ignored as a whole (the built-ins stay).
 */
const pattern = z
	.string()
	.max(MAX_PATTERN_LENGTH, `patterns are limited to ${MAX_PATTERN_LENGTH} characters`)
	.superRefine((source, ctx) => {
		// Patterns run on a linear-time engine: what it cannot run is named here, not skipped silently.
		const problem = checkPattern(source);
		if (problem) {
			ctx.addIssue({ code: 'custom', message: problem });
		}
	});
const patterns = z.array(pattern);

const Match = z.union(
	[
		z.strictObject({ exact: z.string().min(1) }),
		z.strictObject({ prefix: z.string().min(1) }),
		z.strictObject({ regex: pattern }),
	],
	{ error: 'match needs exactly one of "exact", "prefix" or "regex"' },
);

const count = z.number().int().min(0).max(100_000);
const Strategy = z.discriminatedUnion('type', [
	z.strictObject({ type: z.literal('strip_noise'), patterns }),
	z.strictObject({ type: z.literal('keep_matching'), patterns }),
	z.strictObject({ type: z.literal('strip_annotated'), prefixes: z.array(z.string().min(1)) }),
	z.strictObject({
		type: z.literal('truncate'),
		maxLines: count.optional(),
		head: count.optional(),
		tail: count.optional(),
		keep: patterns.optional(),
	}),
	z.strictObject({
		type: z.literal('test_summary'),
		passing: patterns,
		summary: patterns.min(1),
		noise: patterns.optional(),
		maxLines: count.optional(),
	}),
	z.strictObject({
		type: z.literal('group_by_rule'),
		line: z.union([pattern, patterns]).optional(),
		fileHeader: pattern.optional(),
		blockStart: pattern.optional(),
		location: pattern.optional(),
		rule: pattern.optional(),
		keep: patterns.optional(),
		maxPlaces: count.optional(),
	}),
	z.strictObject({ type: z.literal('git_status') }),
	z.strictObject({ type: z.literal('git_diff'), maxDiffLines: count.optional() }),
	z.strictObject({ type: z.literal('dedup') }),
]);

const Rule = z.strictObject({
	name: z.string().min(1).max(100),
	match: Match,
	strategy: z.union([Strategy, z.array(Strategy).min(1)]),
	enabled: z.boolean().optional(),
	minLines: count.optional(),
});
/** `{ "name": "npm-install", "enabled": false }` switches a rule off without restating it. */
const Toggle = z.strictObject({ name: z.string().min(1), enabled: z.literal(false) });

export type RuleEntry = FilterRule | { name: string; enabled: false; toggleOnly: true };

export interface ParsedRuleFile {
	entries: RuleEntry[];
	warnings: string[];
}

export function parseRuleFile(text: string, origin: string): ParsedRuleFile {
	if (Buffer.byteLength(text, 'utf8') > MAX_RULE_FILE_BYTES) {
		return {
			entries: [],
			warnings: [`${origin} is larger than 1 MiB and was ignored; the built-in filters apply.`],
		};
	}
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (error) {
		return {
			entries: [],
			warnings: [`${origin} is not valid JSON (${(error as Error).message}) and was ignored.`],
		};
	}
	const list = Array.isArray(data) ? data : (data as { rules?: unknown })?.rules;
	if (!Array.isArray(list)) {
		return { entries: [], warnings: [`${origin} must be {"rules": [...]}; it was ignored.`] };
	}
	const entries: RuleEntry[] = [];
	const warnings: string[] = [];
	list.forEach((raw, index) => {
		const toggle = Toggle.safeParse(raw);
		if (toggle.success) {
			entries.push({ name: toggle.data.name, enabled: false, toggleOnly: true });
			return;
		}
		const rule = Rule.safeParse(raw);
		if (rule.success) {
			entries.push(rule.data as FilterRule);
			return;
		}
		const name =
			typeof (raw as { name?: unknown })?.name === 'string'
				? `"${(raw as { name: string }).name}"`
				: `#${index + 1}`;
		const why = rule.error.issues.map(issue => `${issue.path.join('.') || '(rule)'}: ${issue.message}`).join('; ');
		warnings.push(`${origin}: rule ${name} skipped (${why}).`);
	});
	return { entries, warnings };
}
