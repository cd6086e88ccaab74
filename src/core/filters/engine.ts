import { BUILTIN_RULES } from './builtinRules';
import { commandForMatching, matchesCommand } from './commandMatch';
import { re } from './patterns';
import type { RuleEntry } from './ruleFile';
import { sanitize } from './sanitize';
import { applyStrategy } from './strategies';
import { worst, type FilterConfidence, type FilterResult, type FilterRule } from './types';
import { trimTrailingNewlines } from '../util/ansi';

export interface FilterSettings {
	/** Master switch (keel.filters.enabled). Off: output reaches the model as the command printed it. */
	enabled: boolean;
	/** Rule names switched off (keel.filters.disabledRules). */
	disabledRules: readonly string[];
}

export const defaultFilterSettings: FilterSettings = { enabled: true, disabledRules: [] };

/** Rules past this many lines are not applied: the overflow store handles outputs that large. */
const MAX_FILTER_LINES = 200_000;

/**
 * Applies the first matching rule after the sanitising stage. A stage that would leave no
 * text at all is undone (fallback): a filter must never turn output into silence.
 */
export class FilterEngine {
	readonly rules: readonly FilterRule[];

	/** `layers`: rule-file entries, most specific first (workspace, then user); they override built-ins by name. */
	constructor(
		layers: ReadonlyArray<readonly RuleEntry[]> = [],
		private readonly _settings: FilterSettings = defaultFilterSettings,
	) {
		this.rules = mergeFilterRules(layers, _settings.disabledRules);
	}

	get enabled(): boolean {
		return this._settings.enabled;
	}

	ruleFor(command: string): FilterRule | undefined {
		const target = commandForMatching(command);
		return this.rules.find(rule =>
			matchesCommand(rule.match, target, 'regex' in rule.match ? re(rule.match.regex) : undefined),
		);
	}

	apply(command: string, raw: string): FilterResult {
		const linesBefore = countOutputLines(raw);
		if (!this._settings.enabled) {
			return { text: raw, linesBefore, linesAfter: linesBefore, confidence: 'full', applied: [] };
		}
		const sanitized = sanitize(raw);
		let lines = sanitized.lines;
		const applied = [...sanitized.applied];
		let confidence: FilterConfidence = 'full';
		const rule = this.ruleFor(command);
		if (rule && lines.length >= (rule.minLines ?? 0) && lines.length <= MAX_FILTER_LINES) {
			const before = lines;
			for (const strategy of Array.isArray(rule.strategy) ? rule.strategy : [rule.strategy]) {
				try {
					const stage = applyStrategy(strategy, lines);
					if (hasText(lines) && !hasText(stage.lines)) {
						confidence = worst(confidence, 'fallback');
						continue;
					}
					lines = stage.lines;
					confidence = worst(confidence, stage.confidence);
				} catch {
					confidence = worst(confidence, 'fallback');
				}
			}
			if (lines !== before) {
				applied.push(rule.name);
			}
		}
		const text = trimTrailingNewlines(lines.join('\n'));
		return { text, linesBefore, linesAfter: countOutputLines(text), confidence, rule: rule?.name, applied };
	}
}

function mergeFilterRules(layers: ReadonlyArray<readonly RuleEntry[]>, disabled: readonly string[]): FilterRule[] {
	const off = new Set(disabled);
	const seen = new Set<string>();
	const merged: FilterRule[] = [];
	for (const entry of [...layers.flat(), ...BUILTIN_RULES]) {
		if (seen.has(entry.name)) {
			continue;
		}
		seen.add(entry.name);
		if ('toggleOnly' in entry || entry.enabled === false || off.has(entry.name)) {
			continue;
		}
		merged.push(entry);
	}
	return merged;
}

function hasText(lines: readonly string[]): boolean {
	return lines.some(l => l.trim() !== '');
}

export function countOutputLines(text: string): number {
	const trimmed = trimTrailingNewlines(text);
	return trimmed === '' ? 0 : trimmed.split('\n').length;
}

/** The card's and the model's line: "342 → 28 lines (92% filtered, partial)". */
export function describeFilter(result: Pick<FilterResult, 'linesBefore' | 'linesAfter' | 'confidence'>): string {
	const share = result.linesBefore === 0 ? 0 : Math.round((1 - result.linesAfter / result.linesBefore) * 100);
	return `${result.linesBefore} → ${result.linesAfter} lines (${share}% filtered, ${result.confidence})`;
}
