/** Small helpers for JSON from outside (a model, a config file): parse without throwing, tell an object apart. */

/** The parsed value, or undefined when `raw` is not JSON. */
export function tryParseJson(raw: string): unknown {
	try {
		return JSON.parse(raw);
	} catch {
		return undefined;
	}
}

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
