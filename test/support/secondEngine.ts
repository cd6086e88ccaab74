/**
 * A second, real Docker engine that does not share the disk with this process: dockerd on a
 * loopback TCP port with its own data and exec roots (so its own containerd), started in a
 * mount namespace where a folder of ours is covered by a tmpfs. Seen from that engine, paths
 * under the folder are another machine's: absent, or an empty look-alike we create there. It
 * is what a `DOCKER_HOST=tcp://…` engine on another box, or a VM that does not share a folder,
 * looks like to the sandbox. Stopped like the first engine (scripts/lib/setup.sh): SIGTERM to
 * the dockerd we started, then its folders are removed.
 */
import { execFileSync, spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import Docker from 'dockerode';
import { freePort } from './processes';

export interface SecondEngine {
	/** DOCKER_HOST for it: tcp://127.0.0.1:<port>. */
	readonly dockerHost: string;
	/** A folder this process sees and the engine does not (a tmpfs covers it there). */
	readonly hidden: string;
	/** An image the engine has (empty: nothing can run in it, a container can only be created). */
	readonly image: string;
	/** dockerode for the engine, made as Keel makes it: from DOCKER_HOST. */
	docker(): Docker;
	stop(): Promise<void>;
}

/** Undefined when a second engine can be started here, else the reason. */
export function secondEngineMissing(): string | undefined {
	if (process.platform !== 'linux' || process.getuid?.() !== 0) {
		return 'it needs Linux and root (dockerd, unshare --mount)';
	}
	for (const program of ['dockerd', 'unshare', 'docker']) {
		try {
			execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
		} catch {
			return `${program} is not installed`;
		}
	}
	return undefined;
}

/** Dockerode from DOCKER_HOST, the way `new Docker()` in Keel reads it. */
export function dockerFromEnv(dockerHost: string): Docker {
	const before = process.env.DOCKER_HOST;
	process.env.DOCKER_HOST = dockerHost;
	try {
		return new Docker();
	} finally {
		if (before === undefined) delete process.env.DOCKER_HOST;
		else process.env.DOCKER_HOST = before;
	}
}

/**
 * Starts the engine. `lookalikes` are names under `hidden` that the engine's side has as empty
 * folders (a path that exists there but is not the user's folder); other names do not exist there.
 */
export async function startSecondEngine(lookalikes: readonly string[] = []): Promise<SecondEngine> {
	const base = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-engine2-'));
	const hidden = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-engine2-hidden-'));
	const port = await freePort();
	const dockerHost = `tcp://127.0.0.1:${port}`;
	const q = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
	const script = [
		`mount -t tmpfs -o size=1m,mode=755 keel-engine2-hidden ${q(hidden)}`,
		...lookalikes.map(name => `mkdir -p ${q(path.join(hidden, name))}`),
		// Its own roots, so its own containerd; no unix socket, no network set-up.
		`exec dockerd --host ${q(dockerHost)} --data-root ${q(`${base}/data`)} --exec-root ${q(`${base}/exec`)} ` +
			`--pidfile ${q(`${base}/dockerd.pid`)} --iptables=false --ip-masq=false --bridge=none --tls=false`,
	].join(' && ');
	const log = fs.openSync(path.join(base, 'dockerd.log'), 'w');
	// unshare without --fork and `exec`: the child's pid is dockerd's own.
	const child = spawn('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script], {
		detached: true,
		stdio: ['ignore', log, log],
	});
	fs.closeSync(log);
	const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
	const docker = () => dockerFromEnv(dockerHost);
	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) {
			child.kill('SIGTERM');
			let timer: NodeJS.Timeout | undefined;
			await Promise.race([exited, new Promise(resolve => (timer = setTimeout(resolve, 20_000)))]);
			clearTimeout(timer);
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		}
		fs.rmSync(base, { recursive: true, force: true });
		fs.rmSync(hidden, { recursive: true, force: true });
	};
	try {
		await answered(docker(), child, base);
		const image = 'keel-engine2-empty:1';
		// Two zero blocks: an empty tar, so an image with no files (containers are only created, never started).
		execFileSync('docker', ['import', '-', image], {
			input: Buffer.alloc(1024),
			env: { ...process.env, DOCKER_HOST: dockerHost },
			stdio: ['pipe', 'ignore', 'inherit'],
		});
		return { dockerHost, hidden, image, docker, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

async function answered(docker: Docker, child: ChildProcess, base: string): Promise<void> {
	const deadline = Date.now() + 60_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) break;
		if (
			await docker.ping().then(
				() => true,
				() => false,
			)
		)
			return;
		await new Promise(resolve => setTimeout(resolve, 200));
	}
	const tail = fs.readFileSync(path.join(base, 'dockerd.log'), 'utf8').split('\n').slice(-15).join('\n');
	throw new Error(`the second dockerd did not answer:\n${tail}`);
}
