/** grep (ripgrep: regex, case, path filter, context, capped and paginated), diagnostics, read_output. */
import * as z from 'zod';
import { defineTool, fail, ok, type ToolContext, type ToolDefinition } from '../defineTool';
import { denyReadRgGlobs } from '../../gate/paths/pathPolicy';
import { isForeignHardLink, normalizeWorkspacePath } from '../../gate/paths/paths';
import { rgSearch, type SearchLine, type SearchOptions, type SearchResult } from './ripgrep';
import { globForFolder, multiRootFolders, searchRoots } from '../../gate/paths/workspaceFolders';
import { gateOf, type ToolDeps } from '../toolDeps';

function formatLines(lines: SearchLine[]): string {
	const out: string[] = [];
	let file = '';
	let last = -1;
	for (const line of lines) {
		if (line.path !== file) {
			out.push(out.length ? `\n${line.path}` : line.path);
			file = line.path;
		} else if (last !== -1 && line.line > last + 1) {
			out.push('  --');
		}
		out.push(`  ${line.line}${line.match ? ':' : '-'} ${line.text}`);
		last = line.line;
	}
	return out.join('\n');
}

type Search = (cwd: string, include: string | undefined, offset: number, limit: number) => Promise<SearchResult>;

/** Said when a search left files out, so the model does not look for them again; never their names. */
export function hiddenNote(count: number): string {
	return count > 0
		? `\n[${count} file${count === 1 ? '' : 's'} not shown: the deny list, a deny rule or a hard link keeps ${count === 1 ? 'it' : 'them'} from the agent]`
		: '';
}

/**
 * What a search may show: nothing read_file would refuse by name (deny-read, with the tools'
 * own case-folding, braces and extglobs, where ripgrep's globs differ) and nothing a deny rule
 * for this tool or for every tool covers (for grep, which shows lines, also one for read_file).
 * The rules are the call's own (its session's mode too).
 */
export function searchFilter(deps: ToolDeps, tool: string, context: ToolContext): (path: string) => boolean {
	const gate = gateOf(deps);
	const deniedAs = (path: string, as?: string) =>
		context.recheck?.([{ kind: 'path', values: [path] }], as) === 'deny';
	// grep shows lines, so the call's read_file rules (its session's mode's too) hide a file as well.
	const denied = (path: string) => deniedAs(path) || (tool === 'grep' && deniedAs(path, 'read_file'));
	const seen = new Map<string, boolean>();
	return path => {
		let shown = seen.get(path);
		if (shown === undefined) {
			shown = gate.hiddenFromSearch(path, tool, denied, tool === 'grep') === undefined;
			seen.set(path, shown);
		}
		return shown;
	};
}

/**
 * One page of matches over every folder, in folder order, paths prefixed with the folder's
 * name: the offset skips whole folders by their match counts, the page fills across them.
 */
async function searchEveryRoot(
	roots: Array<{ prefix: string; root: string; folder: string }>,
	names: string[],
	path: SearchOptions['include'],
	offset: number,
	limit: number,
	search: Search,
): Promise<SearchResult> {
	const out: SearchResult = { lines: [], matches: 0, hasMore: false, seen: 0 };
	let skip = offset;
	for (const { prefix, root, folder } of roots) {
		const include = path === undefined || !folder ? path : globForFolder(path, folder, names);
		if (path !== undefined && include === undefined) {
			continue;
		}
		const left = limit - out.matches;
		// A full page only needs to know whether anything follows: rg stops at the first match.
		const part = await search(root, include, left > 0 ? skip : 0, Math.max(0, left));
		if (part.error) {
			return { ...out, error: part.error };
		}
		if (left <= 0) {
			out.hasMore ||= part.seen > 0;
			if (out.hasMore) break;
			continue;
		}
		out.lines.push(...part.lines.map(line => ({ ...line, path: prefix + line.path })));
		out.matches += part.matches;
		out.hasMore = part.hasMore;
		skip = Math.max(0, skip - part.seen);
	}
	return out;
}

export function createSearchTools(deps: ToolDeps): ToolDefinition<any>[] {
	const grep = defineTool({
		name: 'grep',
		description:
			'Search file contents in the workspace with ripgrep (Rust regex syntax). Honours .gitignore and files.exclude. Results are paged: pass offset to get the next page.',
		input: z.object({
			pattern: z.string().min(1).describe('Regular expression (or literal text with fixed: true)'),
			fixed: z.boolean().optional().describe('Treat pattern as literal text'),
			caseSensitive: z
				.boolean()
				.optional()
				.describe('Default: smart case (sensitive only if the pattern has capitals)'),
			path: z.string().optional().describe('Glob restricting which files are searched, e.g. "src/**/*.ts"'),
			context: z.number().int().min(0).max(10).default(0).describe('Lines of context around each match'),
			offset: z.number().int().min(0).default(0).describe('Matches to skip (for the next page)'),
			limit: z.number().int().min(1).max(500).default(100).describe('Matches per page'),
		}),
		effect: 'read',
		subjects: input => (input.path ? [{ kind: 'path', values: [input.path] }] : []),
		describe: input => `Search for ${JSON.stringify(input.pattern)}${input.path ? ` in ${input.path}` : ''}`,
		async execute(input, context) {
			const { workspace, signal } = context;
			const rg = deps.rgPath();
			const roots = await searchRoots(workspace);
			const names = (multiRootFolders(workspace) ?? []).map(f => f.name);
			if (!rg || roots.length === 0 || roots.length < names.length) {
				return fail(
					'grep is not available here (no ripgrep, or the workspace is not on a local disk). Use find_path and read_file instead.',
				);
			}
			if (input.path !== undefined) {
				const checked = normalizeWorkspacePath(input.path.replace(/[*?[\]{}]/g, 'x'));
				if (!checked.ok) {
					return fail(`The path filter must stay inside the workspace: ${checked.message}`);
				}
			}
			const excludes = [...deps.excludes(), ...denyReadRgGlobs(deps.pathPolicy())];
			const search = (cwd: string, include: string | undefined, offset: number, limit: number) =>
				rgSearch({
					rg,
					cwd,
					pattern: input.pattern,
					fixedStrings: input.fixed === true,
					caseSensitive: input.caseSensitive,
					include,
					excludes,
					context: input.context,
					offset,
					limit,
					signal,
				});
			const result = await searchEveryRoot(roots, names, input.path, input.offset, input.limit, search);
			if (result.error) {
				return fail(
					`ripgrep rejected the search: ${result.error.split('\n').slice(-3).join(' ')}. Fix the regex (or pass fixed: true for literal text).`,
				);
			}
			// rg cannot see link counts, nor judge globs as the tools do: drop hard links to elsewhere (paths.ts) and hidden files.
			const shown = searchFilter(deps, 'grep', context);
			const foreign = new Set<string>();
			for (const file of new Set(result.lines.map(l => l.path))) {
				if (!shown(file) || (await isForeignHardLink(workspace, file, 'read'))) {
					foreign.add(file);
				}
			}
			if (foreign.size > 0) {
				result.lines = result.lines.filter(l => !foreign.has(l.path));
				result.matches = result.lines.filter(l => l.match).length;
			}
			const note = hiddenNote(foreign.size);
			if (result.matches === 0) {
				return ok(
					(input.offset > 0
						? `No more matches after ${input.offset}.`
						: `No matches for ${JSON.stringify(input.pattern)}${input.path ? ` in ${input.path}` : ''}.`) +
						note,
					{ count: 0 },
				);
			}
			const next = result.hasMore
				? `\n\n[more matches; call again with offset ${input.offset + result.matches}]`
				: '';
			return ok(formatLines(result.lines) + next + note, { count: result.matches, hasMore: result.hasMore });
		},
	});

	const diagnostics = defineTool({
		name: 'diagnostics',
		description:
			"VS Code's problems (errors, warnings) for one file or the whole workspace, as reported by the language servers.",
		input: z.object({
			path: z.string().optional().describe('Workspace-relative file; omit for the whole workspace'),
			severity: z.enum(['error', 'warning', 'all']).default('all'),
		}),
		effect: 'read',
		subjects: input => (input.path ? [{ kind: 'path', values: [input.path] }] : []),
		describe: input => `Problems in ${input.path ?? 'the workspace'}`,
		async execute(input) {
			if (!deps.diagnostics) {
				return fail('Diagnostics come from VS Code language servers and are not available here.');
			}
			let path: string | undefined;
			if (input.path !== undefined) {
				const checked = normalizeWorkspacePath(input.path);
				if (!checked.ok) {
					return fail(checked.message);
				}
				path = checked.path;
			}
			const all = deps.diagnostics
				.get(path)
				.filter(d => input.severity === 'all' || d.severity === input.severity);
			if (all.length === 0) {
				return ok(
					`No ${input.severity === 'all' ? 'problems' : `${input.severity}s`} in ${path ?? 'the workspace'}.`,
					{ count: 0 },
				);
			}
			const shown = all.slice(0, 200);
			const text = shown
				.map(
					d =>
						`${d.path}:${d.line}:${d.column} ${d.severity}: ${d.message}${d.source ? ` [${d.source}${d.code ? ` ${d.code}` : ''}]` : ''}`,
				)
				.join('\n');
			return ok(text + (all.length > shown.length ? `\n[${all.length - shown.length} more]` : ''), {
				count: all.length,
				hasMore: all.length > shown.length,
				items: shown,
			});
		},
	});

	const readOutput = defineTool({
		name: 'read_output',
		description:
			'Page through a long tool output that was cut for you. Pass the reference from the cut output (out_…) and a line offset.',
		input: z.object({
			ref: z.string().regex(/^out_[A-Za-z0-9_-]+$/),
			offset: z.number().int().min(1).default(1).describe('First line (1-based)'),
			limit: z.number().int().min(1).max(2000).default(400),
		}),
		effect: 'read',
		describe: input => `Read stored output ${input.ref} from line ${input.offset}`,
		async execute(input, { sessionId }) {
			const text = await deps.outputs.get(sessionId ?? '', input.ref);
			if (text === undefined) {
				return fail(`No stored output ${input.ref} in this session.`);
			}
			const lines = text.split('\n');
			const slice = lines.slice(input.offset - 1, input.offset - 1 + input.limit);
			const end = input.offset - 1 + slice.length;
			return ok(
				slice.join('\n') +
					(end < lines.length
						? `\n[lines ${input.offset}–${end} of ${lines.length}; call again with offset ${end + 1}]`
						: ''),
				{ count: slice.length, hasMore: end < lines.length },
			);
		},
	});
	return [grep, diagnostics, readOutput];
}
