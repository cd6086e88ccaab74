/**
 * Argument values escaped twice: a file body whose line breaks arrive as the two characters
 * `\n` (and its quotes as `\"`), or `\u00e9` left where `é` was meant. Decoded only when the
 * intent is unambiguous:
 * - line breaks: the value has none, every backslash starts a JSON escape, and once decoded no
 *   line splits a string literal (each line's quotes balance). `printf("hi\n");` stays as it is:
 *   its `\n` sits inside a literal, where a language reads it;
 * - unicode: the value's only escapes are `\uXXXX`, and only those outside quotes are decoded.
 */
export function unescapeTwice(args: Record<string, unknown>): { value: Record<string, unknown>; changed: string[] } {
	const changed: string[] = [];
	const walk = (value: unknown, path: string): unknown => {
		if (typeof value === 'string') {
			const decoded = decode(value);
			if (decoded !== value) {
				changed.push(path);
			}
			return decoded;
		}
		if (Array.isArray(value)) {
			return value.map((item, i) => walk(item, `${path}[${i}]`));
		}
		if (value && typeof value === 'object') {
			return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]));
		}
		return value;
	};
	return { value: walk(args, '') as Record<string, unknown>, changed };
}

function decode(value: string): string {
	if (value.includes('\n') || !value.includes('\\')) {
		return value;
	}
	if (/\\[nr]/.test(value)) {
		const decoded = jsonString(value);
		return decoded !== undefined && decoded.includes('\n') && decoded.split('\n').every(balancedLine)
			? decoded
			: value;
	}
	if (/^(?:[^\\]|\\u[0-9a-fA-F]{4})*$/.test(value)) {
		return unicodeOutsideQuotes(value);
	}
	return value;
}

/** The value read as the body of a JSON string; undefined when a backslash starts no JSON escape or a quote is bare. */
function jsonString(value: string): string | undefined {
	try {
		return JSON.parse(`"${value.replace(/\t/g, '\\t')}"`) as string;
	} catch {
		return undefined;
	}
}

/** A line whose quotes pair up (apostrophes inside words and triple quotes aside): it splits no literal. */
function balancedLine(line: string): boolean {
	if (/"""|'''|```/.test(line)) {
		return true;
	}
	const bare = line.replace(/\\./g, '').replace(/(?<=\p{L})'(?=\p{L})/gu, '');
	return [...'"\'`'].every(q => bare.split(q).length % 2 === 1);
}

function unicodeOutsideQuotes(value: string): string {
	let out = '';
	let quote = '';
	for (let i = 0; i < value.length; i++) {
		const c = value[i];
		if (quote) {
			quote = c === quote ? '' : quote;
		} else if (c === '"' || c === '`' || (c === "'" && !/\p{L}/u.test(value[i - 1] ?? ''))) {
			quote = c;
		} else if (value.startsWith('\\u', i)) {
			const run = /^(?:\\u[0-9a-fA-F]{4})+/.exec(value.slice(i))![0];
			out += jsonString(run) ?? run;
			i += run.length - 1;
			continue;
		}
		out += c;
	}
	return out;
}
