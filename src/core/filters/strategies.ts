import { groupByRule } from './groupByRule';
import { gitDiff, gitStatus } from './gitStrategies';
import { testSummary } from './testSummary';
import { anyMatch } from './patterns';
import type { StageResult, Strategy } from './types';

export function applyStrategy(strategy: Strategy, lines: string[]): StageResult {
	switch (strategy.type) {
		case 'strip_noise': {
			const kept = lines.filter(l => !anyMatch(strategy.patterns, l));
			return { lines: kept, confidence: kept.length < lines.length ? 'full' : 'fallback' };
		}
		case 'keep_matching': {
			const kept = lines.filter(l => anyMatch(strategy.patterns, l));
			return kept.length === 0 ? { lines, confidence: 'fallback' } : { lines: kept, confidence: 'full' };
		}
		case 'strip_annotated':
			return stripAnnotated(lines, strategy.prefixes);
		case 'truncate':
			return truncate(
				lines,
				strategy.maxLines ?? 40,
				strategy.head ?? 20,
				strategy.tail ?? 20,
				strategy.keep ?? [],
			);
		case 'test_summary':
			return testSummary(lines, strategy);
		case 'group_by_rule':
			return groupByRule(lines, strategy);
		case 'git_status':
			return gitStatus(lines);
		case 'git_diff':
			return gitDiff(lines, strategy.maxDiffLines ?? 500);
		case 'dedup':
			return dedup(lines);
	}
}

function stripAnnotated(lines: string[], prefixes: string[]): StageResult {
	const out: string[] = [];
	let skipping = -1;
	for (const line of lines) {
		const indent = line.length - line.trimStart().length;
		const body = line.trimStart().replace(/^[|=]\s*/, '');
		if (prefixes.some(p => body.startsWith(p))) {
			skipping = indent;
			continue;
		}
		// Continuation lines of an annotation are indented deeper than it.
		if (skipping >= 0 && indent > skipping && line.trim() !== '' && !/^\s*[|=]/.test(line)) {
			continue;
		}
		skipping = -1;
		out.push(line);
	}
	return { lines: out, confidence: out.length < lines.length ? 'full' : 'fallback' };
}

export function truncate(lines: string[], maxLines: number, head: number, tail: number, keep: string[]): StageResult {
	if (lines.length <= maxLines) {
		return { lines, confidence: 'full' };
	}
	const middle = lines.slice(head, lines.length - tail);
	const kept = keep.length ? middle.filter(l => anyMatch(keep, l)) : [];
	const omitted = middle.length - kept.length;
	const marker = `[… ${omitted} lines omitted${kept.length ? `; ${kept.length} matching lines kept` : ''} …]`;
	return {
		lines: [...lines.slice(0, head), marker, ...kept, ...lines.slice(lines.length - tail)],
		confidence: 'partial',
	};
}

/** Timestamps, UUIDs, long hex ids, IPs:ports and durations differ between otherwise equal log lines. */
const VOLATILE: RegExp[] = [
	/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g,
	/\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} \d{2}:\d{2}:\d{2}\b/g,
	/\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g,
	/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
	/\b[0-9a-f]{12,}\b/gi,
	/\b\d+(?:\.\d+)?\s?(?:ms|s|µs|us|ns)\b/g,
	/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g,
	/\b(?:pid|id|req(?:uest)?[-_]?id)[=:]\s*\S+/gi,
];

export function normaliseVolatile(line: string): string {
	return VOLATILE.reduce((text, pattern) => text.replace(pattern, '∗'), line);
}

function dedup(lines: string[]): StageResult {
	const out: string[] = [];
	for (let i = 0; i < lines.length;) {
		const key = normaliseVolatile(lines[i]);
		let j = i + 1;
		while (j < lines.length && normaliseVolatile(lines[j]) === key) {
			j++;
		}
		out.push(lines[i]);
		if (j - i > 2) {
			out.push(`[… repeated ${j - i - 1} more times (timestamps and ids differ)]`);
		} else if (j - i === 2) {
			out.push(lines[i + 1]);
		}
		i = j;
	}
	return { lines: out, confidence: out.length < lines.length ? 'full' : 'fallback' };
}
