import { linearRegex, type LinearRegex } from '../patterns/linearRegex';
import type { RuleMatch } from './types';

/**
 * Models write compound lines such as `cd /repo && cargo test 2>&1 | tail -80`. What decides
 * the filter is the last command of the chain, without its pipes and redirections: here
 * `cargo test`. Quotes are respected so `echo "a && b"` stays one command.
 */
export function commandForMatching(line: string): string {
	const segments = splitOutsideQuotes(line.trim(), /^(?:&&|\|\||;|\n)/);
	let last = segments.filter(s => s.trim() !== '').pop() ?? '';
	// Trailing pipes: `cargo test | tail -80` is still cargo test's output.
	last = splitOutsideQuotes(last, /^\|(?!\|)/)[0] ?? last;
	// Redirections: `2>&1`, `> out.txt`, `&>/dev/null`, `< in`.
	last = last.replace(/\s+(?:\d*>>?|&>>?|<)\s*&?\S+/g, '');
	// Environment assignments and wrappers do not change what runs.
	last = last.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, '');
	last = last.replace(/^(?:time|sudo|env|command|exec|nice)\s+/, '');
	return last.replace(/\s+/g, ' ').trim();
}

function splitOutsideQuotes(text: string, separator: RegExp): string[] {
	const parts: string[] = [];
	let quote: string | undefined;
	let start = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quote) {
			if (c === '\\' && quote === '"') {
				i++;
			} else if (c === quote) {
				quote = undefined;
			}
			continue;
		}
		if (c === '"' || c === "'") {
			quote = c;
			continue;
		}
		if (c === '\\') {
			i++;
			continue;
		}
		const m = separator.exec(text.slice(i, i + 2));
		if (m) {
			parts.push(text.slice(start, i));
			i += m[0].length - 1;
			start = i + 1;
		}
	}
	parts.push(text.slice(start));
	return parts;
}

/** Package runners in front of a tool (`npx tsc`, `pnpm exec jest`) match as the tool itself. */
export function withoutRunner(command: string): string {
	return command.replace(
		/^(?:npx|bunx|pnpx|(?:npm|pnpm|yarn) exec|(?:pnpm|yarn) dlx|python3? -m|uv run|poetry run)\s+(?:--\S+\s+)*/,
		'',
	);
}

export function matchesCommand(match: RuleMatch, command: string, compiled?: LinearRegex): boolean {
	const candidates = [command, withoutRunner(command)];
	if ('exact' in match) {
		return candidates.includes(match.exact);
	}
	if ('prefix' in match) {
		// On a word boundary: `make` matches `make -j4`, not `makepkg`.
		const p = match.prefix;
		return candidates.some(
			c => c.startsWith(p) && (c.length === p.length || /\W$/.test(p) || /\s/.test(c[p.length])),
		);
	}
	const re = compiled ?? linearRegex(match.regex);
	return candidates.some(c => re.test(c));
}
