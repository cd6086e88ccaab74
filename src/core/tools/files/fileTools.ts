import * as z from 'zod';
import { defineTool, fail, ok, type Preparation, type ToolContext, type ToolDefinition } from '../defineTool';
import { displayPath, type ResolvedPath } from '../../gate/paths/paths';
import { rgListFiles } from '../search/ripgrep';
import { globForFolder, multiRootFolders, searchRoots } from '../../gate/paths/workspaceFolders';
import { hiddenNote, searchFilter } from '../search/searchTools';
import { guardFor, type ToolDeps } from '../toolDeps';

export { PathRefused } from '../../gate/paths/paths';

const DEFAULT_LINE_LIMIT = 400;
const MAX_LINE_LENGTH = 2000;
/** Above this a file is not loaded at all: the model is pointed at grep instead. */
export const HUGE_FILE_BYTES = 20 * 1024 * 1024;

const pathSubject = (...paths: Array<string | undefined>) => [
	{ kind: 'path' as const, values: paths.filter((p): p is string => p !== undefined) },
];

function resolvedFor(target: ResolvedPath): Preparation {
	return { canonicalPaths: [target.canonical], data: target };
}

/** The path as approved, re-resolved: refused if it now leads elsewhere. */
async function confirmed(
	deps: ToolDeps,
	context: ToolContext,
	input: string,
	intent: 'read' | 'list',
): Promise<ResolvedPath> {
	const guard = guardFor(deps, context);
	const approved = context.prepared?.data as ResolvedPath | undefined;
	return approved ? guard.confirm(approved, intent) : guard.resolve(input, intent);
}

/** rg's file list over each folder's root, in folder order, prefixed with the folder's name; one page of `max` over all. */
async function listEveryRoot(
	roots: Array<{ prefix: string; root: string; folder: string }>,
	names: string[],
	list: (cwd: string, glob: string, max: number) => Promise<{ files: string[]; hasMore: boolean }>,
	glob: string,
	max: number,
): Promise<{ files: string[]; hasMore: boolean }> {
	const files: string[] = [];
	let hasMore = false;
	for (const { prefix, root, folder } of roots) {
		const own = folder ? globForFolder(glob, folder, names) : glob;
		if (own === undefined) {
			continue;
		}
		if (files.length >= max) {
			hasMore = true;
			break;
		}
		const part = await list(root, own, max - files.length);
		files.push(...part.files.map(file => prefix + file));
		hasMore ||= part.hasMore;
	}
	return { files, hasMore };
}

/** read_file, list_directory, find_path: the read-only file tools. */
export function createReadTools(deps: ToolDeps): ToolDefinition<any>[] {
	const readFile = defineTool({
		name: 'read_file',
		description:
			'Read a text file of the workspace. Returns numbered lines; use offset/limit to page through long files.',
		input: z.object({
			path: z.string().describe('Workspace-relative path, e.g. "src/app.ts"'),
			offset: z.number().int().min(1).optional().describe('First line to return (1-based)'),
			limit: z
				.number()
				.int()
				.min(1)
				.max(5000)
				.optional()
				.describe(`Number of lines (default ${DEFAULT_LINE_LIMIT})`),
		}),
		effect: 'read',
		subjects: input => pathSubject(input.path),
		describe: input => {
			const range =
				input.offset || input.limit
					? ` (lines ${input.offset ?? 1}–${(input.offset ?? 1) + (input.limit ?? DEFAULT_LINE_LIMIT) - 1})`
					: '';
			return `Read ${input.path}${range}`;
		},
		// Resolved before the decision so path rules also see where a symlink really leads.
		prepare: async (input, context) => resolvedFor(await guardFor(deps, context).resolve(input.path, 'read')),
		async execute(input, context) {
			const { path } = await confirmed(deps, context, input.path, 'read');
			const stat = await context.workspace.stat(path);
			if (!stat) {
				return fail(
					`File not found: ${displayPath(path)}. List the folder or search with find_path to get the right path.`,
				);
			}
			if (stat.type === 'directory') {
				return fail(`${displayPath(path)} is a directory. Use list_directory to see its entries.`);
			}
			if (stat.size > HUGE_FILE_BYTES) {
				return fail(
					`${displayPath(path)} is ${(stat.size / 1048576).toFixed(0)} MB, too large to read. Search it with grep (path filter "${path}") to find the lines you need.`,
					{ size: stat.size },
				);
			}
			const bytes = await context.workspace.readFile(path);
			if (bytes.subarray(0, 8192).includes(0)) {
				return ok(`${displayPath(path)} is a binary file (${bytes.length} bytes); its content is not shown.`, {
					binary: true,
					count: 0,
				});
			}
			const lines = Buffer.from(bytes).toString('utf8').split(/\r?\n/);
			const start = (input.offset ?? 1) - 1;
			const limit = input.limit ?? DEFAULT_LINE_LIMIT;
			if (start >= lines.length && lines.length > 0) {
				return fail(`${displayPath(path)} has ${lines.length} lines; offset ${input.offset} is past the end.`);
			}
			const slice = lines.slice(start, start + limit);
			const width = String(start + slice.length).length;
			const body = slice
				.map(
					(line, i) =>
						`${String(start + i + 1).padStart(width)}  ${line.length > MAX_LINE_LENGTH ? `${line.slice(0, MAX_LINE_LENGTH)}… [line cut]` : line}`,
				)
				.join('\n');
			const hasMore = start + slice.length < lines.length;
			const footer = hasMore
				? `\n[${lines.length - start - slice.length} more lines; call again with offset ${start + slice.length + 1}]`
				: '';
			return ok(body + footer, { count: slice.length, hasMore, totalLines: lines.length });
		},
	});

	const listDirectory = defineTool({
		name: 'list_directory',
		description: 'List the entries of a workspace folder. Folders end with "/", symlinks with "@" (not followed).',
		input: z.object({ path: z.string().default('.').describe('Workspace-relative folder; "." is the root') }),
		effect: 'read',
		subjects: input => pathSubject(input.path),
		describe: input => `List ${input.path ?? '.'}`,
		prepare: async (input, context) => resolvedFor(await guardFor(deps, context).resolve(input.path, 'list')),
		async execute(input, context) {
			const { path, canonical } = await confirmed(deps, context, input.path, 'list');
			const stat = await context.workspace.stat(path);
			if (!stat) {
				return fail(`Folder not found: ${displayPath(path)}.`);
			}
			if (stat.type !== 'directory') {
				return fail(`${displayPath(path)} is a file, not a folder. Use read_file to read it.`);
			}
			// Like a search, a listing never names what read_file refuses by name or a deny rule covers,
			// judged on the name shown and on where the folder really is (a link to a denied folder).
			const shown = searchFilter(deps, 'list_directory', context);
			const under = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);
			const all = await context.workspace.readDirectory(path);
			const entries = all.filter(([name]) => shown(under(path, name)) && shown(under(canonical, name)));
			entries.sort(
				(a, b) => (a[1] === 'directory' ? 0 : 1) - (b[1] === 'directory' ? 0 : 1) || a[0].localeCompare(b[0]),
			);
			const suffix = { directory: '/', symlink: '@', file: '', unknown: '' } as const;
			const hidden = all.length - entries.length;
			const note = hidden
				? `${entries.length ? '\n' : ''}[${hidden} entr${hidden === 1 ? 'y' : 'ies'} not shown: the deny list or a deny rule covers them]`
				: '';
			const listing = entries.map(([name, type]) => `${name}${suffix[type]}`).join('\n');
			return ok((entries.length === 0 && !hidden ? `${displayPath(path)} is empty.` : listing) + note, {
				count: entries.length,
			});
		},
	});

	const findPath = defineTool({
		name: 'find_path',
		description:
			'Find workspace files whose path matches a glob, e.g. "**/*.ts" or "src/**/test*". Honours .gitignore and files.exclude.',
		input: z.object({
			glob: z.string().min(1).describe('Glob relative to the workspace root'),
			maxResults: z.number().int().min(1).max(1000).default(200),
		}),
		effect: 'read',
		describe: input => `Find files matching ${input.glob}`,
		async execute(input, context) {
			const { workspace, signal } = context;
			if (
				input.glob.includes('..') ||
				input.glob.startsWith('/') ||
				input.glob.startsWith('~') ||
				input.glob.includes('\0') ||
				/^[a-zA-Z]:/.test(input.glob)
			) {
				return fail('The glob must stay inside the workspace: no "..", no absolute paths.');
			}
			const rg = deps.rgPath();
			const roots = await searchRoots(workspace);
			const names = (multiRootFolders(workspace) ?? []).map(f => f.name);
			let found: { files: string[]; hasMore: boolean } | undefined;
			// Every folder of a multi-root workspace; a folder off the local disk sends the whole search to the editor's findFiles.
			if (rg && roots.length > 0 && roots.length === Math.max(1, names.length)) {
				found = await listEveryRoot(
					roots,
					names,
					async (cwd, glob, max) => rgListFiles({ rg, cwd, glob, excludes: deps.excludes(), max, signal }),
					input.glob,
					input.maxResults,
				).catch(() => undefined);
			}
			if (!found) {
				const files = await workspace.findFiles(input.glob, input.maxResults + 1, signal);
				found = { files: files.slice(0, input.maxResults).sort(), hasMore: files.length > input.maxResults };
			}
			// Names too: nothing deny-read or under a deny rule for this tool or for every tool.
			const shown = searchFilter(deps, 'find_path', context);
			const listed = found.files.length;
			found.files = found.files.filter(shown);
			const note = hiddenNote(listed - found.files.length);
			if (found.files.length === 0) {
				return ok(`No files match ${input.glob}.${note}`, { count: 0 });
			}
			return ok(
				found.files.join('\n') +
					(found.hasMore ? `\n[more than ${input.maxResults} matches; narrow the glob]` : '') +
					note,
				{ count: found.files.length, hasMore: found.hasMore },
			);
		},
	});

	return [readFile, listDirectory, findPath];
}
