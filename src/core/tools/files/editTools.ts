/**
 * write_file and edit_file. Both compute the new content in `prepare` (before approval) so the
 * card shows the diff; `execute` writes exactly that content, and only if the file is still
 * what the diff was computed from — approval applies what was shown, never a recomputation.
 */
import * as z from 'zod';
import { defineTool, fail, ok, type Preparation, type ToolContext, type ToolDefinition } from '../defineTool';
import { fileDiff, fileDiffAsync, diffStat } from './fileDiff';
import { CallMismatch, displayPath, type ResolvedPath } from '../../gate/paths/paths';
import { guardFor, type ToolDeps } from '../toolDeps';

interface PlannedWrite {
	path: string;
	/** Where the guard resolved it when the card was shown; execute refuses if that changed. */
	resolved: ResolvedPath;
	before: string | undefined;
	after: string;
	/** Lines added and removed, from the diff the card showed (computed once, within its bounds). */
	stat?: { added: number; removed: number };
}

async function currentText(context: ToolContext, path: string): Promise<string | undefined> {
	const stat = await context.workspace.stat(path);
	if (!stat) {
		return undefined;
	}
	if (stat.type === 'directory') {
		throw new CallMismatch(`${displayPath(path)} is a directory; give a file path.`);
	}
	const bytes = await context.workspace.readFile(path);
	if (bytes.subarray(0, 8192).includes(0)) {
		throw new CallMismatch(`${displayPath(path)} is a binary file; it cannot be edited as text.`);
	}
	return Buffer.from(bytes).toString('utf8');
}

async function preparation(plan: PlannedWrite, protectedReason: string | undefined): Promise<Preparation> {
	const diff = await fileDiffAsync(plan.path, plan.before, plan.after);
	plan.stat = diffStat(diff);
	return {
		diffs: [diff],
		protectedReasons: protectedReason ? [`${plan.path}: ${protectedReason}`] : [],
		canonicalPaths: [plan.resolved.canonical],
		data: plan,
	};
}

async function applyPlan(
	deps: ToolDeps,
	context: ToolContext,
	fallback: () => Promise<Preparation>,
): Promise<{ plan: PlannedWrite; stale: boolean }> {
	const prepared = context.prepared ?? (await fallback());
	const plan = prepared.data as PlannedWrite;
	await guardFor(deps, context).confirm(plan.resolved, 'write');
	const now = await currentText(context, plan.path);
	return { plan, stale: now !== plan.before };
}

/** Where `needle` occurs in `haystack`: 1-based line numbers of each start. */
function occurrences(haystack: string, needle: string): number[] {
	const lines: number[] = [];
	for (
		let at = haystack.indexOf(needle);
		at !== -1 && lines.length < 50;
		at = haystack.indexOf(needle, at + Math.max(1, needle.length))
	) {
		lines.push(haystack.slice(0, at).split('\n').length);
	}
	return lines;
}

/** "lines 1, 3" or "lines 1, 2 (2×)". */
function lineList(lines: number[]): string {
	const counts = new Map<number, number>();
	lines.forEach(line => counts.set(line, (counts.get(line) ?? 0) + 1));
	return `line${counts.size === 1 ? '' : 's'} ${[...counts].map(([line, n]) => (n > 1 ? `${line} (${n}×)` : String(line))).join(', ')}`;
}

export function createEditTools(deps: ToolDeps): ToolDefinition<any>[] {
	const writeInput = z.object({
		path: z.string().describe('Workspace-relative file path'),
		content: z.string().describe('The complete new content of the file'),
	});
	const writeFile = defineTool({
		name: 'write_file',
		description:
			'Create a file or replace its whole content. For small changes to an existing file prefer edit_file.',
		input: writeInput,
		effect: 'write',
		subjects: input => [{ kind: 'path', values: [input.path] }],
		describe: input => `Write ${input.path}`,
		async prepare(input, context) {
			const target = await guardFor(deps, context).resolve(input.path, 'write');
			return preparation(
				{
					path: target.path,
					resolved: target,
					before: await currentText(context, target.path),
					after: input.content,
				},
				target.protectedReason,
			);
		},
		async execute(input, context) {
			const { plan, stale } = await applyPlan(deps, context, () => writeFile.prepare!(input, context));
			if (stale) {
				return fail(
					`${displayPath(plan.path)} changed after the diff was shown; nothing was written. Read it again and redo the change.`,
				);
			}
			await context.workspace.writeText(plan.path, plan.after);
			const stat = plan.stat ?? diffStat(fileDiff(plan.path, plan.before, plan.after));
			return ok(
				`${plan.before === undefined ? 'Created' : 'Wrote'} ${displayPath(plan.path)} (+${stat.added} −${stat.removed} lines).`,
				{ count: 1 },
			);
		},
	});

	const editInput = z.object({
		path: z.string().describe('Workspace-relative file path'),
		old_string: z.string().min(1).describe('Exact text to replace, including whitespace; must occur exactly once'),
		new_string: z.string().describe('Replacement text'),
		replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one'),
	});
	const editFile = defineTool({
		name: 'edit_file',
		description:
			'Replace an exact piece of text in a file. old_string must match exactly once (copy it from read_file output without the line numbers) unless replace_all is true.',
		input: editInput,
		effect: 'write',
		subjects: input => [{ kind: 'path', values: [input.path] }],
		describe: input => `Edit ${input.path}`,
		async prepare(input, context) {
			const target = await guardFor(deps, context).resolve(input.path, 'write');
			const before = await currentText(context, target.path);
			if (before === undefined) {
				throw new CallMismatch(`File not found: ${displayPath(target.path)}. Use write_file to create it.`);
			}
			const found = occurrences(before, input.old_string);
			if (found.length === 0) {
				const trimmed = input.old_string.trim();
				const loose = trimmed && trimmed !== input.old_string ? occurrences(before, trimmed) : [];
				const hint =
					loose.length > 0
						? ` The text without its surrounding whitespace occurs at ${lineList(loose)}: check indentation and line breaks.`
						: ' Read the file again and copy the text exactly (without line numbers).';
				throw new CallMismatch(`old_string was not found in ${displayPath(target.path)}.${hint}`);
			}
			if (found.length > 1 && !input.replace_all) {
				throw new CallMismatch(
					`old_string occurs ${found.length} times in ${displayPath(target.path)} (${lineList(found)}). Add surrounding lines to make it unique, or set replace_all.`,
				);
			}
			const after = input.replace_all
				? before.split(input.old_string).join(input.new_string)
				: before.replace(input.old_string, () => input.new_string);
			return preparation({ path: target.path, resolved: target, before, after }, target.protectedReason);
		},
		async execute(input, context) {
			const { plan, stale } = await applyPlan(deps, context, () => editFile.prepare!(input, context));
			if (stale) {
				return fail(
					`${displayPath(plan.path)} changed after the diff was shown; nothing was written. Read it again and redo the edit.`,
				);
			}
			await context.workspace.writeText(plan.path, plan.after);
			const stat = plan.stat ?? diffStat(fileDiff(plan.path, plan.before, plan.after));
			return ok(`Edited ${displayPath(plan.path)} (+${stat.added} −${stat.removed} lines).`, { count: 1 });
		},
	});
	return [writeFile, editFile];
}
