import * as os from 'os';
import * as path from 'path';
import { linearGlob, translate } from '../../patterns/linearGlob';
import { linearRegex, UnsupportedPattern } from '../../patterns/linearRegex';
import { PROTECTED_PATHS, type PathPolicy } from '../../gate/paths/pathPolicy';
import { ExecError } from '../execError';

/**
 * What the sandbox's scan asks of every entry of the workspace: the path policy's deny-read
 * and protected globs with the gate's own semantics (pathPolicy.ts: case-insensitive, a bare
 * name also matches at the root, a folder is protected when what is inside it is), compiled
 * once into one linear-time pattern so a 50 000-file walk tests each path once, not once per
 * glob. And where container engines keep their sockets.
 */
export interface ScanRules {
	/** A file the agent may not read (deny-read and not allow-read). */
	denied(rel: string): boolean;
	/** A folder whose every possible file is deny-read: it is hidden whole, files created later included. */
	deniedFolder(rel: string): boolean;
	/** A path that makes the host run code later (hooks, tasks, CI): mounted read-only. */
	protectedPath(rel: string): boolean;
	/** A folder where an engine keeps its socket: hidden whole. */
	engineFolder(hostPath: string, name: string): boolean;
}

type Matcher = (rel: string) => boolean;

/**
 * The longest run of plain characters every match of `glob` must contain (lower-cased), or
 * undefined when the glob has constructs that make that unsure (braces, classes, extglobs,
 * escapes). `**\/.env.*` must contain ".env.", `**\/.config/gcloud/**` "gcloud": a path without
 * it cannot match, which spares the pattern engine almost every file of a large tree.
 */
export function requiredText(glob: string): string | undefined {
	if (/[{}[\]()\\!@+]/.test(glob)) return undefined;
	const runs = glob.toLowerCase().split(/[*?/]+/);
	const longest = runs.reduce((a, b) => (b.length > a.length ? b : a), '');
	return longest || undefined;
}

/** Whether a text may hold a match of one of `globs`: false only when it holds none's required text. */
function possible(globs: readonly string[]): Matcher {
	const needles = globs.map(requiredText);
	if (needles.some(n => n === undefined)) return () => true;
	if (needles.length === 0) return () => false;
	// Plain text alternatives only (escaped): no quantifier for a backtracking engine to explode on.
	const any = new RegExp(needles.map(n => n!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');
	return text => any.test(text);
}

/**
 * Globs as one matcher, with a quick test first: the path, with a segment before it and after
 * it, holds none of the globs' required text, so no variant below can match.
 */
function globSet(globs: readonly string[], what: string): Matcher {
	const full = exactGlobSet(globs, what);
	const maybe = possible(globs);
	return rel => maybe(`x/${rel}/x`) && full(rel);
}

/** Globs as one matcher; a deny glob that cannot run fails closed by refusing to start the sandbox. */
function exactGlobSet(globs: readonly string[], what: string): Matcher {
	const plain = globs.filter(g => !/^!(?!\()/.test(g));
	const negated = globs.filter(g => /^!(?!\()/.test(g)).map(g => linearGlob(g, { nocase: true }));
	let combined: Matcher | undefined;
	try {
		const source = plain.map(g => `(?:${translate(g.replace(/^(?:\.\/)+/, ''))})`).join('|');
		const regex = plain.length ? linearRegex(`^(?:${source})$`, { ignoreCase: true, dotAll: true }) : undefined;
		combined = rel => regex?.test(rel) === true;
	} catch (error) {
		if (!(error instanceof UnsupportedPattern)) throw error;
		// One glob the engine cannot run, or too many to combine: each on its own, so the bad one is named.
		const each = plain.map(g => {
			try {
				return linearGlob(g, { nocase: true });
			} catch (inner) {
				if (!(inner instanceof UnsupportedPattern)) throw inner;
				throw new ExecError(
					'containerFailed',
					`${what} "${g}" cannot run (${inner.reason}), so the sandbox cannot tell which files to hide; fix the pattern.`,
				);
			}
		});
		combined = rel => each.some(m => m(rel));
	}
	const either = (rel: string) => combined!(rel) || negated.some(m => m(rel));
	return rel => rel !== '' && (either(rel) || either(`x/${rel}`));
}

/** Allow-read globs that cannot run allow nothing (pathPolicy.ts), so they are left out. */
function allowSet(globs: readonly string[]): Matcher {
	const runnable = globs.filter(g => {
		try {
			linearGlob(g, { nocase: true });
			return true;
		} catch (error) {
			if (error instanceof UnsupportedPattern) return false;
			throw error;
		}
	});
	return runnable.length ? globSet(runnable, 'keel.permissions.allowRead') : () => false;
}

/** Names a folder that only holds files matching `denied`: three unlike names inside it all match. */
const PROBES = ['z9', '.z9.q', 'z9/z9.q'];

/** Names engines give their per-user folders, wherever they appear (a home folder, another user's). */
export const ENGINE_FOLDER_NAMES = new Set(['.docker', '.colima', '.rd', '.lima', '.orbstack']);

export function scanRules(policy: PathPolicy, engines: readonly string[]): ScanRules {
	const deny = globSet(policy.denyRead, 'The keel.permissions.denyRead pattern');
	const allow = allowSet(policy.allowRead);
	const guarded = globSet(
		PROTECTED_PATHS.map(p => p.glob),
		'The protected-path pattern',
	);
	const engineSet = new Set(engines);
	return {
		denied: rel => deny(rel) && !allow(rel),
		deniedFolder: rel => PROBES.every(probe => deny(`${rel}/${probe}`) && !allow(`${rel}/${probe}`)),
		protectedPath: rel => guarded(rel) || guarded(`${rel}/x`),
		engineFolder: (hostPath, name) => ENGINE_FOLDER_NAMES.has(name) || engineSet.has(hostPath),
	};
}

/**
 * The folders engines keep their sockets in on this machine: the system's run folders, the
 * per-user runtime folder (rootless Docker, Podman), Docker Desktop, colima, Rancher Desktop,
 * OrbStack, lima, Podman machine, and the folder of the socket Keel itself talks to.
 */
export function engineFolders(
	env: NodeJS.ProcessEnv = process.env,
	home = os.homedir(),
	engineSocket?: string,
): string[] {
	const folders = [
		'/run',
		'/var/run',
		...[...ENGINE_FOLDER_NAMES].map(name => path.join(home, name)),
		path.join(home, '.local/share/containers'),
		path.join(home, 'Library/Containers/com.docker.docker'),
	];
	if (env.XDG_RUNTIME_DIR) folders.push(env.XDG_RUNTIME_DIR);
	for (const socket of [
		env.DOCKER_HOST?.startsWith('unix://') ? env.DOCKER_HOST.slice(7) : undefined,
		engineSocket,
	]) {
		if (socket) folders.push(path.dirname(path.resolve(socket)));
	}
	return [...new Set(folders.map(folder => path.resolve(folder)))];
}

/**
 * Refuses a mount source that is, or is inside, an engine's folder (decided on real paths, so
 * a link to /var/run is /run), or the whole file system; a source that only contains one is
 * mounted with that folder hidden (sandboxScan.ts).
 */
export function refusePlacement(source: string, engines: readonly string[]): void {
	if (source === path.parse(source).root) {
		throw new ExecError(
			'containerFailed',
			`The workspace is the whole file system (${source}); Keel will not mount it into the sandbox. Open a project folder instead.`,
		);
	}
	for (const folder of engines) {
		if (source === folder || source.startsWith(`${folder}${path.sep}`)) {
			throw new ExecError(
				'containerFailed',
				`The workspace ${source} is ${source === folder ? '' : 'inside '}${folder}, where container engines keep their sockets: mounted into the sandbox, a socket there would hand it the engine. Keel will not mount it; open your project folder instead.`,
			);
		}
	}
}
