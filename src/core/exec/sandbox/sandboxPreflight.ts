/**
 * Whether the Docker engine sees the workspace at all. A bind mount names a path on the
 * engine's machine: an engine on another box (DOCKER_HOST=ssh://… or tcp://…), in a VM that
 * does not share the folder, or the host's socket inside a dev container mounts whatever that
 * path is there — often nothing, or a folder created empty. Only the engine can say, so Keel
 * asks it: a marker file with a random token is written in each folder, a container is created
 * (never started: nothing runs) with the folders bind-mounted, the engine reads each marker
 * back through the mount (the archive API, `docker cp`), and the markers are removed. When the
 * engine does not see a folder at its path and Keel runs in one of that engine's containers,
 * the folder's path on the engine's machine comes from the container's own mounts
 * (sandboxMapping.ts) and is asked about the same way. The answer is remembered per engine and
 * set of folders while it is "yes"; a "no" is asked again at the next command, so fixing the
 * sharing needs no restart.
 */
import type Docker from 'dockerode';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { Logger } from '../../ports';
import { ExecError } from '../execError';
import { engineSources } from './sandboxMapping';
import { sandboxLabels } from './sandboxSpec';

/** A folder as the sandbox mounts it: its real path here and its place in the container. */
export interface PreflightFolder {
	host: string;
	target: string;
	/** Its path on the engine's machine, when that is not `host` (mapped). */
	source?: string;
}

export type PreflightVerdict =
	{ shared: true; unverified: string[] } | { shared: false; folder: string; engine: string; why: string };

/** How the engine sees the workspace: at the same paths, or each folder at another path (mapped). */
export interface WorkspaceOnEngine {
	engine: string;
	/** Each folder's real path here → its path on the engine's machine; absent when they are the same. */
	mapped?: ReadonlyArray<{ local: string; engine: string }>;
}

type Answer = { verdict: PreflightVerdict; mapped?: WorkspaceOnEngine['mapped'] };

const confirmed = new Map<string, Promise<Answer>>();

/** Where dockerode dials: DOCKER_HOST as it resolved it, or the local socket. */
export async function engineEndpoint(docker: Docker): Promise<string> {
	const modem = docker.modem as { socketPath?: unknown; host?: unknown; port?: unknown; protocol?: unknown };
	// Until its first request docker-modem holds a function that finds the socket (~/.docker/run or /var/run).
	const socket =
		typeof modem.socketPath === 'function'
			? await (modem.socketPath as () => Promise<unknown>)().catch(() => undefined)
			: modem.socketPath;
	if (typeof socket === 'string') {
		return `unix://${socket}`;
	}
	// Said as DOCKER_HOST says it: tcp:// whether or not TLS is on, ssh:// for an SSH engine.
	if (typeof modem.host === 'string') {
		return modem.protocol === 'ssh' ? `ssh://${modem.host}` : `tcp://${modem.host}:${String(modem.port ?? '')}`;
	}
	return process.env.DOCKER_HOST || 'the local Docker engine';
}

/** Forgets every remembered answer (tests; a user who moved the engine restarts the window anyway). */
export function forgetPreflights(): void {
	confirmed.clear();
}

/**
 * How the engine sees the folders; throws ExecError `workspaceNotShared` with what to do when
 * it does not see one. `image` must exist on the engine (the sandbox's, already ensured).
 */
export async function ensureWorkspaceShared(
	docker: Docker,
	folders: readonly PreflightFolder[],
	image: string,
	logger: Logger,
): Promise<WorkspaceOnEngine> {
	const engine = await engineEndpoint(docker);
	const key = JSON.stringify([engine, folders.map(f => [f.host, f.target])]);
	let answer = confirmed.get(key);
	if (!answer) {
		const started = Date.now();
		answer = askEngine(docker, engine, folders, image);
		confirmed.set(key, answer);
		const settled = await answer.catch(() => undefined);
		if (!settled?.verdict.shared) {
			confirmed.delete(key);
		} else {
			const how = settled.mapped ? `at ${settled.mapped.map(m => m.engine).join(', ')} (mapped)` : 'at its path';
			const unverified = settled.verdict.unverified;
			logger.info(
				`sandbox: the engine at ${engine} sees the workspace ${how} (preflight ${Date.now() - started} ms${
					unverified.length ? `; no marker could be written in ${unverified.join(', ')}` : ''
				})`,
			);
		}
	}
	const { verdict, mapped } = await answer;
	if (!verdict.shared) {
		throw notShared(verdict);
	}
	return { engine, mapped };
}

/** At the same paths first; when not, at the paths this container's own mounts name on the engine. */
async function askEngine(
	docker: Docker,
	engine: string,
	folders: readonly PreflightFolder[],
	image: string,
): Promise<Answer> {
	const verdict = await preflight(docker, engine, folders, image);
	if (verdict.shared) {
		return { verdict };
	}
	const sources = await engineSources(
		docker,
		folders.map(f => f.host),
	).catch(() => undefined);
	if (!sources || sources.every((source, i) => source === folders[i].host)) {
		return { verdict };
	}
	const mappedFolders = folders.map((f, i) => ({ ...f, source: sources[i] }));
	const mappedVerdict = await preflight(docker, engine, mappedFolders, image);
	return mappedVerdict.shared
		? { verdict: mappedVerdict, mapped: folders.map((f, i) => ({ local: f.host, engine: sources[i] })) }
		: { verdict };
}

function notShared(verdict: Extract<PreflightVerdict, { shared: false }>): ExecError {
	return new ExecError(
		'workspaceNotShared',
		`The Docker engine at ${verdict.engine} does not see this folder (${verdict.folder}): ${verdict.why}. ` +
			'The sandbox bind-mounts the folder by its path, so the engine must run on the machine that has the files, ' +
			'or share them: run Docker where the files are (in a remote window, on the remote machine), share the folder ' +
			"with the engine's machine or VM (Docker Desktop: Settings → Resources → File sharing), " +
			'or set keel.shell.backend to "terminal" to run commands without the sandbox.',
	);
}

async function preflight(
	docker: Docker,
	engine: string,
	folders: readonly PreflightFolder[],
	image: string,
): Promise<PreflightVerdict> {
	const token = randomBytes(16).toString('hex');
	const name = `.keel-preflight-${token.slice(0, 12)}`;
	const written: PreflightFolder[] = [];
	const unverified: string[] = [];
	try {
		for (const folder of folders) {
			try {
				// `wx`: never overwrite a file of the user's, however unlikely the name.
				await fs.promises.writeFile(path.join(folder.host, name), token, { flag: 'wx', mode: 0o644 });
				written.push(folder);
			} catch {
				// A folder Keel may not write in cannot be asked about; the sandbox's own mount will say.
				unverified.push(folder.host);
			}
		}
		if (written.length === 0) {
			return { shared: true, unverified };
		}
		return await readBack(docker, engine, written, name, token, image, unverified);
	} finally {
		await Promise.all(
			written.map(f => fs.promises.rm(path.join(f.host, name), { force: true }).catch(() => undefined)),
		);
	}
}

async function readBack(
	docker: Docker,
	engine: string,
	folders: readonly PreflightFolder[],
	name: string,
	token: string,
	image: string,
	unverified: string[],
): Promise<PreflightVerdict> {
	let container: Docker.Container;
	try {
		container = await docker.createContainer({
			Image: image,
			Cmd: ['true'],
			Labels: sandboxLabels(folders.map(f => f.host).join('\n')),
			NetworkDisabled: true,
			HostConfig: {
				NetworkMode: 'none',
				// `Mounts`, not `Binds`: a missing source is an error instead of a folder the engine creates.
				Mounts: folders.map(f => ({
					Type: 'bind',
					Source: f.source ?? f.host,
					Target: f.target,
					ReadOnly: true,
				})),
			},
		});
	} catch (error) {
		const message = (error as Error).message;
		const missing = folders.find(f => message.includes(f.source ?? f.host));
		if (/bind source path does not exist|no such file or directory/i.test(message)) {
			return {
				shared: false,
				folder: (missing ?? folders[0]).host,
				engine,
				why: "that path does not exist on the engine's machine",
			};
		}
		throw new ExecError('containerFailed', `The sandbox could not check the workspace mount: ${message}`, {
			cause: error,
		});
	}
	try {
		for (const folder of folders) {
			const seen = await markerThroughMount(container, `${folder.target}/${name}`);
			if (!seen.includes(token)) {
				return {
					shared: false,
					folder: folder.host,
					engine,
					why: 'a marker file Keel wrote there was not in the folder the engine mounted at that path',
				};
			}
		}
		return { shared: true, unverified };
	} finally {
		await container.remove({ force: true }).catch(() => undefined);
	}
}

/** The marker's bytes as the engine reads them through the mount (a tar archive holds them verbatim); empty when absent. */
async function markerThroughMount(container: Docker.Container, file: string): Promise<string> {
	let stream: NodeJS.ReadableStream;
	try {
		stream = await container.getArchive({ path: file });
	} catch (error) {
		if ((error as { statusCode?: number }).statusCode === 404) {
			return '';
		}
		throw error;
	}
	const chunks: Buffer[] = [];
	for await (const chunk of stream) {
		chunks.push(Buffer.from(chunk as Buffer));
	}
	return Buffer.concat(chunks).toString('latin1');
}
