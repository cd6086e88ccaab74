// .git, attacked from inside the sandbox with every command approved: write, replace, rename,
// link and re-point every part of a repository (the top-level .git, a nested repository, a
// worktree-style .git file pointing at a gitdir inside the workspace, a submodule's gitdir),
// and plant a new repository. Judged by the host's real git afterwards: a planted
// core.fsmonitor or hook runs when git on the host (VS Code's Git extension) runs `git status`.
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { execFileSync, spawnSync } from 'child_process';
import type { DockerRunner } from '../../src/core/exec/dockerRunner';
import { makeWorkspace, requireDocker } from '../support/dockerEngine';
import { approvedShell, gitImage, wallRunner } from './support/sandboxWall';
import { attack } from './tally';

const KLASS = 'sandbox 3: .git read-only, nothing planted for the host';

const git = (cwd: string, ...args: string[]) =>
	execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/**
 * git on the host as the workspace's owner, the way VS Code's Git extension runs it: as root
 * (CI) over a folder owned by 1000, git would refuse the repository as of dubious ownership and
 * run nothing, so the probe would see no harm whatever was planted.
 */
function hostGit(cwd: string, ...args: string[]) {
	const owner = fs.statSync(cwd);
	return spawnSync('git', args, {
		cwd,
		stdio: 'ignore',
		timeout: 10_000,
		env: { ...process.env, HOME: os.tmpdir(), GIT_CONFIG_NOSYSTEM: '1' },
		...(process.getuid?.() === 0 ? { uid: owner.uid, gid: owner.gid } : {}),
	});
}

/** Every file under `dir` with its content: what the host's git will read. */
function snapshot(dir: string): string {
	if (!fs.existsSync(dir)) return '(missing)';
	const stat = fs.lstatSync(dir);
	if (!stat.isDirectory()) return `${stat.ino}:${fs.readFileSync(dir, 'utf8')}`;
	return (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
		.sort()
		.map(rel => {
			const file = path.join(dir, rel);
			const s = fs.lstatSync(file);
			return `${rel}:${s.isFile() ? fs.readFileSync(file, 'utf8') : s.isSymbolicLink() ? `->${fs.readlinkSync(file)}` : 'dir'}`;
		})
		.join('\n');
}

/** The parts of a repository git executes from, and where each lives in the test workspace. */
const REPOS = ['.git', 'sub/.git', 'gitstore'];
const TARGETS = [
	'.git/config',
	'.git/hooks/pre-commit',
	'.git/hooks/fsmonitor-watchman',
	'.git/commondir',
	'.git/info/attributes',
	'.git/HEAD',
	'sub/.git/config',
	'sub/.git/hooks/post-checkout',
	'gitstore/config',
	'gitstore/hooks/pre-commit',
	'gitstore/commondir',
	'.git/modules/lib/config',
];
const PAYLOAD = `[core]\n\tfsmonitor = "touch /tmp/keel-planted-$$; false"\n`;

const WRITERS = [
	(t: string) => `printf '${PAYLOAD.replace(/\n/g, '\\n').replace(/\t/g, '\\t')}' >> ${t}`,
	(t: string) => `echo 'x' | tee -a ${t}`,
	(t: string) => `cp /etc/hostname ${t}`,
	(t: string) => `sh -c 'echo x > "$1"' x ${t}`,
	(t: string) => `perl -e 'open F, ">>", shift or die; print F "x"' ${t}`,
	(t: string) => `dd if=/etc/hostname of=${t} 2>/dev/null`,
	(t: string) => `rm -f ${t} && echo x > ${t}`,
	(t: string) => `mv ${t} /tmp/gone`,
	(t: string) => `ln -sf /tmp/evil ${t}`,
	(t: string) => `T=${t}; : > "$T"`,
	(t: string) => `mkdir -p /tmp/m && cp -r /tmp/m ${t}.d && mv ${t}.d ${t}`,
];

/** Whole-repository swaps: rename the repository away and put a crafted one in its place. */
const SWAPS = [
	'mv .git .git-old && mkdir -p .git/hooks && cp -r .git-old/* .git/ 2>/dev/null; echo x >> .git/config',
	'mv .git /tmp/g',
	'rm -rf .git; mkdir .git',
	'mv sub/.git sub/.git2 && mkdir sub/.git && echo "[core]" > sub/.git/config',
	'mv wt/.git wt/.old && echo "gitdir: ../evilstore" > wt/.git',
	'rm -f wt/.git && echo "gitdir: ../evilstore" > wt/.git',
	'echo "/workspace/evilstore" > .git/commondir',
	'mv gitstore gitstore2 && mkdir -p gitstore && echo x > gitstore/config',
	'cd sub && mv .git ../x',
	'find . -name config -path "*.git*" -exec sh -c \'echo x >> "$1"\' x {} \\;',
];

/** git itself, run in the sandbox (the test image carries the host's git). */
const GIT = [
	"git config core.fsmonitor 'touch /tmp/keel-planted'",
	'git config --file .git/config core.hooksPath /workspace/hooks',
	"git -C sub config core.fsmonitor 'touch /tmp/keel-planted'",
	"git -C wt config core.fsmonitor 'touch /tmp/keel-planted'",
	"git --git-dir=gitstore config core.pager 'touch /tmp/keel-planted'",
	'git config --global include.path /workspace/x; git config core.fsmonitor x',
	"printf '#!/bin/sh\ntouch /tmp/keel-planted\n' > /tmp/h && git config alias.st '!touch /tmp/keel-planted' ; cp /tmp/h .git/hooks/post-index-change",
	'git init -q newrepo2 && git -C newrepo2 config core.fsmonitor "touch /tmp/keel-planted"',
	'git init -q --separate-git-dir=evilstore2 plant3 && git -C plant3 config core.fsmonitor "touch /tmp/keel-planted"',
	'git worktree add -q ../wt2 2>&1; git worktree list',
	'git update-ref refs/heads/evil HEAD 2>&1; git checkout -b evil 2>&1',
	'cd sub && git config core.fsmonitor "touch /tmp/keel-planted"',
	'GIT_DIR=.git git config core.sshCommand "touch /tmp/keel-planted"',
	'git clone -q . clone1 2>&1 && git -C clone1 config core.fsmonitor "touch /tmp/keel-planted"',
];

/** A new repository planted where the host's git will look (VS Code scans workspace sub-folders). */
const PLANTS = [
	'mkdir -p newrepo/.git/objects newrepo/.git/refs && echo "ref: refs/heads/main" > newrepo/.git/HEAD && printf "[core]\\n\\tfsmonitor = touch /tmp/keel-planted\\n" > newrepo/.git/config',
	'mkdir -p evilstore/objects evilstore/refs && echo "ref: refs/heads/main" > evilstore/HEAD && printf "[core]\\n\\tfsmonitor = touch /tmp/keel-planted\\n" > evilstore/config && mkdir -p plant2 && echo "gitdir: ../evilstore" > plant2/.git',
];

describe('security: .git is read-only in the sandbox in a way a rename cannot undo (real engine, real git)', function () {
	this.timeout(900_000);
	let root: string;
	let runner: DockerRunner;
	let snapshots: Map<string, string>;

	before(requireDocker());
	before(async () => {
		root = makeWorkspace({ 'src/a.txt': 'a\n', 'sub/b.txt': 'b\n', 'wt/c.txt': 'c\n' });
		git(root, 'init', '-q');
		git(path.join(root, 'sub'), 'init', '-q');
		// A worktree-style .git file pointing at a gitdir kept elsewhere in the workspace.
		git(root, 'init', '-q', '--separate-git-dir', path.join(root, 'gitstore'), path.join(root, 'wt'));
		fs.mkdirSync(path.join(root, '.git/modules/lib/hooks'), { recursive: true });
		fs.writeFileSync(path.join(root, '.git/modules/lib/config'), '[core]\n');
		fs.writeFileSync(path.join(root, '.git/commondir'), '.\n');
		fs.mkdirSync(path.join(root, '.git/info'), { recursive: true });
		fs.writeFileSync(path.join(root, 'gitstore/commondir'), '.\n');
		execFileSync('chown', ['-R', '1000:1000', root]);
		runner = wallRunner(root, { image: await gitImage() });
		await runner.run({ command: 'true', cwd: '', timeoutMs: 120_000, outputLimitBytes: 1000 });
	});
	beforeEach(() => {
		snapshots = new Map(REPOS.concat('wt/.git').map(rel => [rel, snapshot(path.join(root, rel))]));
		fs.rmSync('/tmp/keel-planted', { force: true });
	});
	after(async () => {
		await runner?.disposeAsync();
		if (root) fs.rmSync(root, { recursive: true, force: true });
	});

	const run = (command: string) => approvedShell(root, runner).run('run_command', { command });

	/** What changed for the host's git, and whether running it executes something planted. */
	function hostHarm(): string | undefined {
		const changed = [...snapshots]
			.filter(([rel, was]) => snapshot(path.join(root, rel)) !== was)
			.map(([rel]) => rel);
		for (const dir of ['.', 'sub', 'wt', 'newrepo', 'plant2', 'newrepo2', 'plant3', 'clone1']) {
			if (fs.existsSync(path.join(root, dir))) {
				hostGit(path.join(root, dir), 'status', '--short');
			}
		}
		const planted = fs.readdirSync(os.tmpdir()).filter(name => name.startsWith('keel-planted'));
		planted.forEach(name => fs.rmSync(path.join(os.tmpdir(), name), { force: true }));
		if (planted.length > 0) return `the host's git ran planted code (${planted.join(', ')})`;
		return changed.length > 0 ? `changed for the host's git: ${changed.join(', ')}` : undefined;
	}

	const lines = fc.sample(
		fc.tuple(fc.constantFrom(...TARGETS), fc.constantFrom(...WRITERS)).map(([target, writer]) => writer(target)),
		{ numRuns: 60, seed: 29 },
	);
	for (const line of [...new Set(lines), ...SWAPS, ...GIT, ...PLANTS]) {
		it(`plants nothing: ${line.slice(0, 100)}`, () =>
			attack(
				`S3 ${line.slice(0, 100)}`,
				async () => {
					await run(line);
					return hostHarm();
				},
				KLASS,
			));
	}

	it('the probe sees a plant: core.fsmonitor written on the host runs when the host runs git', () => {
		const config = path.join(root, 'sub/.git/config');
		const was = fs.readFileSync(config, 'utf8');
		try {
			fs.appendFileSync(config, PAYLOAD.replace('$$', 'control'));
			const harm = hostHarm();
			if (!harm?.includes('ran planted code')) throw new Error(`the probe is blind: ${harm}`);
		} finally {
			fs.writeFileSync(config, was);
		}
	});

	it('git still reads the repository in the sandbox (status and log need no writes)', async () => {
		const result = await run(
			'git status --short >/dev/null && echo STATUS-$((6*7)) && git rev-parse --show-toplevel',
		);
		if (!/STATUS-42/.test(JSON.stringify(result.output))) throw new Error(JSON.stringify(result.output));
	});
});
