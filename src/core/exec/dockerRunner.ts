import type Docker from 'dockerode';
import { Writable } from 'stream';
import { StringDecoder } from 'string_decoder';
import type { CommandRequest, CommandResult, CommandRunner, Logger } from '../ports';
import { nullLogger } from '../ports';
import type { IDisposable } from '../util/lifecycle';
import { onAbort, sleep } from '../util/abort';
import { lazyRequire } from '../util/lazyRequire';
import { CappedOutput, cappedProgress } from './cappedOutput';
import { containerFailed, engineError, engineUnavailable, ExecError } from './execError';
import { ensureImage, managedImageTag, type ImageSource } from './sandbox/sandboxImage';
import { defaultPathPolicy, type PathPolicy } from '../gate/paths/pathPolicy';
import {
	afterCommand,
	endAll,
	needsNewContainer,
	readCopy,
	sendCopy,
	startContainer,
	type Warm,
} from './sandbox/sandboxContainer';
import { type SandboxLimits, type SandboxWorkspace } from './sandbox/sandboxSpec';
import { WORKSPACE_MOUNT } from '../gate/paths/workspaceFolders';
import { LIMIT_HINT, readCounters, WRAPPER } from './sandbox/sandboxShell';
import { CopyVolume, removeEarlierWindows } from './sandbox/sandboxCopy';

export interface DockerRunnerOptions {
	/**
	 * The folder mounted at /workspace, or a multi-root workspace's folders (each at
	 * /workspace/<name>); a function when it can change (or be absent) at run time.
	 */
	workspaceRoot: SandboxWorkspace | (() => SandboxWorkspace | undefined);
	/** Read on every command so a settings change applies to the next one. */
	settings(): { image: ImageSource; limits: SandboxLimits };
	/** Deny-read files are hidden inside the container (keel.permissions.*); default: the built-in lists. */
	pathPolicy?(): PathPolicy;
	/** Defaults to `new Docker()`, which honours DOCKER_HOST (and DOCKER_TLS_VERIFY/CERT_PATH). */
	docker?: Docker;
	logger?: Logger;
}

// A string literal inside a function, so esbuild maps it to dist/vendor/dockerode.js, loaded on first use.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadDockerode = lazyRequire(() => require('dockerode') as typeof import('dockerode'));

const EXEC_FAILED = /^OCI runtime exec failed/m;

/** Time between the in-container timeout and our own kill, for a command that ignores it. */
const KILL_GRACE_MS = 3000;

/**
 * Runs commands in one warm hardened container per workspace: created on first use, reused
 * through `exec` (≈50 ms instead of ≈250 ms per `docker run`), removed on dispose. Commands
 * run one at a time, so a timeout may kill every process in the container without hurting
 * a neighbour.
 */
export class DockerRunner implements CommandRunner, IDisposable {
	readonly backend = 'sandbox' as const;
	private _docker: Docker | undefined;
	private _warm: Promise<Warm> | undefined;
	private _queue: Promise<unknown> = Promise.resolve();
	private _leftoversChecked = false;
	private _disposed = false;
	private _disposing: Promise<void> | undefined;
	/** The session's copy of the workspace, for an engine that does not see it (made only then). */
	private _copy: CopyVolume | undefined;
	private readonly _logger: Logger;

	constructor(private readonly _options: DockerRunnerOptions) {
		this._docker = _options.docker;
		this._logger = _options.logger ?? nullLogger;
	}

	/** Created on first use, so building the host costs nothing when no command ever runs. */
	get docker(): Docker {
		return (this._docker ??= new (loadDockerode())());
	}

	/** Whether an engine answers within the time; used by the `auto` backend. */
	async available(timeoutMs = 1500): Promise<boolean> {
		// dockerode's ping takes an abortSignal (its typings lag behind), so the request itself ends at the deadline.
		const ping = this.docker.ping as unknown as (options: { abortSignal: AbortSignal }) => Promise<unknown>;
		return ping.call(this.docker, { abortSignal: AbortSignal.timeout(timeoutMs) }).then(
			() => true,
			() => false,
		);
	}

	/** The warm container's id, once one exists. */
	async containerId(): Promise<string | undefined> {
		return this._warm ? (await this._warm.catch(() => undefined))?.container.id : undefined;
	}

	run(request: CommandRequest): Promise<CommandResult> {
		const next = this._queue.then(() => this._runOnce(request));
		this._queue = next.catch(() => undefined);
		return next;
	}

	/**
	 * When the engine cannot even start the exec (the container is wedged: every pid taken by
	 * a process that escaped), the command never ran: reset the container and run it once more.
	 */
	private async _runOnce(request: CommandRequest): Promise<CommandResult> {
		const result = await this._run(request);
		if (!EXEC_FAILED.test(result.stdout + result.stderr) || (result.exitCode !== 126 && result.exitCode !== 127)) {
			return result;
		}
		this._logger.warn('sandbox: the engine could not start a command; resetting the container');
		const warm = await this._warm?.catch(() => undefined);
		this._warm = undefined;
		await warm?.container.remove({ force: true }).catch(() => undefined);
		return this._run(request);
	}

	private async _run(request: CommandRequest): Promise<CommandResult> {
		if (this._disposed) {
			throw new ExecError('cancelled', 'The sandbox was shut down.');
		}
		if (request.signal?.aborted) {
			throw new ExecError('cancelled', 'Stopped before the command ran.');
		}
		const progress = cappedProgress(request.outputLimitBytes, request.onOutput);
		const warm = await this._ensureWarm(progress);
		await sendCopy(warm);
		const started = Date.now();
		const stdout = new CappedOutput(request.outputLimitBytes);
		const stderr = new CappedOutput(request.outputLimitBytes);
		const { exec, stream } = await this._startExec(warm, request, { stdout, stderr, progress });
		let killedBy = await this._awaitEnd(warm, stream, request);
		const durationMs = Date.now() - started;
		// The exit code first: once the engine says the command's process ended, what is left is strays.
		const exitCode = await this._exitCode(exec);
		const notice = await this._after(warm);
		const changes = await readCopy(warm);
		// 124: `timeout` ended it with TERM; 137: with KILL after the grace. Only at the deadline,
		// so a command's own 124 or SIGKILL is not mistaken for ours.
		const atDeadline = durationMs >= request.timeoutMs - 50;
		const timedOut = killedBy === 'timeout' || ((exitCode === 124 || exitCode === 137) && atDeadline);
		if (timedOut) {
			killedBy = 'timeout';
			// Background children that left the process group would otherwise outlive the timeout.
			await this._killAll(warm, undefined);
		}
		const suspicious = exitCode !== 0 || LIMIT_HINT.test(stderr.text());
		const limitHit = suspicious ? await this._diagnose(warm) : undefined;
		return {
			backend: 'sandbox',
			stdout: stdout.text(),
			stderr: notice
				? `${stderr.text()}${stderr.text() && !stderr.text().endsWith('\n') ? '\n' : ''}${notice}\n`
				: stderr.text(),
			exitCode,
			durationMs,
			truncated: stdout.truncated || stderr.truncated,
			timedOut,
			cancelled: killedBy === 'cancel',
			limitHit,
			...(warm.mappedTo ? { mappedTo: warm.mappedTo } : {}),
			...(changes ? { copied: changes } : {}),
		};
	}

	/** Starts the command in the warm container, its two streams demultiplexed into the outputs. */
	private async _startExec(
		warm: Warm,
		request: CommandRequest,
		output: { stdout: CappedOutput; stderr: CappedOutput; progress: (text: string) => void },
	): Promise<{ exec: Docker.Exec; stream: NodeJS.ReadWriteStream }> {
		const exec = await warm.container
			.exec({
				Cmd: ['/bin/sh', '-c', WRAPPER],
				User: warm.user,
				Env: [
					`KEEL_CMD=${request.command}`,
					`KEEL_TIMEOUT=${Math.max(0.1, request.timeoutMs / 1000).toFixed(1)}`,
					...Object.entries(request.env ?? {}).map(([key, value]) => `${key}=${value}`),
				],
				WorkingDir: request.cwd ? `${WORKSPACE_MOUNT}/${request.cwd}` : WORKSPACE_MOUNT,
				AttachStdout: true,
				AttachStderr: true,
				Tty: false,
			})
			.catch(error => {
				throw engineError(error);
			});
		const stream = await exec.start({ hijack: true, stdin: false });
		const sink = (target: CappedOutput) => {
			// Chunks can split a UTF-8 character; the decoder holds the partial bytes back.
			const decoder = new StringDecoder('utf8');
			return new Writable({
				write(chunk: Buffer, _encoding, done) {
					target.push(chunk);
					output.progress(decoder.write(chunk));
					done();
				},
			});
		};
		this.docker.modem.demuxStream(stream, sink(output.stdout), sink(output.stderr));
		return { exec, stream };
	}

	/** Waits for the command's stream to end; says whether our backstop or a cancel ended it. */
	private async _awaitEnd(
		warm: Warm,
		stream: NodeJS.ReadWriteStream,
		request: CommandRequest,
	): Promise<'timeout' | 'cancel' | undefined> {
		let killedBy: 'timeout' | 'cancel' | undefined;
		const ended = new Promise<void>(resolve => {
			stream.on('end', resolve);
			stream.on('close', resolve);
			stream.on('error', () => resolve());
		});
		// The in-container `timeout` ends the command's process group on time; this is the
		// backstop for commands that escaped it (setsid) or an image without `timeout`.
		const backstop = setTimeout(() => {
			killedBy = 'timeout';
			void this._killAll(warm, stream);
		}, request.timeoutMs + KILL_GRACE_MS);
		const cancelled = onAbort(request.signal, () => {
			killedBy = 'cancel';
			void this._killAll(warm, stream);
		});
		try {
			await ended;
		} finally {
			clearTimeout(backstop);
			cancelled.dispose();
		}
		return killedBy;
	}

	private async _exitCode(exec: Docker.Exec): Promise<number | undefined> {
		for (let attempt = 0; attempt < 20; attempt++) {
			const info = await exec.inspect().catch(() => undefined);
			if (!info) {
				return undefined;
			}
			if (!info.Running) {
				return info.ExitCode ?? undefined;
			}
			await sleep(25);
		}
		return undefined;
	}

	/**
	 * Every process the command left ends now (sandboxContainer.ts: afterCommand); a container
	 * where even that cannot start is removed.
	 */
	private async _after(warm: Warm): Promise<string | undefined> {
		try {
			return await afterCommand(warm, this._logger);
		} catch (error) {
			this._logger.warn(
				`sandbox: ending the command's processes failed (${(error as Error).message}); removing the container`,
			);
			if ((await this._warm?.catch(() => undefined)) === warm) this._warm = undefined;
			await warm.container.remove({ force: true }).catch(() => undefined);
			return undefined;
		}
	}

	/** OOM kills and pids-limit hits show only in the container's cgroup counters. */
	private async _diagnose(warm: Warm): Promise<CommandResult['limitHit']> {
		const now = await readCounters(this.docker, warm.container).catch(() => undefined);
		if (!now) {
			return undefined;
		}
		const before = warm.counters;
		warm.counters = now;
		return now.oomKills > before.oomKills ? 'memory' : now.pidsMax > before.pidsMax ? 'pids' : undefined;
	}

	/**
	 * Kills every process of the sandbox user except PID 1 (`kill -1` spares init). When even
	 * that cannot start (a fork bomb holds every pid), the container itself goes; the next
	 * command gets a fresh one.
	 */
	private async _killAll(warm: Warm, stream: NodeJS.ReadableStream | undefined): Promise<void> {
		try {
			await endAll(warm.container, warm.user);
			return;
		} catch (error) {
			this._logger.warn(`sandbox: kill exec failed (${(error as Error).message}); removing the container`);
		}
		this._warm = undefined;
		await warm.container.remove({ force: true }).catch(() => undefined);
		(stream as { destroy?: () => void } | undefined)?.destroy?.();
	}

	private _ensureWarm(progress: (text: string) => void): Promise<Warm> {
		const { image, limits } = this._options.settings();
		const policy = this._options.pathPolicy?.() ?? defaultPathPolicy;
		const root =
			typeof this._options.workspaceRoot === 'function'
				? this._options.workspaceRoot()
				: this._options.workspaceRoot;
		if (!root || root.length === 0) {
			return Promise.reject(
				new ExecError(
					'containerFailed',
					'Open a folder first: the sandbox mounts the workspace folder at /workspace.',
				),
			);
		}
		// The managed image's tag is its content hash: an edited Dockerfile means a new container.
		const tag = image.kind === 'managed' ? managedImageTag(image.dockerfileDir) : image.name;
		const specKey = JSON.stringify({ root, tag, limits, policy });
		const current = this._warm;
		const next = (async () => {
			const existing = await current?.catch(() => undefined);
			// Reused while it runs and its mounts still cover what the host has (a file the host
			// replaced, a deny-read file or a socket that appeared since: a new container covers them).
			if (
				existing &&
				existing.specKey === specKey &&
				(await this._running(existing.container)) &&
				!(await needsNewContainer(existing))
			) {
				return existing;
			}
			if (existing) {
				await existing.container.remove({ force: true }).catch(() => undefined);
			}
			return this._create(root, image, limits, policy, specKey, progress);
		})();
		this._warm = next;
		next.catch(() => {
			if (this._warm === next) {
				this._warm = undefined;
			}
		});
		return next;
	}

	private async _running(container: Docker.Container): Promise<boolean> {
		const info = await container.inspect().catch(() => undefined);
		return info?.State.Running === true;
	}

	private async _create(
		root: SandboxWorkspace,
		image: ImageSource,
		limits: SandboxLimits,
		policy: PathPolicy,
		specKey: string,
		progress: (text: string) => void,
	): Promise<Warm> {
		try {
			await this.docker.ping();
		} catch (error) {
			throw engineUnavailable(error);
		}
		if (!this._leftoversChecked) {
			this._leftoversChecked = true;
			await removeEarlierWindows(this.docker, this._logger);
		}
		const imageName = await ensureImage(this.docker, image, progress);
		try {
			const copy = (this._copy ??= new CopyVolume(this.docker, JSON.stringify(root)));
			return await startContainer(
				this.docker,
				{ root, image: imageName, limits, policy, specKey, copy },
				this._logger,
			);
		} catch (error) {
			throw containerFailed(error);
		}
	}

	/** Removes the warm container; also called when VS Code closes. Leftovers of a crash are
	 * removed by the next window's first command (removeLeftovers). */
	async disposeAsync(): Promise<void> {
		this._disposed = true;
		// A second call (a second Ctrl+C) waits for the same removal instead of returning early.
		this._disposing ??= (async () => {
			const warm = await this._warm?.catch(() => undefined);
			this._warm = undefined;
			await warm?.container.remove({ force: true }).catch(() => undefined);
			await this._copy?.remove();
		})();
		return this._disposing;
	}

	dispose(): void {
		void this.disposeAsync();
	}
}
