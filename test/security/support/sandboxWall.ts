// The sandbox's own wall, attacked through the real path: run_command through the gate and the
// approval pipeline, a real DockerRunner, real bash in the real image. Every call is approved
// (the user said yes to all of it), so what holds is what the container itself enforces.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import Docker from 'dockerode';
import { DockerRunner, type DockerRunnerOptions } from '../../../src/core/exec/dockerRunner';
import { defaultLimits, type SandboxLimits, type SandboxWorkspace } from '../../../src/core/exec/sandbox/sandboxSpec';
import { ShellBackendSelector } from '../../../src/core/exec/shellBackend';
import { defaultPathPolicy, type PathPolicy } from '../../../src/core/gate/paths/pathPolicy';
import { createShellTools } from '../../../src/core/tools/shell/shellTools';
import { DOCKERFILE_DIR } from '../../support/dockerEngine';
import { toolHarness, type Harness } from '../../support/toolHarness';

export interface WallOptions {
	limits?: Partial<SandboxLimits>;
	policy?: PathPolicy;
	timeoutSeconds?: number;
	/** An image by name instead of the managed one (e.g. gitImage()). */
	image?: string;
	/** keel.shell.gitRepositoryPrograms. */
	gitRepositoryPrograms?: boolean;
}

/**
 * The managed image with the host's own git binary added (the host is Debian bookworm like the
 * image, so its libraries are there), so attacks can run real `git config`, `git init`, hooks
 * and worktrees inside the sandbox. Built once, offline, labelled as a test image.
 */
export async function gitImage(): Promise<string> {
	const warm = wallRunner(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-git-image-')));
	await warm.run({ command: 'true', cwd: '', timeoutMs: 300_000, outputLimitBytes: 1000 });
	const base = (await engine.getContainer((await warm.containerId())!).inspect()).Config.Image;
	await warm.disposeAsync();
	const tag = `keel-sandbox-test-git:${base.split(':')[1]}`;
	const exists = await engine
		.getImage(tag)
		.inspect()
		.then(
			() => true,
			() => false,
		);
	if (!exists) {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-git-context-'));
		fs.copyFileSync(
			execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(),
			path.join(dir, 'git'),
		);
		fs.writeFileSync(
			path.join(dir, 'Dockerfile'),
			`FROM ${base}\nUSER root\nCOPY git /usr/bin/git\nRUN chmod 755 /usr/bin/git\nUSER keel\nLABEL keel.test=git\n`,
		);
		execFileSync('docker', ['build', '-q', '-t', tag, dir], { stdio: 'ignore' });
		fs.rmSync(dir, { recursive: true, force: true });
	}
	return tag;
}

/**
 * The engine, found once before any test points HOME or XDG_RUNTIME_DIR at a fake home (the
 * client would otherwise look for the rootless socket there and find a test's fake engine).
 */
const engine = new Docker(
	process.env.DOCKER_HOST
		? undefined
		: {
				socketPath:
					process.env.XDG_RUNTIME_DIR && fs.existsSync(`${process.env.XDG_RUNTIME_DIR}/docker.sock`)
						? `${process.env.XDG_RUNTIME_DIR}/docker.sock`
						: '/var/run/docker.sock',
			},
);

/** A runner over `workspace` with the managed image; the path policy reaches it as the host hands it over. */
export function wallRunner(
	workspace: SandboxWorkspace | (() => SandboxWorkspace | undefined),
	options: WallOptions = {},
) {
	const runnerOptions = {
		workspaceRoot: workspace,
		settings: () => ({
			image: options.image
				? { kind: 'user', name: options.image }
				: { kind: 'managed', dockerfileDir: DOCKERFILE_DIR },
			limits: { ...defaultLimits, ...options.limits },
		}),
		pathPolicy: () => options.policy ?? defaultPathPolicy,
		docker: engine,
	};
	return new DockerRunner(runnerOptions as DockerRunnerOptions);
}

/** run_command through the whole pipeline with every call approved. */
export function approvedShell(root: string, runner: DockerRunner, options: WallOptions = {}): Harness {
	const policy = options.policy ?? defaultPathPolicy;
	const tools = createShellTools({
		selector: new ShellBackendSelector(() => 'docker', runner, undefined),
		settings: () => ({
			timeoutSeconds: options.timeoutSeconds ?? 20,
			outputLimitBytes: 1 << 20,
			memoryMb: 512,
			pids: 256,
			gitRepositoryPrograms: options.gitRepositoryPrograms,
		}),
		pathPolicy: () => policy,
	});
	const h = toolHarness(root, {
		settings: { autoApprove: { read: true, write: true, exec: true, network: true } },
		extra: tools,
	});
	h.approver.answer = { approved: true };
	return h;
}

/** The text a command's card and result carry, whatever the outcome. */
export function resultText(result: { output?: unknown; card: { status: string } }): string {
	return typeof result.output === 'string' ? result.output : JSON.stringify(result.output ?? '');
}

/**
 * A real unix socket on the host that answers every connection with `banner`: an engine's
 * socket as far as a client inside the sandbox can tell.
 */
export async function listenSocket(file: string, banner: string): Promise<{ close(): Promise<void>; hits: number }> {
	fs.mkdirSync(path.dirname(file), { recursive: true });
	const state = { hits: 0 };
	const open = new Set<net.Socket>();
	const server = net.createServer(socket => {
		state.hits++;
		open.add(socket);
		socket.on('close', () => open.delete(socket));
		socket.end(`${banner}\n`);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(file, resolve);
	});
	fs.chmodSync(file, 0o777);
	return {
		get hits() {
			return state.hits;
		},
		close: () =>
			new Promise<void>(resolve => {
				open.forEach(socket => socket.destroy());
				server.close(() => resolve());
			}),
	};
}

/** What the engine itself says runs in a container: `docker top`, the authority on processes. */
export async function processesIn(containerId: string): Promise<string[]> {
	const top = await engine.getContainer(containerId).top({ ps_args: '-eo pid,args' });
	return (top.Processes ?? []).map((row: string[]) => row.join(' '));
}

/** A perl one-liner (perl-base is in every Debian image) that connects to a unix socket and prints the reply. */
export function connectCommand(pathWord: string): string {
	return `perl -MIO::Socket::UNIX -e '$s=IO::Socket::UNIX->new(Peer=>shift) or die "no: $!\\n"; print <$s>' ${pathWord}`;
}
