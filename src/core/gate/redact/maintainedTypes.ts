/**
 * The shape of maintainedRules.json: the rules of gitleaks' default configuration and
 * secretlint's recommended preset as data (scripts/redactRules/generate.ts writes it).
 */

export interface MaintainedAllowlist {
	/** What the patterns are tried on: the secret, the whole match, or its line. */
	target: 'secret' | 'match' | 'line';
	/** Every condition must hold (gitleaks' `condition = "AND"`); otherwise any one does. */
	all?: boolean;
	regexes: string[];
	/** Lowercase words: a secret holding one is allowed. */
	stopwords: string[];
}

export interface MaintainedRule {
	id: string;
	from: 'gitleaks' | 'secretlint';
	/** RE2 syntax. */
	regex: string;
	/** Lowercase; a rule is tried only where one of them occurs. */
	keywords: string[];
	/** Every match starts with one of its keywords: tried only at them, not in a window around them. */
	anchored: boolean;
	/** The exact-case starts a match can have (checked before the pattern runs). */
	cased?: string[];
	/** The keywords are context, not part of a match (gitleaks gates such a rule on the whole file): tried on all of the text. */
	context?: boolean;
	/** gitleaks' keyword-then-operator shape: an operator follows the keyword within a few characters. */
	operator?: boolean;
	/** The pattern opens with a word boundary: a match never starts right after a letter, digit or `_`. */
	boundary?: boolean;
	/** The group holding the secret; absent: the first group that took part, else the whole match. */
	group?: number | string;
	/** Shannon entropy (bits per character) the secret must reach. */
	entropy?: number;
	allow?: MaintainedAllowlist[];
	/** Compiled with re2js' linear-time lookbehinds. */
	lookbehind?: boolean;
}

export interface MaintainedRules {
	generatedBy: string;
	sources: Array<{ name: string; version: string; file: string; url: string; sha256: string; via: string }>;
	/** gitleaks' global allowlist, applied to every rule's secret. */
	global: MaintainedAllowlist;
	rules: MaintainedRule[];
	/** Token prefixes differing in one letter before a separator: the stem with any letter is the family. */
	families: Array<{ stem: string; separator: string; vendor: string; members: string[] }>;
	/** What was not taken, and why. */
	skipped: Array<{ id: string; why: string }>;
}
