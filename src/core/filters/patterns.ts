/**
 * Filter patterns (built-in and from rule files) run on the linear-time engine: a rule file
 * comes from the user or the workspace, and a pattern such as `(a+)+$` must cost no more on a
 * long line than any other. Compiled once per pattern (linearRegex.ts caches).
 */
import { linearRegex, type LinearRegex } from '../patterns/linearRegex';

/** Long lines are matched on their start only: the output is shaped, not searched. */
const MATCH_PREFIX = 4096;

export function re(pattern: string): LinearRegex {
	return linearRegex(pattern);
}

export function anyMatch(patterns: readonly string[], line: string): boolean {
	const head = line.length > MATCH_PREFIX ? line.slice(0, MATCH_PREFIX) : line;
	return patterns.some(p => re(p).test(head));
}
