/**
 * The real Docker engine for the integration tier. CI starts dockerd and imports the offline
 * base image first (scripts/lib/setup.sh: keel_start_docker, keel_docker_base_image); when
 * nothing answers we try the same functions once. When no engine can be started at all the
 * docker suites fail under CI and skip, naming the reason, when run by hand (tierGate.ts).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import Docker from 'dockerode';
import { requirePart } from './tierGate';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const DOCKERFILE_DIR = path.join(REPO_ROOT, 'sandbox');

let ready: Promise<string | undefined> | undefined;

async function answers(docker: Docker): Promise<boolean> {
	return docker.ping().then(
		() => true,
		() => false,
	);
}

/** Resolves undefined when the engine and base image are there, else the reason to skip. */
export function dockerReady(): Promise<string | undefined> {
	ready ??= (async () => {
		const docker = new Docker();
		if (!(await answers(docker)) || !(await hasImage(docker, 'debian:bookworm-slim'))) {
			try {
				execFileSync(
					'bash',
					['-c', 'source scripts/lib/setup.sh && keel_start_docker && keel_docker_base_image'],
					{ cwd: REPO_ROOT, stdio: 'inherit', timeout: 240_000 },
				);
			} catch (error) {
				return `no Docker engine could be started (${(error as Error).message.split('\n')[0]}); run scripts/lib/setup.sh keel_start_docker + keel_docker_base_image first`;
			}
		}
		return (await answers(docker)) ? undefined : 'no Docker engine answers on DOCKER_HOST or /var/run/docker.sock';
	})();
	return ready;
}

async function hasImage(docker: Docker, name: string): Promise<boolean> {
	return docker
		.getImage(name)
		.inspect()
		.then(
			() => true,
			() => false,
		);
}

/** A mocha `before` for the docker suites: fails them under CI, skips them by hand, when no engine can be had. */
export function requireDocker(): Mocha.AsyncFunc {
	return async function (this: Mocha.Context) {
		this.timeout(300_000);
		requirePart(this, 'Docker engine', await dockerReady());
	};
}

/**
 * A throwaway workspace the sandbox user may write to. The sandbox runs as the host user,
 * or as 1000 when the tests run as root (CI), so the folder is handed to that user.
 */
export function makeWorkspace(files: Record<string, string> = {}): string {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-sandbox-ws-'));
	for (const [name, content] of Object.entries(files)) {
		fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
		fs.writeFileSync(path.join(root, name), content);
	}
	if (process.getuid?.() === 0) {
		execFileSync('chown', ['-R', '1000:1000', root]);
	}
	return root;
}

export function snapshotTree(root: string): string[] {
	return (fs.readdirSync(root, { recursive: true, encoding: 'utf8' }) as string[]).sort();
}
