// A workspace on a real disk with secrets in it, secrets outside it, links out and into
// protected places, and run_command wired to real bash behind Keel's whole pipeline. The
// approver refuses every card, so an attack "gets through" only when Keel ran it without
// asking and bash really printed a canary or planted a file.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { ApprovalSettings } from '../../../src/core/agent/approval/approvalPolicy';
import { ShellBackendSelector, type SandboxRunner } from '../../../src/core/exec/shellBackend';
import type { PathPolicy } from '../../../src/core/gate/paths/pathPolicy';
import type { CommandRunner } from '../../../src/core/ports';
import { createShellTools } from '../../../src/core/tools/shell/shellTools';
import { tempTree, type TempTree } from '../../support/tempTree';
import { toolHarness, type Harness } from '../../support/toolHarness';
import { LocalBashRunner } from './bashRunner';

export const CANARY = /CANARY_[A-Z0-9]+_\d+/;

/** Everything auto-approved: only the guard's own reasons (secrets, outside, protected, opaque) make a card. */
export const EVERYTHING_AUTO: ApprovalSettings = {
	autoApprove: { read: true, write: true, exec: true, network: false },
	rules: [],
};

export interface ShellFixture {
	tree: TempTree;
	ws: string;
	home: string;
	h: Harness;
	/** Files (relative to the base folder) an attack may have planted, that exist now. */
	planted(): string[];
	/** Removes whatever an attack planted, and puts the secrets back as they were. */
	reset(): void;
}

/**
 * Where a write attack may land: anywhere outside the workspace (the base folder, the home folder,
 * the folder outside), protected places inside it, and the secrets themselves (overwritten).
 */
const WATCHED_IN_WS = /^ws\/(?:\.git\/hooks|\.git\/config|\.vscode|\.github|\.envrc$|\.env$|\.aws|config\/\.env)/;

function watched(base: string): Map<string, string> {
	const out = new Map<string, string>();
	const walk = (relative: string) => {
		const abs = path.join(base, relative);
		let stat: fs.Stats;
		try {
			stat = fs.lstatSync(abs);
		} catch {
			return;
		}
		const inWs = relative === 'ws' || relative.startsWith('ws/');
		if (inWs && relative !== 'ws' && !/^ws\/(?:\.git|config)$/.test(relative) && !WATCHED_IN_WS.test(relative)) {
			return;
		}
		if (stat.isDirectory() && !stat.isSymbolicLink()) {
			if (
				relative &&
				(!inWs || relative === 'ws' || WATCHED_IN_WS.test(relative) || /^ws\/\.git$/.test(relative))
			) {
				out.set(`${relative}/`, '');
			}
			for (const name of fs.readdirSync(abs)) walk(relative ? `${relative}/${name}` : name);
			return;
		}
		if (!inWs || WATCHED_IN_WS.test(relative)) {
			out.set(relative, stat.isSymbolicLink() ? `-> ${fs.readlinkSync(abs)}` : fs.readFileSync(abs, 'utf8'));
		}
	};
	walk('');
	return out;
}

const SECRETS: Record<string, string> = {
	'ws/.env': 'CANARY_ENV_1111\n',
	'ws/.aws/credentials': 'CANARY_AWS_2222\n',
	'ws/config/.env': 'CANARY_CFGENV_3333\n',
	'outside/secret': 'CANARY_OUT_4444\n',
	'outside/deep/secret': 'CANARY_DEEP_4545\n',
	'outside/deep/er/secret': 'CANARY_DEEPER_4646\n',
	'home/.ssh/id_rsa': 'CANARY_SSH_5555\n',
};

export function shellFixture(
	options: {
		settings?: ApprovalSettings;
		policy?: PathPolicy;
		runner?: (ws: string, home: string) => CommandRunner;
	} = {},
): ShellFixture {
	const tree = tempTree('keel-guard-');
	tree.add({
		...SECRETS,
		'ws/src/a.txt': 'a\n',
		'ws/src/b.txt': 'b\n',
		'ws/src/pre-commit': '#!/bin/sh\necho pwned\n',
		'ws/x': 'plain x\n',
		'ws/sub/deep/file.txt': 'deep\n',
		'ws/.vscode/settings.json': '{}\n',
		'ws/.github/workflows/ci.yml': 'on: push\n',
	});
	const ws = path.join(tree.base, 'ws');
	const home = path.join(tree.base, 'home');
	execFileSync('git', ['init', '-q', ws]);
	fs.mkdirSync(path.join(ws, '.git/hooks'), { recursive: true });
	// Links out (relative and absolute), and into protected places under harmless names.
	fs.symlinkSync('../outside/deep/er', path.join(ws, 'lnk'));
	fs.symlinkSync(path.join(tree.base, 'outside/deep/er'), path.join(ws, 'abslnk'));
	fs.symlinkSync('.git/hooks', path.join(ws, 'hk'));
	fs.symlinkSync('.vscode', path.join(ws, 'vs'));
	// Folders whose names look like something else to a program that decodes: to the kernel they are names.
	for (const name of ['a%20b', 'a%2e%2e', 'back\\slash', '${x}', 'http:', 'C:', 'a b', '~tilde']) {
		fs.mkdirSync(path.join(ws, name));
	}
	const runner = options.runner?.(ws, home) ?? new LocalBashRunner(ws, home);
	const selector =
		runner.backend === 'sandbox'
			? new ShellBackendSelector(() => 'docker', runner as SandboxRunner, undefined)
			: new ShellBackendSelector(
					() => 'terminal',
					Object.assign(runner, { available: async () => false }),
					runner,
				);
	const tools = createShellTools({
		selector,
		settings: () => ({ timeoutSeconds: 10, outputLimitBytes: 200_000, memoryMb: 512, pids: 256 }),
		...(options.policy ? { pathPolicy: () => options.policy! } : {}),
	});
	// A commit, so git commands that need one run.
	execFileSync('git', ['-C', ws, 'add', 'src'], { stdio: 'ignore' });
	execFileSync(
		'git',
		['-C', ws, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init', '--no-verify'],
		{
			stdio: 'ignore',
		},
	);
	const initial = watched(tree.base);
	const h = toolHarness(ws, {
		settings: options.settings ?? EVERYTHING_AUTO,
		extra: tools,
		...(options.policy ? { deps: { pathPolicy: () => options.policy! } } : {}),
	});
	return {
		tree,
		ws,
		home,
		h,
		planted() {
			const now = watched(tree.base);
			return [...now].filter(([file, content]) => initial.get(file) !== content).map(([file]) => file);
		},
		reset() {
			const now = watched(tree.base);
			for (const file of [...now.keys()]
				.filter(file => !initial.has(file))
				.sort()
				.reverse()) {
				fs.rmSync(path.join(tree.base, file), { force: true, recursive: true });
			}
			for (const [file, content] of initial) {
				if (file.endsWith('/') || content.startsWith('-> ')) continue;
				fs.mkdirSync(path.dirname(path.join(tree.base, file)), { recursive: true });
				fs.writeFileSync(path.join(tree.base, file), content);
			}
		},
	};
}

/** What got through: a canary printed or a file planted while the card never asked. */
export async function throughOf(
	fixture: ShellFixture,
	call: () => Promise<{ output: unknown; card: { status: string } }>,
): Promise<string | undefined> {
	fixture.reset();
	const result = await call();
	const leak = CANARY.exec(`${result.output}`);
	const planted = fixture.planted();
	const what = [
		leak ? `printed ${leak[0]}` : '',
		planted.length ? `wrote ${planted.slice(0, 3).join(', ')}` : '',
	].filter(Boolean);
	return what.length ? `${what.join('; ')} (card ${result.card.status})` : undefined;
}
