/**
 * Command rule patterns: words with `*` wildcards (`\*` is a literal star), matched against
 * one command form at a time (shellRules.ts), so a `*` never crosses a command boundary.
 */
import { linearRegex, quoteLiteral, type LinearRegex } from '../patterns/linearRegex';
import type { CommandForm } from './commandForms';

/** A command rule: literal words with `*` wildcards; `\*` is a literal star. */
function compileCommandPattern(pattern: string): { prefix: string; regex: LinearRegex; trailingStarOnly: boolean } {
	const normalized = pattern.trim().replace(/[ \t]+/g, ' ');
	const parts: string[] = [''];
	for (let i = 0; i < normalized.length; i++) {
		const c = normalized[i];
		if (c === '\\' && i + 1 < normalized.length) {
			parts[parts.length - 1] += normalized[++i];
		} else if (c === '*') {
			parts.push('');
		} else {
			parts[parts.length - 1] += c;
		}
	}
	// Linear time: a rule such as `a*a*a*a*a*b` must not freeze the host on a long command line.
	return {
		prefix: parts[0],
		regex: linearRegex(`^${parts.map(quoteLiteral).join('.*')}$`, { dotAll: true }),
		trailingStarOnly: parts.length === 2 && parts[1] === '',
	};
}

/**
 * Does `pattern` match the command form? For `restrict` (deny/ask) an incomplete form
 * matches when the rule might match whatever bash fills in; for `allow` only when the rule's
 * single `*` at the end covers everything unknown.
 */
export function matchCommandRule(
	pattern: string,
	form: CommandForm | string,
	purpose: 'allow' | 'restrict' = 'allow',
): boolean {
	const { text, complete } = typeof form === 'string' ? { text: form, complete: true } : form;
	const rule = compileCommandPattern(pattern);
	if (complete) {
		return rule.regex.test(text);
	}
	if (purpose === 'allow') {
		return rule.trailingStarOnly && text.startsWith(rule.prefix);
	}
	return text.startsWith(rule.prefix) || rule.prefix.startsWith(text);
}
