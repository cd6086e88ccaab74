/** Compiled once per pattern: rules are data, applied to every command's output. */
/** Long lines are matched on their start only: a pathological line must not stall a pattern. */
const MATCH_PREFIX = 4096;
const compiled = new Map<string, RegExp>();

export function re(pattern: string, flags = ''): RegExp {
	const key = `${flags}/${pattern}`;
	let found = compiled.get(key);
	if (!found) {
		found = new RegExp(pattern, flags);
		compiled.set(key, found);
	}
	return found;
}

export function anyMatch(patterns: readonly string[], line: string): boolean {
	const head = line.length > MATCH_PREFIX ? line.slice(0, MATCH_PREFIX) : line;
	return patterns.some(p => re(p).test(head));
}
