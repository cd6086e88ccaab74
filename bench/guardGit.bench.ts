/**
 * What judging a command line costs now that git is asked what a git command will print (and
 * every word is walked as the kernel walks it): the analysis run_command does before its card,
 * on a repository of 10 000 files and 1 000 commits whose history once held a `.env`. The
 * "git" column is the time the git questions add (the same analysis with git answering nothing
 * subtracted); the reference is the whole analysis of a line that asks git nothing.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Gate } from '../src/core/gate/gate';
import { GitOracle, type GitQuestions } from '../src/core/gate/gitOracle';
import { defaultPathPolicy } from '../src/core/gate/paths/pathPolicy';
import { loadBashParser } from '../src/core/shell/bashParser';
import { NodeWorkspace } from '../src/core/tools/files/nodeWorkspace';
import { wordReasons } from '../src/core/tools/shell/shellReasons';
import { percentile, printTable, timeIt } from './table';

export const title = 'Judging a command line: the time asking git adds (10 000 files, 1 000 commits)';

const FILES = 10_000;
const COMMITS = 1_000;
const RUNS = 20;
const BUDGET_MS = 250;

/** The repository, written with git fast-import (one stream, seconds instead of minutes). */
function buildRepository(root: string): void {
	execFileSync('git', ['init', '-q', '-b', 'main', root]);
	const lines: string[] = [];
	const blob = (text: string) => `data ${Buffer.byteLength(text)}\n${text}`;
	let when = 1_700_000_000;
	const commit = (message: string, changes: string[]) => {
		lines.push('commit refs/heads/main', `committer b <b@b> ${when++} +0000`, blob(message), ...changes, '');
	};
	const first: string[] = [];
	for (let i = 0; i < FILES; i++)
		first.push(`M 100644 inline dir${i % 100}/file${i}.ts`, blob(`export const v${i} = ${i};\n`));
	commit('initial', first);
	for (let c = 1; c < COMMITS; c++) {
		const changes: string[] = [];
		for (let k = 0; k < 10; k++) {
			const i = (c * 37 + k * 101) % FILES;
			changes.push(`M 100644 inline dir${i % 100}/file${i}.ts`, blob(`export const v${i} = ${c};\n`));
		}
		// Once, long ago, a secret was committed and removed again.
		if (c === COMMITS / 2) changes.push('M 100644 inline .env', blob('TOKEN=bench\n'));
		if (c === COMMITS / 2 + 1) changes.push('D .env');
		commit(`change ${c}`, changes);
	}
	execFileSync('git', ['-C', root, 'fast-import', '--quiet'], { input: lines.join('\n'), maxBuffer: 1 << 30 });
	execFileSync('git', ['-C', root, 'checkout', '-q', '-f', 'main']);
}

/** git that answers nothing: the same analysis without the git questions, for the difference. */
const silentGit: GitQuestions = { ask: async () => undefined, repository: async () => undefined };

const LINES = [
	'git status',
	'git log --oneline -20',
	'git diff',
	'git diff --stat',
	'git show',
	'git log -p -5',
	'git log -p',
	'git grep -n export -- dir1',
	'git show HEAD~3:dir1/file1.ts',
	'git blame dir1/file1.ts',
	'cat dir1/file1.ts',
	"awk '{print $1}' dir1/file1.ts",
];

export async function run(): Promise<void> {
	const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-bench-git-')));
	try {
		const root = path.join(base, 'repo');
		buildRepository(root);
		await loadBashParser();
		const workspace = new NodeWorkspace(root);
		const gate = new Gate({ policy: () => defaultPathPolicy });
		const guard = gate.files(workspace);
		const git = new GitOracle();
		const rows: Array<Array<string | number>> = [];
		for (const line of LINES) {
			const asked: number[] = [];
			const without: number[] = [];
			let reasons: string[] = [];
			for (let i = 0; i < RUNS; i++) {
				asked.push(
					await timeIt(
						async () =>
							(reasons = await wordReasons(line, '', { guard, workspace, gate, git }, 'terminal')),
					),
				);
				without.push(
					await timeIt(() => wordReasons(line, '', { guard, workspace, gate, git: silentGit }, 'terminal')),
				);
			}
			const p50 = percentile(asked, 0.5);
			rows.push([
				line,
				p50 - percentile(without, 0.5),
				p50,
				percentile(asked, 0.95),
				reasons.length ? 'asks' : 'runs',
			]);
		}
		printTable(
			['command', 'git p50 (ms)', 'total p50', 'total p95', 'verdict'],
			[...rows, ['budget (per git command)', BUDGET_MS, '', '', '']],
		);
		console.log(
			`\nn=${RUNS} each; the whole analysis also runs once more when an approved command starts (the re-check).`,
		);
	} finally {
		fs.rmSync(base, { recursive: true, force: true });
	}
}
