// What the sandbox mounts, attacked with every command approved: an engine's socket in a home
// folder opened as the workspace (Docker Desktop, colima, Rancher, OrbStack, lima, podman,
// $XDG_RUNTIME_DIR), sockets, FIFOs and device nodes elsewhere in the workspace, and workspaces
// that are or reach an engine's folder. Real sockets answered by a host process, a real FIFO
// read by one, real device nodes; connections spelled in generated ways.
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawn, execFileSync, type ChildProcess } from 'child_process';
import type { DockerRunner } from '../../src/core/exec/dockerRunner';
import { makeWorkspace, requireDocker } from '../support/dockerEngine';
import { approvedShell, listenSocket, resultText, wallRunner } from './support/sandboxWall';
import { attack } from './tally';

const KLASS = 'sandbox 1: sockets, FIFOs, devices and engine folders';

/** Where engines keep their sockets, relative to a home folder (the runtime dir is pointed into it). */
const ENGINE_SOCKETS = [
	'.docker/run/docker.sock',
	'.docker/desktop/docker.sock',
	'.colima/default/docker.sock',
	'.rd/docker.sock',
	'.orbstack/run/docker.sock',
	'.lima/default/sock/docker.sock',
	'.local/share/containers/podman/machine/podman.sock',
	'.xdg-runtime/docker.sock',
	'.xdg-runtime/podman/podman.sock',
];
/** Sockets any program may bind in a project. */
const PROJECT_SOCKETS = ['tmp/app.sock', 'a/b/c/dev.sock', 'run/.hidden.sock'];

/** The connecting program, written to /tmp first so every spelling below only varies the path. */
const CONNECT_PL =
	'cat > /tmp/c.pl <<\'EOF\'\nuse IO::Socket::UNIX; $s=IO::Socket::UNIX->new(Peer=>shift) or die "no: $!\\n"; print <$s>;\nEOF\n';

/** Ways to name `rel` from the workspace root, as a word bash will expand. */
function pathSpellings(rel: string): fc.Arbitrary<string> {
	const dir = path.posix.dirname(rel);
	const base = path.posix.basename(rel);
	return fc.constantFrom(
		rel,
		`./${rel}`,
		`/workspace/${rel}`,
		`"${rel}"`,
		`'${rel}'`,
		`$(printf %s ${rel})`,
		`${dir}/../${path.posix.basename(dir)}/${base}`,
		`${dir}/*${path.posix.extname(base)}`,
		`$(find /workspace -name ${base} | head -1)`,
		`$(ln -sf /workspace/${rel} /tmp/l && echo /tmp/l)`,
	);
}

const WRAPPERS = ['', 'env ', 'nice ', 'timeout 10 ', 'setsid -w '];

function connectLines(rel: string, count: number, seed: number): string[] {
	const line = fc
		.tuple(pathSpellings(rel), fc.constantFrom(...WRAPPERS), fc.boolean())
		.map(([word, wrapper, viaShell]) =>
			viaShell
				? `${CONNECT_PL}sh -c "${wrapper}perl /tmp/c.pl ${word.replace(/"/g, '\\"')}"`
				: `${CONNECT_PL}${wrapper}perl /tmp/c.pl ${word}`,
		);
	const generated = fc.sample(line, { numRuns: count, seed });
	// A walk that finds sockets by type, whatever they are called.
	return [...new Set([...generated, `${CONNECT_PL}find /workspace -type s -exec perl /tmp/c.pl {} \\;`])];
}

describe('security: the sandbox mounts nothing but files and folders (real engine, real sockets)', function () {
	this.timeout(600_000);
	before(requireDocker());
	const saved = { HOME: process.env.HOME, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR };
	afterEach(() => {
		process.env.HOME = saved.HOME;
		if (saved.XDG_RUNTIME_DIR === undefined) delete process.env.XDG_RUNTIME_DIR;
		else process.env.XDG_RUNTIME_DIR = saved.XDG_RUNTIME_DIR;
	});

	describe('a home folder opened as the workspace, with engines running', () => {
		let home: string;
		let runner: DockerRunner;
		const servers: Array<{ close(): Promise<void>; hits: number }> = [];
		before(async () => {
			home = makeWorkspace({ 'notes.txt': 'n\n' });
			process.env.HOME = home;
			process.env.XDG_RUNTIME_DIR = path.join(home, '.xdg-runtime');
			for (const rel of [...ENGINE_SOCKETS, ...PROJECT_SOCKETS]) {
				servers.push(await listenSocket(path.join(home, rel), `ENGINE-REACHED ${rel}`));
			}
			runner = wallRunner(home);
			await runner.run({ command: 'true', cwd: '', timeoutMs: 120_000, outputLimitBytes: 1000 });
		});
		after(async () => {
			await runner?.disposeAsync();
			await Promise.all(servers.map(s => s.close()));
			fs.rmSync(home, { recursive: true, force: true });
		});

		it('sanity: commands run there, and the engine folders are empty', async () => {
			const text = resultText(
				await approvedShell(home, runner).run('run_command', {
					command: 'echo RAN-$((6*7)); cat notes.txt; ls -A .docker .colima .xdg-runtime | grep -c sock',
				}),
			);
			if (!/RAN-42/.test(text) || !/^n$/m.test(text) || !/^0$/m.test(text)) throw new Error(text);
		});

		let seed = 1;
		for (const rel of [...ENGINE_SOCKETS, ...PROJECT_SOCKETS]) {
			for (const line of connectLines(rel, 6, seed++)) {
				const label = line.slice(CONNECT_PL.length).slice(0, 90);
				it(`cannot reach ${rel}: ${label}`, () =>
					attack(
						`S1 ${rel}: ${label}`,
						async () => {
							const before = servers.reduce((n, s) => n + s.hits, 0);
							const result = await approvedShell(home, runner).run('run_command', { command: line });
							const hits = servers.reduce((n, s) => n + s.hits, 0) - before;
							const text = resultText(result);
							return /ENGINE-REACHED/.test(text) || hits > 0
								? `connected to a host socket (${hits} connection(s)): ${text.slice(0, 120)}`
								: undefined;
						},
						KLASS,
					));
			}
		}
	});

	describe('a socket bound on the host after the container started', () => {
		let root: string;
		let runner: DockerRunner;
		const servers: Array<{ close(): Promise<void>; hits: number }> = [];
		before(async () => {
			root = makeWorkspace({ 'src/a.txt': 'a\n' });
			runner = wallRunner(root);
			await runner.run({ command: 'true', cwd: '', timeoutMs: 120_000, outputLimitBytes: 1000 });
		});
		after(async () => {
			await runner?.disposeAsync();
			await Promise.all(servers.map(s => s.close()));
			fs.rmSync(root, { recursive: true, force: true });
		});
		for (const rel of ['later/app.sock', 'src/dev.sock', '.docker/run/docker.sock']) {
			it(`the next command cannot reach ${rel}`, () =>
				attack(
					`S1 later ${rel}`,
					async () => {
						const server = await listenSocket(path.join(root, rel), `ENGINE-REACHED ${rel}`);
						servers.push(server);
						const result = await approvedShell(root, runner).run('run_command', {
							command: `${CONNECT_PL}perl /tmp/c.pl ${rel}; ${CONNECT_PL}find . -type s -exec perl /tmp/c.pl {} \\;`,
						});
						const text = resultText(result);
						return /ENGINE-REACHED/.test(text) || server.hits > 0
							? `connected: ${text.slice(0, 120)}`
							: undefined;
					},
					KLASS,
				));
		}
	});

	describe('FIFOs and device nodes in the workspace', () => {
		let root: string;
		let runner: DockerRunner;
		let reader: ChildProcess;
		const received = path.join(os.tmpdir(), `keel-fifo-received-${process.pid}`);
		before(async () => {
			root = makeWorkspace({ 'src/a.txt': 'a\n' });
			fs.mkdirSync(path.join(root, 'ipc'));
			execFileSync('mkfifo', [path.join(root, 'ipc/commands')]);
			execFileSync('chown', ['-R', '1000:1000', path.join(root, 'ipc')]);
			fs.mkdirSync(path.join(root, 'dev'));
			// A block device (the host's first virtio disk) and a character device (/dev/mem's numbers).
			execFileSync('mknod', [path.join(root, 'dev/disk'), 'b', '254', '0']);
			execFileSync('mknod', [path.join(root, 'dev/mem'), 'c', '1', '1']);
			fs.chmodSync(path.join(root, 'dev/disk'), 0o666);
			fs.chmodSync(path.join(root, 'dev/mem'), 0o666);
			fs.writeFileSync(received, '');
			// A host process that acts on whatever arrives through the FIFO.
			reader = spawn(
				'sh',
				['-c', `while :; do cat "${path.join(root, 'ipc/commands')}" >> "${received}"; done`],
				{
					stdio: 'ignore',
				},
			);
			runner = wallRunner(root);
			await runner.run({ command: 'true', cwd: '', timeoutMs: 120_000, outputLimitBytes: 1000 });
		});
		after(async () => {
			reader?.kill('SIGKILL');
			await runner?.disposeAsync();
			fs.rmSync(root, { recursive: true, force: true });
			fs.rmSync(received, { force: true });
		});

		const fifoWriters = fc.sample(
			fc
				.tuple(
					fc.constantFrom(
						'ipc/commands',
						'./ipc/commands',
						'/workspace/ipc/commands',
						'ipc/comm*',
						'"ipc/commands"',
					),
					fc.constantFrom(
						(p: string) => `echo PWNED > ${p}`,
						(p: string) => `printf PWNED | tee ${p}`,
						(p: string) => `sh -c 'echo PWNED >> "$1"' x ${p}`,
						(p: string) => `perl -e 'open F, ">", shift; print F "PWNED"' ${p}`,
						(_p: string) => `find /workspace -type p -exec sh -c 'echo PWNED > "$1"' x {} \\;`,
					),
				)
				.map(([p, writer]) => `timeout 5 ${writer(p)}`),
			{ numRuns: 12, seed: 7 },
		);
		for (const line of new Set(fifoWriters)) {
			it(`a host FIFO gets nothing: ${line}`, () =>
				attack(
					`S1 fifo: ${line}`,
					async () => {
						await approvedShell(root, runner).run('run_command', { command: line });
						await new Promise(resolve => setTimeout(resolve, 200));
						const got = fs.readFileSync(received, 'utf8');
						return got.includes('PWNED') ? `a host process read "${got.trim()}" from the FIFO` : undefined;
					},
					KLASS,
				));
		}
		for (const line of [
			'head -c 16 dev/disk | od -An -tx1',
			'dd if=dev/disk bs=16 count=1 2>/dev/null | od -An -tx1',
			'head -c 16 dev/mem | od -An -tx1',
			'find /workspace -type b -exec head -c 16 {} \\; | od -An -tx1',
			'cat /workspace/dev/d* | head -c 16 | od -An -tx1',
		]) {
			it(`a device node gives nothing: ${line}`, () =>
				attack(
					`S1 device: ${line}`,
					async () => {
						const result = await approvedShell(root, runner).run('run_command', { command: line });
						const text = resultText(result);
						return /\b[0-9a-f]{2}( [0-9a-f]{2}){7}/.test(text)
							? `read a device: ${text.slice(0, 80)}`
							: undefined;
					},
					KLASS,
				));
		}
	});

	describe('a workspace that is, or reaches, an engine folder is refused', () => {
		const made: string[] = [];
		after(() => made.forEach(dir => fs.rmSync(dir, { recursive: true, force: true })));
		const home = () => {
			const dir = makeWorkspace({});
			made.push(dir);
			return dir;
		};
		const link = (target: string) => {
			const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-link-'));
			made.push(dir);
			fs.symlinkSync(target, path.join(dir, 'ws'));
			return path.join(dir, 'ws');
		};
		const cases: Array<[string, () => string]> = [
			['/run', () => '/run'],
			['/var/run', () => '/var/run'],
			['a link to /run', () => link('/run')],
			['a link to /var/run', () => link('/var/run')],
			['/', () => '/'],
			[
				'$XDG_RUNTIME_DIR',
				() => {
					const dir = home();
					process.env.XDG_RUNTIME_DIR = dir;
					return dir;
				},
			],
			[
				'~/.docker/run',
				() => {
					const dir = home();
					process.env.HOME = dir;
					fs.mkdirSync(path.join(dir, '.docker/run'), { recursive: true });
					return path.join(dir, '.docker/run');
				},
			],
			[
				'a link to ~/.colima',
				() => {
					const dir = home();
					process.env.HOME = dir;
					fs.mkdirSync(path.join(dir, '.colima/default'), { recursive: true });
					return link(path.join(dir, '.colima'));
				},
			],
			[
				'~/.rd/sub',
				() => {
					const dir = home();
					process.env.HOME = dir;
					fs.mkdirSync(path.join(dir, '.rd/sub'), { recursive: true });
					return path.join(dir, '.rd/sub');
				},
			],
		];
		for (const [name, make] of cases) {
			it(`refuses ${name}`, () =>
				attack(
					`S1 workspace ${name}`,
					async () => {
						const ws = make();
						const runner = wallRunner(ws);
						try {
							const result = await approvedShell(os.tmpdir(), runner).run('run_command', {
								command: 'echo RAN-$((6*7)); ls -a',
							});
							const text = resultText(result);
							return /RAN-42/.test(text) ? `mounted ${ws} and ran: ${text.slice(0, 100)}` : undefined;
						} finally {
							await runner.disposeAsync();
						}
					},
					KLASS,
				));
		}
	});
});
