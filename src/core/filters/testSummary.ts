import { anyMatch } from './patterns';
import type { StageResult, Strategy } from './types';

type TestSummary = Extract<Strategy, { type: 'test_summary' }>;

/**
 * A test run the model reads for two things: did it pass, and if not, what failed and where.
 * Passing lines and runner noise go; failures, their stack and the summary stay. With no
 * summary line found the output was not what the rule expected: it is left whole
 * (fallback) rather than risk dropping a failure the patterns do not know.
 */
export function testSummary(lines: string[], strategy: TestSummary): StageResult {
	const hasSummary = lines.some(l => anyMatch(strategy.summary, l));
	if (!hasSummary) {
		return { lines, confidence: 'fallback' };
	}
	const noise = strategy.noise ?? [];
	const kept: string[] = [];
	for (const line of lines) {
		if (anyMatch(strategy.summary, line)) {
			kept.push(line);
		} else if (anyMatch(strategy.passing, line) || anyMatch(noise, line)) {
			continue;
		} else if (line.trim() === '' && (kept.length === 0 || kept[kept.length - 1].trim() === '')) {
			continue;
		} else {
			kept.push(line);
		}
	}
	while (kept.length && kept[kept.length - 1].trim() === '') {
		kept.pop();
	}
	const maxLines = strategy.maxLines ?? 200;
	if (kept.length <= maxLines) {
		return { lines: kept, confidence: 'full' };
	}
	// Very long failure output: the first failures and the summary at the end matter most.
	const head = Math.floor(maxLines * 0.7);
	const tail = maxLines - head;
	const summaryLines = kept.slice(head, kept.length - tail).filter(l => anyMatch(strategy.summary, l));
	return {
		lines: [
			...kept.slice(0, head),
			`[… ${kept.length - head - tail - summaryLines.length} lines of failure output omitted …]`,
			...summaryLines,
			...kept.slice(kept.length - tail),
		],
		confidence: 'partial',
	};
}
