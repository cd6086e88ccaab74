/**
 * The stage every command's output goes through, matched by a rule or not: ANSI colours,
 * carriage-return redraws and progress bars are for eyes, not for models; repeated
 * identical lines and runs of blank lines carry nothing new.
 */

import { stripAnsi, trimTrailingNewlines } from '../util/ansi';

export { stripAnsi };
const PROGRESS =
	/^\s*(?:[|/\\-]\s*$|\[?[#=>.\- ]{5,}\]?\s*\d{1,3}(?:\.\d+)?%|\d{1,3}(?:\.\d+)?%\s*[|[#=])|(?:^|\s)\d+(?:\.\d+)?\s*[kMG]?i?B\s*\/\s*\d+(?:\.\d+)?\s*[kMG]?i?B|^\s*[━█▇▆▅▄▃▂▁░▒▓]{5,}/;

/** A terminal's data stream as plain text: escapes gone (shell integration's OSC 633 marks too), bare carriage returns dropped, CRLF as LF. */
export function terminalText(data: string): string {
	return stripAnsi(data)
		.replace(/\r(?!\n)/g, '')
		.replace(/\r\n/g, '\n');
}

/** Carriage-return redraws: keep only what the line finally showed. */
function resolveCarriageReturns(line: string): string {
	const parts = line.split('\r').filter(p => p !== '');
	return parts.length ? parts[parts.length - 1] : '';
}

export function collapseRepeats(lines: string[]): string[] {
	const out: string[] = [];
	for (let i = 0; i < lines.length;) {
		let j = i + 1;
		while (j < lines.length && lines[j] === lines[i]) {
			j++;
		}
		out.push(lines[i]);
		if (lines[i].trim() === '') {
			// A run of blank lines becomes one.
		} else if (j - i > 2) {
			out.push(`[previous line repeated ${j - i - 1} more times]`);
		} else if (j - i === 2) {
			out.push(lines[i]);
		}
		i = j;
	}
	return out;
}

export interface Sanitized {
	lines: string[];
	applied: string[];
}

export function sanitize(raw: string): Sanitized {
	const applied: string[] = [];
	const text = stripAnsi(raw);
	if (text !== raw) {
		applied.push('ansi');
	}
	let lines = trimTrailingNewlines(text).split('\n').map(resolveCarriageReturns);
	const noProgress = lines.filter(l => !PROGRESS.test(l));
	if (noProgress.length !== lines.length) {
		applied.push('progress');
		lines = noProgress;
	}
	const collapsed = collapseRepeats(lines);
	if (collapsed.length !== lines.length) {
		applied.push('repeats');
		lines = collapsed;
	}
	return { lines, applied };
}
