/**
 * Every word a command is given may name a file it reads or writes: `cat .env`, `sort -o
 * .git/hooks/pre-commit`, `git diff --output=../x`, `find . -fprint ~/x`, `grep -r key .ssh`.
 * No list of programs can say which words are files, so every argument and assigned value is
 * judged as a path (the whole word, the value after `=`, the rest of a short option such as
 * `-o.git/x`), relative to the cwd and to every folder a `cd` in the line goes to, exactly as
 * the file tools judge paths. A word that names a place outside the workspace, a deny-read file
 * or a folder of them, a protected file, a link out or a hard link makes the line ask. A glob is
 * listed on the disk and each file it can match is judged; a word only bash can resolve
 * (`$VAR`, `$(…)`, `~`, a brace list) may be any file, so it asks too.
 */
import type { Workspace } from '../../ports';
import { linearRegex } from '../../patterns/linearRegex';
import { isDeniedRead, type PathPolicy } from './pathPolicy';
import { PathRefused, type WorkspaceGuard } from './paths';
import { lexicalSegments } from './kernelWalk';
import { multiRootFolders, splitFolderPath, WORKSPACE_MOUNT } from './workspaceFolders';
import type { Operand } from '../../shell/shellWords';

/** Devices every command may name: reading or writing them touches no file of the user's. */
const HARMLESS = /^\/dev\/(?:null|zero|u?random|std(?:in|out|err)|tty|fd\/[0-2])$/;
/** A glob lists at most this many entries before the line asks instead. */
const GLOB_BUDGET = 2000;
/** A walked folder is checked up to this many entries; a larger one asks (it cannot be shown free of secrets). */
const WALK_BUDGET = 20_000;

export interface OperandContext {
	guard: WorkspaceGuard;
	workspace: Workspace;
	policy: PathPolicy;
	/** The cwd, canonical and workspace-relative ('' for the root). */
	cwd: string;
	/** Folders a `cd` in the line goes to (undefined: only bash knows where). */
	directories: Array<string | undefined>;
	/** The line turns on `dotglob` or sets GLOBIGNORE: `*` matches dot files too. */
	dotglob: boolean;
	/**
	 * It runs in the sandbox: the workspace is `/workspace`, HOME a tmpfs, and every other
	 * absolute path the container's own read-only files, none of them the user's.
	 */
	sandbox?: boolean;
}

/** The texts inside one known word that may be a path. */
function pathsInWord(word: string): string[] {
	const out = [word];
	const eq = /^-{0,2}[A-Za-z0-9_.-]+=(.+)$/s.exec(word);
	if (eq) out.push(eq[1]);
	// `-o.git/x` (sort, gcc), bundled after other flags (`-ro.git/x`, `-cvf.envrc`): the value may
	// start after any of the first letters. A one-character rest is a separator (`cut -d/`, `awk -F:`).
	const letters = /^-([A-Za-z0-9]+)/.exec(word)?.[1] ?? '';
	if (!word.startsWith('--')) {
		for (let i = 2; i <= Math.min(letters.length, 6) + 1 && i <= word.length - 2; i++) out.push(word.slice(i));
	}
	// git's `HEAD:.env` and `:0:.env`, scp's `host:file`: the file after the colon (not a URL's `//…`).
	const colon = /^[^:/]*:(?!\/\/)(?:\d:)?(.+)$/s.exec(word);
	if (colon) out.push(colon[1]);
	return out;
}

/** The folders relative words may be resolved in: the cwd, then where each `cd` goes (one after the other). */
function bases(context: OperandContext): { bases: string[]; unknown: boolean } {
	const join = (base: string, dir: string) => (base ? `${base}/${dir}` : dir);
	const out = [context.cwd];
	let current = context.cwd;
	let unknown = false;
	for (const dir of context.directories) {
		if (dir === undefined || dir.startsWith('/') || dir.startsWith('~')) {
			unknown = true;
			continue;
		}
		current = join(current, dir);
		out.push(current, join(context.cwd, dir));
	}
	return { bases: [...new Set(out)], unknown };
}

/** `/workspace/…` in the sandbox: the workspace itself, under its mount path. */
function inSandboxMount(path: string, context: OperandContext): boolean {
	return Boolean(context.sandbox) && (path === WORKSPACE_MOUNT || path.startsWith(`${WORKSPACE_MOUNT}/`));
}

function mountRelative(path: string): string {
	return path.slice(WORKSPACE_MOUNT.length).replace(/^\/+/, '') || '.';
}

/** Why naming `path` (resolved in `base`) must ask, or undefined. */
async function pathConcern(path: string, base: string, context: OperandContext): Promise<string | undefined> {
	if (path === '' || path === '-' || HARMLESS.test(path)) {
		return undefined;
	}
	if (inSandboxMount(path, context)) {
		return pathConcern(mountRelative(path), '', context);
	}
	if (path.startsWith('/') || path.startsWith('~')) {
		return context.sandbox ? undefined : 'outside the workspace';
	}
	// Every other word is judged as the name the kernel would open: no word is "not a path" for
	// its looks (a URL, `%20`, a backslash, `${x}` in quotes are names of folders that may exist).
	const full = base ? `${base}/${path}` : path;
	const folders = multiRootFolders(context.workspace);
	const lexical = lexicalSegments(full.split('/'));
	if (folders && lexical && lexical.length > 0 && !splitFolderPath(folders, lexical.join('/'))) {
		// At the root of several folders only the folders exist (the sandbox's /workspace): any other name is nothing.
		return undefined;
	}
	try {
		const resolved = await context.guard.resolveWord(full, 'read');
		// A folder whose every file is deny-read (.ssh, .aws): a command given it reads them all.
		const folderOfSecrets = [resolved.path, resolved.canonical].find(
			p => p && isDeniedRead(`${p}/x`, context.policy),
		);
		if (folderOfSecrets !== undefined) {
			return 'a folder on the deny list (keel.permissions.denyRead)';
		}
		return resolved.protectedReason;
	} catch (error) {
		if (error instanceof PathRefused) {
			return error.message;
		}
		throw error;
	}
}

/** A glob segment as a linear-time regex (case-insensitive: the deny list is, and so may the shell be). */
function segmentRegex(segment: string, dotglob: boolean): (name: string) => boolean {
	let source = '';
	for (let i = 0; i < segment.length; i++) {
		const c = segment[i];
		if (c === '\\') {
			source += escapeChar(segment[++i] ?? '');
		} else if (c === '*') {
			source += '.*';
		} else if (c === '?') {
			source += '.';
		} else if (c === '[') {
			const end = segment.indexOf(']', i + 2);
			if (end === -1) {
				source += '\\[';
				continue;
			}
			const body = segment.slice(i + 1, end).replace(/^[!^]/, '^');
			source += `[${body.replace(/\\/g, '\\\\').replace(/\[/g, '\\[')}]`;
			i = end;
		} else {
			source += escapeChar(c);
		}
	}
	const regex = linearRegex(`^(?:${source})$`, { ignoreCase: true, dotAll: true });
	const dotExplicit = segment.startsWith('.') || segment.startsWith('\\.');
	return name => (dotglob || dotExplicit || !name.startsWith('.')) && regex.test(name);
}

function escapeChar(c: string): string {
	return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/** The workspace paths (relative to `base`) a glob can match, or undefined when it cannot be listed here. */
async function expandGlob(pattern: string, base: string, context: OperandContext): Promise<string[] | undefined> {
	if (pattern.startsWith('/')) {
		return undefined;
	}
	let matches = [''];
	let listed = 0;
	for (const segment of pattern.split('/').filter(s => s !== '' && s !== '.')) {
		if (!/(?<!\\)[*?[]/.test(segment)) {
			const literal = segment.replace(/\\(.)/g, '$1');
			matches = matches.map(m => (m ? `${m}/${literal}` : literal));
			continue;
		}
		const test = segmentRegex(segment, context.dotglob);
		const next: string[] = [];
		for (const dir of matches) {
			const full = [base, dir].filter(Boolean).join('/');
			const stat = await context.workspace.stat(full).catch(() => undefined);
			if (stat?.type !== 'directory') continue;
			const entries = await context.workspace.readDirectory(full);
			listed += entries.length;
			if (listed > GLOB_BUDGET) return undefined;
			next.push(...entries.filter(([name]) => test(name)).map(([name]) => (dir ? `${dir}/${name}` : name)));
		}
		matches = next;
	}
	return matches;
}

/** Why the line must ask because of the words its commands are given (one reason per word), or []. */
export async function operandConcerns(operands: readonly Operand[], context: OperandContext): Promise<string[]> {
	const { bases: folders, unknown } = bases(context);
	const reasons = new Set<string>();
	if (unknown) {
		reasons.add(
			'the line changes to a folder only bash knows (cd, cd -, popd, cd $X), so its file names may land anywhere',
		);
	}
	for (const operand of operands) {
		const reason = await operandConcern(operand, folders, context);
		if (reason) reasons.add(reason);
	}
	return [...reasons];
}

async function operandConcern(
	operand: Operand,
	folders: string[],
	context: OperandContext,
): Promise<string | undefined> {
	const { written } = operand;
	if (operand.path === undefined && operand.glob === undefined) {
		return `${written}: a value only bash knows ($VAR, $(…), ~, a brace list), which may name any file`;
	}
	for (const folder of folders) {
		const base =
			operand.from === undefined || operand.from === '.'
				? folder
				: operand.from.startsWith('/')
					? operand.from
					: [folder, operand.from].filter(Boolean).join('/');
		if (base.startsWith('/')) {
			if (!context.sandbox) return `${written}: a link made in a folder outside the workspace (${operand.from})`;
			continue;
		}
		if (operand.path !== undefined) {
			for (const candidate of pathsInWord(operand.path)) {
				const concern = await pathConcern(candidate, base, context);
				if (concern)
					return candidate === operand.path
						? `${written}: ${concern}`
						: `${written} names ${candidate}: ${concern}`;
			}
			continue;
		}
		const matches = await expandGlob(operand.glob!, base, context);
		if (matches === undefined) {
			return `${written}: a glob Keel cannot list inside the workspace, which may match any file`;
		}
		for (const match of matches) {
			const concern = await pathConcern(match, base, context);
			if (concern) return `${written} matches ${match}: ${concern}`;
		}
	}
	return undefined;
}

/** Why walking `folder` (every file below it, as grep -r or find -exec does) must ask, or undefined. */
async function walkConcern(folder: string, base: string, context: OperandContext): Promise<string | undefined> {
	const start = await pathConcern(folder, base, context);
	if (start) return start;
	if (inSandboxMount(folder, context)) {
		return walkConcern(mountRelative(folder), '', context);
	}
	const root = [base, folder].filter(p => p && p !== '.').join('/');
	if ((await context.workspace.stat(root).catch(() => undefined))?.type !== 'directory') {
		return undefined;
	}
	const queue = [root];
	let seen = 0;
	while (queue.length) {
		const dir = queue.shift()!;
		for (const [name, type] of await context.workspace.readDirectory(dir)) {
			if (++seen > WALK_BUDGET) {
				return `reads every file below it, more than ${WALK_BUDGET} entries to check for secrets`;
			}
			const rel = dir ? `${dir}/${name}` : name;
			if (type === 'directory') {
				queue.push(rel);
			} else if (type === 'symlink' || isDeniedRead(rel, context.policy)) {
				const concern = await pathConcern(rel, '', context);
				if (concern) return `reads every file below it, ${rel} among them: ${concern}`;
			}
		}
	}
	return undefined;
}

/** Why the folders the line's commands walk must make it ask (one reason each), or []. */
export async function walkConcerns(
	walks: ReadonlyArray<string | undefined>,
	context: OperandContext,
): Promise<string[]> {
	const { bases: folders } = bases(context);
	const reasons = new Set<string>();
	for (const folder of new Set(walks)) {
		if (folder === undefined) {
			reasons.add('xargs: runs a command on file names that only exist when it runs, which may be any file');
			continue;
		}
		for (const base of folders) {
			const concern = await walkConcern(folder, base, context);
			if (concern) {
				reasons.add(`${folder}: ${concern}`);
				break;
			}
		}
	}
	return [...reasons];
}
