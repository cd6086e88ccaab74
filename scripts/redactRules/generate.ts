// `npm run redact-rules:generate`: writes src/core/gate/redact/maintainedRules.json, the rules
// of gitleaks' default configuration and secretlint's recommended preset as data the redactor
// compiles (RE2, re2js), with where each came from. `--check` writes nothing and exits 1 when
// the file is out of date with the installed rule sets.
import * as fs from 'fs';
import * as path from 'path';
import { RE2JS } from 're2js';
import { readGitleaksConfig, type GitleaksAllowlist, type GitleaksRule } from './gitleaksConfig';
import { leadingLiterals, parsePattern, requiredLiterals, widen } from '../../src/core/gate/redact/patternShape';
import { readSecretlintPreset, type SecretlintPattern } from './secretlintRules';
import type { MaintainedAllowlist, MaintainedRule, MaintainedRules } from '../../src/core/gate/redact/maintainedTypes';

const OUT = 'src/core/gate/redact/maintainedRules.json';

/** The optional identifier gitleaks puts before a keyword: it never decides which secret is found, and without it a match starts at its keyword. */
const IDENTIFIER_PREFIX = /^(\(\?i\))?\[\\w\.-\]\{0,50\}\?/;
/** gitleaks' "semi-generic" rules: a keyword, then an operator within a few characters, then the secret. */
const OPERATOR = String.raw`(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`;

/** Which group a secretlint pattern's secret is in, where the rule reports a group and not the whole match. */
const SECRETLINT_GROUPS: Record<string, number | string> = {
	'aws/AWSSecretPatten': 1,
	'basicauth/URL_PATTERN': 'password',
	'npm/AuthTokenPattern': 1,
	'npm/XOAuthPattern': 1,
};

function repoRoot(start: string): string {
	for (let dir = start; dir !== path.dirname(dir); dir = path.dirname(dir)) {
		if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
	}
	throw new Error(`no package.json above ${start}`);
}

export function generate(root: string): MaintainedRules {
	const gitleaks = readGitleaksConfig(root);
	const secretlint = readSecretlintPreset(root);
	const rules: MaintainedRule[] = [];
	const skipped: MaintainedRules['skipped'] = [];
	for (const rule of gitleaks.rules) {
		const built = fromGitleaks(rule);
		if (typeof built === 'string') skipped.push({ id: rule.id, why: built });
		else rules.push(built);
	}
	for (const pattern of secretlint.patterns) {
		const built = fromSecretlint(pattern);
		if (typeof built === 'string') skipped.push({ id: pattern.id, why: built });
		else if (!rules.some(r => r.regex === built.regex)) rules.push(built);
	}
	return {
		generatedBy: 'scripts/redactRules/generate.ts',
		sources: [
			{
				name: 'gitleaks',
				version: gitleaks.version,
				file: 'config/gitleaks.toml',
				url: `https://github.com/gitleaks/gitleaks/blob/v${gitleaks.version}/config/gitleaks.toml`,
				sha256: gitleaks.sha256,
				via: `${gitleaks.via} (the configuration its binary embeds)`,
			},
			{
				name: '@secretlint/secretlint-rule-preset-recommend',
				version: secretlint.version,
				file: 'the rules’ module sources (npm package source map)',
				url: `https://github.com/secretlint/secretlint/tree/v${secretlint.version}/packages/%40secretlint/secretlint-rule-preset-recommend`,
				sha256: secretlint.sha256,
				via: `@secretlint/secretlint-rule-preset-recommend@${secretlint.version}`,
			},
		],
		global: allowlistOf(gitleaks.global) ?? { target: 'secret', regexes: [], stopwords: [] },
		rules,
		families: families(rules),
		skipped,
	};
}

/** Rules whose every match spans several lines: Keel judges a line at a time (key bodies have their own machine). */
const ACROSS_LINES: Record<string, string> = {
	'kubernetes-secret-yaml':
		'spans several lines (kind: Secret … data: …); Keel judges a line at a time, and the base64 values are judged as key material',
};

/** RE2 caps counted repetition at 1000: a larger bound becomes no bound (a superset of the same shape). */
function re2Counts(regex: string): string {
	return regex.replace(/\{(\d+),(\d+)\}/g, (all, min: string, max: string) =>
		Number(max) > 1000 ? `{${min},}` : all,
	);
}

function fromGitleaks(rule: GitleaksRule): MaintainedRule | string {
	if (!rule.regex) return 'matches file names only';
	if (ACROSS_LINES[rule.id]) return ACROSS_LINES[rule.id];
	const regex = re2Counts(rule.regex.replace(IDENTIFIER_PREFIX, (_, ci: string | undefined) => ci ?? ''));
	const keywords = (rule.keywords ?? requiredLiterals(parsePattern(regex)) ?? []).map(k => k.toLowerCase());
	if (!keywords.length) return 'no keyword to find it by';
	const compiled = compiles(regex);
	if (compiled) return compiled;
	const allow = rule.allowlists.map(allowlistOf).filter((a): a is MaintainedAllowlist => a !== undefined);
	return {
		id: rule.id,
		from: 'gitleaks',
		regex,
		keywords,
		...shape(regex, keywords),
		...(rule.secretGroup ? { group: rule.secretGroup } : {}),
		...(rule.entropy ? { entropy: rule.entropy } : {}),
		...(allow.length ? { allow } : {}),
	};
}

function fromSecretlint(pattern: SecretlintPattern): MaintainedRule | string {
	if (/\\[1-9]/.test(pattern.source)) {
		return 'uses a backreference; private key blocks are cut whole by the line machine';
	}
	const regex = re2Counts(RE2JS.translateRegExp(pattern.source));
	let lookbehind = false;
	if (compiles(regex)) {
		if (compiles(regex, RE2JS.LOOKBEHINDS)) return `does not compile as RE2: ${compiles(regex)}`;
		lookbehind = true;
	}
	const keywords = requiredLiterals(parsePattern(regex));
	if (!keywords?.length || keywords.some(k => k.length < 2)) return 'no keyword to find it by';
	const group = SECRETLINT_GROUPS[pattern.id];
	return {
		id: `secretlint-${pattern.id.replace('/', '-')}`,
		from: 'secretlint',
		regex,
		keywords,
		...shape(regex, keywords),
		...(group !== undefined ? { group } : { group: 0 }),
		...(lookbehind ? { lookbehind } : {}),
	};
}

/** Whether a match always starts at one of its keywords (then it is tried only there), and the exact-case starts. */
function shape(
	regex: string,
	keywords: string[],
): Pick<MaintainedRule, 'anchored' | 'cased' | 'operator' | 'boundary' | 'context'> {
	const leading = leadingLiterals(parsePattern(regex));
	const anchored = !!leading && leading.every(l => keywords.some(k => l.startsWith(k)));
	const cased = anchored ? leadingLiterals(parsePattern(regex, true)) : undefined;
	// A keyword no match holds is context: gitleaks gates the rule on it anywhere in the file.
	const held = widen(() => requiredLiterals(parsePattern(regex)));
	const context = !anchored && !held?.some(literal => keywords.some(k => literal.includes(k) || k.includes(literal)));
	return {
		anchored,
		...(context ? { context } : {}),
		...(cased && cased.length <= 16 ? { cased } : {}),
		...(anchored && regex.includes(OPERATOR) ? { operator: true } : {}),
		...(anchored && WORD_START.test(regex) ? { boundary: true } : {}),
	};
}

/** A pattern that opens with `\b` before a word character: a match never starts inside a word. */
const WORD_START = /^(?:\(\?[a-z]*\))?(?:\((?:\?:)?)*\\b(?:\((?:\?:|\?P<\w+>)?)*[\w(]/;

function compiles(regex: string, flags = 0): string | undefined {
	try {
		RE2JS.compile(regex, flags);
		return undefined;
	} catch (error) {
		return (error as Error).message;
	}
}

/** An allowlist Keel can apply to a text (paths and commits are about files in a repository; those alone are left out). */
function allowlistOf(list: GitleaksAllowlist): MaintainedAllowlist | undefined {
	const regexes = list.regexes ?? [];
	const stopwords = (list.stopwords ?? []).map(s => s.toLowerCase());
	if (!regexes.length && !stopwords.length) return undefined;
	// "AND" with a path condition can never be met on a text: such a list allows nothing.
	if (list.condition === 'AND' && list.paths?.length) return undefined;
	return {
		target: (list.regexTarget as MaintainedAllowlist['target']) ?? 'secret',
		...(list.condition === 'AND' ? { all: true } : {}),
		regexes,
		stopwords,
	};
}

/**
 * Token families: a vendor's prefixes that differ only in one letter before their separator
 * (GitHub's `ghp_`, `gho_`, `ghu_`…, Slack's `xoxb-`, `xoxp-`…). The family is the stem with
 * any letter, so a member the rule sets do not list yet (Slack's `xoxc-`, `xoxd-`) is cut too.
 */
function families(rules: MaintainedRule[]): MaintainedRules['families'] {
	const byStem = new Map<string, { letters: Set<string>; separators: Set<string>; vendors: Set<string> }>();
	for (const rule of rules) {
		if (!rule.anchored) continue;
		for (const start of leadingLiterals(parsePattern(rule.regex)) ?? []) {
			const m = /^([a-z0-9]{2,})([a-z])([-_.]?)$/.exec(start.replace(/[-_.].*$/, s => s[0]));
			if (!m) continue;
			const entry = byStem.get(m[1]) ?? { letters: new Set(), separators: new Set(), vendors: new Set() };
			entry.letters.add(m[2]);
			if (m[3]) entry.separators.add(m[3]);
			// The vendor is the rule id's first word (`slack-bot-token`, `secretlint-slack-…`).
			entry.vendors.add(rule.id.replace(/^secretlint-/, '').split('-')[0]);
			byStem.set(m[1], entry);
		}
	}
	return [...byStem]
		.filter(([, e]) => e.letters.size >= 3 && e.separators.size === 1 && e.vendors.size === 1)
		.map(([stem, e]) => ({
			stem,
			separator: [...e.separators][0],
			vendor: [...e.vendors][0],
			members: [...e.letters].sort(),
		}))
		.sort((a, b) => a.stem.localeCompare(b.stem));
}

function main(): number {
	const root = repoRoot(__dirname);
	const text = `${JSON.stringify(generate(root), null, '\t')}\n`;
	const file = path.join(root, OUT);
	if (process.argv.includes('--check')) {
		const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
		if (current !== text) {
			console.error(`${OUT} is out of date: run npm run redact-rules:generate`);
			return 1;
		}
		return 0;
	}
	fs.writeFileSync(file, text);
	return 0;
}

if (require.main === module) process.exitCode = main();
