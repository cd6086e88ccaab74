// Prefill figures for a series of prompts sent to one server in order: what a server that
// keeps the previous request's KV cache prefills for each (everything after the longest
// common prefix), what pure appending would have needed, and where each break happened.

export interface PrefixBreak {
	/** 1-based request number in the series. */
	request: number;
	/** Share of the previous request kept as the common prefix. */
	kept: number;
	/** Which part of the prompt changed first, and how. */
	where: string;
}

export interface SeriesFigures {
	requests: number;
	/** Tokens the server prefilled over the series. */
	prefilled: number;
	/** Tokens pure appending would have needed: the first prompt, then each one's growth. */
	appended: number;
	breaks: PrefixBreak[];
}

/** Tokens a boundary may re-tokenise differently without any change of content. */
const SLACK = 2;

export function measureSeries(prompts: readonly string[], encode: (text: string) => number[]): SeriesFigures {
	const tokens = prompts.map(encode);
	const figures: SeriesFigures = { requests: prompts.length, prefilled: 0, appended: 0, breaks: [] };
	tokens.forEach((current, i) => {
		if (i === 0) {
			figures.prefilled += current.length;
			figures.appended += current.length;
			return;
		}
		const previous = tokens[i - 1];
		const common = commonPrefix(previous, current);
		figures.prefilled += current.length - common;
		figures.appended += Math.max(0, current.length - previous.length);
		if (common < previous.length - SLACK) {
			figures.breaks.push({
				request: i + 1,
				kept: common / previous.length,
				where: describeDivergence(prompts[i - 1], prompts[i]),
			});
		}
	});
	return figures;
}

function commonPrefix(a: readonly number[], b: readonly number[]): number {
	const n = Math.min(a.length, b.length);
	let i = 0;
	while (i < n && a[i] === b[i]) i++;
	return i;
}

/** "message 7 (tool)": the chat-template block where two prompts first differ, and a glimpse of both sides. */
export function describeDivergence(before: string, after: string): string {
	let at = 0;
	const n = Math.min(before.length, after.length);
	while (at < n && before[at] === after[at]) at++;
	const starts = [...before.matchAll(/<\|im_start\|>/g)].map(m => m.index + m[0].length);
	const block = starts.filter(start => start <= at).length;
	const role = /^(\w+)/.exec(before.slice(starts[Math.max(0, block - 1)] ?? 0))?.[1] ?? '?';
	const toolsEnd = before.indexOf('\n</tools>');
	let part = block <= 1 ? 'system prompt' : `message ${block - 1} (${role})`;
	if (block === 1 && toolsEnd > 0 && at <= toolsEnd && before.indexOf('<tools>\n') < at) {
		const name = /"name": "([^"]+)"/.exec(before.slice(before.lastIndexOf('\n', at)))?.[1];
		part = `tools${name ? ` near ${name}` : ''}`;
	}
	const glimpse = (s: string) => JSON.stringify(s.slice(at, at + 28));
	return `${part}: ${glimpse(before)} → ${glimpse(after)}`;
}
