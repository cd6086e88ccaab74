import { anyMatch, re } from './patterns';
import type { StageResult, Strategy } from './types';

type GroupByRule = Extract<Strategy, { type: 'group_by_rule' }>;

interface Group {
	severity: string;
	message: string;
	places: string[];
	/** Instances of one rule with different messages: only the first message is shown. */
	mixed: boolean;
}

/**
 * Linters and type checkers repeat one finding in many places. One line per rule with its
 * places reads the same to a model at a fraction of the tokens. Two shapes:
 *  - line diagnostics (`line` with named groups rule, message, place, severity; an optional
 *    `fileHeader` for formats that print the file once, like ESLint's);
 *  - block diagnostics (`blockStart` with severity and message, then `location` and `rule`
 *    found inside the block, like rustc and clippy).
 * Lines matching `keep` (totals, "could not compile") stay as they are.
 */
export function groupByRule(lines: string[], strategy: GroupByRule): StageResult {
	const groups = new Map<string, Group>();
	const kept: string[] = [];
	const add = (key: string, severity: string, message: string, place: string | undefined) => {
		const group = groups.get(key) ?? { severity, message, places: [], mixed: false };
		group.mixed ||= group.message !== message;
		if (place) {
			group.places.push(place);
		}
		groups.set(key, group);
	};
	if (strategy.blockStart) {
		collectBlocks(lines, strategy, kept, add);
	} else if (strategy.line) {
		const linePatterns = typeof strategy.line === 'string' ? [strategy.line] : strategy.line;
		let file = '';
		for (const line of lines) {
			const header = strategy.fileHeader ? re(strategy.fileHeader).exec(line) : null;
			if (header) {
				file = header.groups?.file ?? line.trim();
				continue;
			}
			const m = linePatterns.map(p => re(p).exec(line)).find(Boolean);
			if (m?.groups) {
				const g = m.groups;
				const place = [g.file ?? file, g.place?.replace(',', ':')].filter(Boolean).join(':');
				add(g.rule ?? g.message ?? 'other', g.severity ?? '', g.message ?? '', place || undefined);
			} else if (strategy.keep && anyMatch(strategy.keep, line)) {
				kept.push(line);
			}
		}
	}
	if (groups.size === 0) {
		return { lines, confidence: 'fallback' };
	}
	const maxPlaces = strategy.maxPlaces ?? 8;
	const out: string[] = [];
	for (const [rule, group] of [...groups].sort((a, b) => b[1].places.length - a[1].places.length)) {
		const shown = group.places.slice(0, maxPlaces).join(', ');
		const more = group.places.length > maxPlaces ? `, … ${group.places.length - maxPlaces} more` : '';
		const label = rule === group.message ? '' : ` [${rule}]`;
		out.push(
			`${group.severity ? `${group.severity}: ` : ''}${group.message}${label} (${Math.max(1, group.places.length)}×)${shown ? `: ${shown}${more}` : ''}`,
		);
	}
	// Grouping dropped the wording of some instances: the model sees the rule, not every message.
	const mixed = [...groups.values()].some(g => g.mixed);
	return { lines: [...out, ...kept], confidence: mixed ? 'partial' : 'full' };
}

function collectBlocks(
	lines: string[],
	strategy: GroupByRule,
	kept: string[],
	add: (key: string, severity: string, message: string, place: string | undefined) => void,
): void {
	let open: { severity: string; message: string; place?: string; rule?: string } | undefined;
	// Compilers name the lint on its first instance only; later ones with the same wording
	// (identifiers aside) belong to the same rule.
	const learned = new Map<string, string>();
	const shape = (message: string) => message.replace(/`[^`]*`|'[^']*'/g, '`…`');
	const close = () => {
		if (open) {
			const rule = open.rule ?? learned.get(shape(open.message));
			if (open.rule) {
				learned.set(shape(open.message), open.rule);
			}
			add(rule ?? open.message, open.severity, open.message, open.place);
		}
		open = undefined;
	};
	for (const line of lines) {
		const start = re(strategy.blockStart!).exec(line);
		if (start?.groups && !(strategy.keep && anyMatch(strategy.keep, line))) {
			close();
			open = {
				severity: start.groups.severity ?? '',
				message: start.groups.message ?? line.trim(),
				rule: start.groups.rule,
			};
			continue;
		}
		if (open) {
			const place = strategy.location ? re(strategy.location).exec(line) : null;
			if (place?.groups?.place && !open.place) {
				open.place = place.groups.place;
			}
			const rule = strategy.rule ? re(strategy.rule).exec(line) : null;
			const name = rule?.groups && Object.values(rule.groups).find(Boolean);
			if (name && !open.rule) {
				open.rule = name.replace(/^clippy::/, '');
			}
			// Code frames, notes and help lines belong to the block until the next one starts.
			if (!(strategy.keep && anyMatch(strategy.keep, line))) {
				continue;
			}
			close();
		}
		if (strategy.keep && anyMatch(strategy.keep, line)) {
			kept.push(line);
		}
	}
	close();
}
