/**
 * Assembles the built-in tools and wraps each one (and any tool passed in, e.g.
 * run_command) with what all outputs need before the model reads them:
 *  - a bound on what is kept of any output (KEPT_OUTPUT_CHARS, head and tail), whatever made it
 *    large (a command, an MCP server, a fetched page): a 200 MB result costs what 8 MB does;
 *  - credential redaction, with a note saying it happened, a slice at a time (the host stays
 *    responsive while a long output is redacted);
 *  - head + tail truncation above a share of the model's context window (toolSystemConfig.ts),
 *    the full text kept in the session's OutputStore behind an opaque reference that
 *    read_output pages through;
 *  - the session's result cache of idempotent calls (resultCache.ts), dropped where a write lands;
 *  - for commands (effect 'exec'), the declarative output filters (src/core/filters), the
 *    unfiltered text kept for read_output and scanned for credentials.
 */
import { describeFilter } from '../filters/engine';
import { credentialWarning, scanForCredentials } from '../filters/securityScan';
import type { ToolContext, ToolDefinition, ToolResult } from './defineTool';
import { createEditTools } from './files/editTools';
import { createReadTools } from './files/fileTools';
import { createPathTools } from './files/pathTools';
import { redactionNote, redactSecretsAsync } from '../gate/redact/redact';
import { createSearchTools } from './search/searchTools';
import type { ToolDeps } from './toolDeps';
import { defaultToolSystemConfig, type ToolSystemConfig } from './toolSystemConfig';
import { coveredPaths, isCacheable, ToolResultCache, writtenPaths } from './resultCache';
import { createWebTools } from './web/webTools';

/** Tools from other sources (MCP, VS Code) pass through the same shaping; the cache never keeps theirs. */
export function createToolset(deps: ToolDeps, extra: ToolDefinition<any>[] = []): ToolDefinition<any>[] {
	return wrapTools(deps, [
		...createReadTools(deps),
		...createEditTools(deps),
		...createPathTools(deps),
		...createSearchTools(deps),
		...createWebTools(deps),
		...extra,
	]);
}

/** The shaping alone, for tools assembled elsewhere. */
export function wrapTools(deps: ToolDeps, tools: ToolDefinition<any>[]): ToolDefinition<any>[] {
	const cache = deps.resultCache ?? new ToolResultCache();
	return tools.map(tool => shapedTool(tool, deps, cache));
}

function config(deps: ToolDeps): ToolSystemConfig {
	return deps.toolSystem?.() ?? defaultToolSystemConfig();
}

function shapedTool(tool: ToolDefinition<any>, deps: ToolDeps, cache: ToolResultCache): ToolDefinition<any> {
	return {
		...tool,
		async execute(input: unknown, context: ToolContext): Promise<ToolResult> {
			const settings = config(deps).cache;
			const session = context.sessionId ?? '';
			const key = settings.enabled && isCacheable(tool) ? cache.key(tool.name, input) : undefined;
			const hit = key ? cache.get(session, key, settings) : undefined;
			if (hit) {
				return { ...hit, cached: true };
			}
			if (tool.effect === 'write' || tool.effect === 'exec') {
				// Before running, not after: a write that fails half-way may still have changed files.
				cache.invalidatePaths(writtenPaths(tool, input));
			}
			let raw = keptOutput(await tool.execute(input, context));
			if (tool.effect === 'exec') {
				raw = await filterCommandOutput(
					raw,
					String((input as { command?: unknown })?.command ?? ''),
					deps,
					context,
				);
			}
			const result = await shapeOutput(raw, deps, context);
			if (key && result.ok) {
				cache.set(session, key, result, coveredPaths(tool, input));
			}
			return result;
		},
	};
}

/**
 * Command output through the filter rules (src/core/filters). The unfiltered text stays
 * readable through read_output, so nothing is lost; the security scan reads the raw text,
 * so a credential on a line a filter dropped is still reported. linesBefore/linesAfter and
 * the confidence drive the card's "342 → 28 lines (92% filtered, partial)".
 */
export async function filterCommandOutput(
	result: ToolResult,
	command: string,
	deps: ToolDeps,
	context: Pick<ToolContext, 'sessionId'>,
): Promise<ToolResult> {
	const settings = config(deps);
	const filtered = settings.filters.apply(command, result.display);
	const credentials = settings.securityScan
		? await scanForCredentials(result.display, settings.securityPatterns)
		: [];
	const warning = credentials.length ? `\n${credentialWarning(credentials)}` : '';
	if (filtered.linesAfter >= filtered.linesBefore && filtered.text === result.display) {
		return warning
			? { ...result, display: result.display + warning, credentialWarnings: credentials.length }
			: result;
	}
	const ref = await deps.outputs.put(context.sessionId ?? '', (await redactSecretsAsync(result.display)).text);
	const rule =
		filtered.rule && filtered.applied.includes(filtered.rule)
			? `rule ${filtered.rule}`
			: filtered.applied.join(', ');
	const note =
		filtered.linesAfter < filtered.linesBefore
			? `\n[Keel filtered this output: ${describeFilter(filtered)}, ${rule}. Unfiltered: read_output {"ref":"${ref}"}]`
			: '';
	return {
		...result,
		display: filtered.text + note + warning,
		linesBefore: filtered.linesBefore,
		linesAfter: filtered.linesAfter,
		filterConfidence: filtered.confidence,
		filterRule: filtered.rule,
		filteredRef: ref,
		...(credentials.length ? { credentialWarnings: credentials.length } : {}),
	};
}

export async function shapeOutput(
	result: ToolResult,
	deps: ToolDeps,
	context: Pick<ToolContext, 'sessionId'>,
): Promise<ToolResult> {
	// Whatever called, nothing past the bound is stored or redacted (an MCP tool shapes its own result).
	result = keptOutput(result);
	const redacted = await redactSecretsAsync(result.display);
	let display = redacted.text;
	const shaped: ToolResult = { ...result };
	const threshold = config(deps).overflowChars;
	if (display.length > threshold) {
		const ref = await deps.outputs.put(context.sessionId ?? '', display);
		// 60% head, 30% tail: the start says what ran, the end how it ended.
		const head = cutAtLine(display.slice(0, Math.floor(threshold * 0.6)), 'end');
		const tail = cutAtLine(display.slice(-Math.floor(threshold * 0.3)), 'start');
		const omitted = display.length - head.length - tail.length;
		let omittedLines = 0;
		for (
			let at = display.indexOf('\n', head.length);
			at !== -1 && at < display.length - tail.length;
			at = display.indexOf('\n', at + 1)
		) {
			omittedLines++;
		}
		display = `${head}\n[… ${omitted} characters (${omittedLines} lines) omitted. Full output stored as ${ref}: call read_output with {"ref":"${ref}","offset":N} to read any part.]\n${tail}`;
		shaped.truncated = true;
		shaped.outputRef = ref;
	}
	if (redacted.hits.length > 0) {
		display += `\n${redactionNote(redacted.hits)}`;
		shaped.redactions = redacted.hits.length;
	}
	shaped.display = display;
	return shaped;
}

/** The most of one output Keel keeps (stored for read_output, redacted, shown in part to the model). */
export const KEPT_OUTPUT_CHARS = 8 * 1024 * 1024;

/** An output past KEPT_OUTPUT_CHARS: its head and tail, and a line saying how much of the middle was dropped. */
export function keptOutput(result: ToolResult): ToolResult {
	const text = result.display;
	if (text.length <= KEPT_OUTPUT_CHARS) {
		return result;
	}
	const half = Math.floor(KEPT_OUTPUT_CHARS / 2);
	const dropped = text.length - 2 * half;
	return {
		...result,
		display: `${text.slice(0, half)}\n[… ${dropped} characters of this output dropped: Keel keeps ${KEPT_OUTPUT_CHARS / (1024 * 1024)} MB of one output, its start and its end …]\n${text.slice(-half)}`,
		truncated: true,
	};
}

function cutAtLine(text: string, keep: 'end' | 'start'): string {
	if (keep === 'end') {
		const at = text.lastIndexOf('\n');
		return at > text.length / 2 ? text.slice(0, at) : text;
	}
	const at = text.indexOf('\n');
	return at !== -1 && at < text.length / 2 ? text.slice(at + 1) : text;
}
