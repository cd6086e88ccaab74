/**
 * Command-aware output filters, kept as the entry point commands use: the rules are data
 * (src/core/filters/builtinRules.ts, plus the user's and workspace's rule files) and the
 * engine that applies them lives in src/core/filters/engine.ts.
 */
import { FilterEngine } from '../filters/engine';
import type { FilterResult } from '../filters/types';

export { stripAnsi } from '../filters/sanitize';
export type FilteredOutput = FilterResult;

let builtIn: FilterEngine | undefined;

/** The built-in rules only; the toolset applies the configured engine (toolSystemConfig.ts). */
export function filterOutput(command: string, raw: string): FilteredOutput {
	builtIn ??= new FilterEngine();
	return builtIn.apply(command, raw);
}
