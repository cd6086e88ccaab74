// A restore is a write like any other. Real git behind the checkpoints, real symlinks on a real
// disk: a folder becomes a link to somewhere the restore must never touch (outside the
// workspace, or a protected folder inside it), either because the checkpoint itself holds the
// link (restored before the files beneath it) or because it is swapped while a dialog waits;
// or the restored file itself becomes a symlink or a hard link to a file there.
// An attempt gets through when anything in the watched place changed.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Checkpoints } from '../../src/core/checkpoints/checkpoints';
import { defaultPathPolicy } from '../../src/core/gate/paths/pathPolicy';
import { tempTree, type TempTree } from '../support/tempTree';
import { checkpointsFor } from './support/gateWiring';
import { attack } from './tally';

const KLASS = 'gate: restores';
const CANARY = 'CANARY_RESTORE_4b1e';

/** Every file below `dir` with its content, so any write, delete or new file shows. */
function snapshotOf(dir: string): string {
	const out: string[] = [];
	const walk = (abs: string, rel: string) => {
		for (const entry of fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
			const child = path.join(abs, entry.name);
			const name = rel ? `${rel}/${entry.name}` : entry.name;
			if (entry.isDirectory()) walk(child, name);
			else
				out.push(
					`${name}=${entry.isSymbolicLink() ? `->${fs.readlinkSync(child)}` : fs.readFileSync(child, 'utf8')}`,
				);
		}
	};
	walk(dir, '');
	return out.join('\n');
}

interface Target {
	label: string;
	/** The watched place, relative to the test's base folder. */
	watched: string;
	/** The link's text for a link at `linkPath` (workspace-relative). */
	link(linkPath: string, base: string): string;
}

const up = (linkPath: string) => '../'.repeat(linkPath.split('/').length - 1);
const TARGETS: Target[] = [
	{ label: 'outside (relative)', watched: 'outside', link: p => `${up(p)}../outside` },
	{ label: 'outside (absolute)', watched: 'outside', link: (_p, base) => path.join(base, 'outside') },
	{ label: 'outside (through a link)', watched: 'outside', link: p => `${up(p)}hop` },
	{ label: '.git/hooks', watched: 'ws/.git/hooks', link: p => `${up(p)}.git/hooks` },
	{ label: '.vscode', watched: 'ws/.vscode', link: p => `${up(p)}.vscode` },
];

type Shape =
	| 'link in the checkpoint'
	| 'swap at the edit dialog'
	| 'swap at the protected dialog (yes)'
	| 'swap at the protected dialog (no)'
	| 'swap before a write'
	| 'the file becomes a link'
	| 'the file becomes a hard link';
const SHAPES: Shape[] = [
	'link in the checkpoint',
	'swap at the edit dialog',
	'swap at the protected dialog (yes)',
	'swap at the protected dialog (no)',
	'swap before a write',
	'the file becomes a link',
	'the file becomes a hard link',
];

describe('security (gate): a restore writes and deletes only what a write may', function () {
	this.timeout(60_000);
	let tree: TempTree;
	let storage: string;
	let ws: string;
	let checkpoints: Checkpoints;
	let turn = 0;

	beforeEach(() => {
		tree = tempTree('keel-g3-');
		storage = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-g3-store-'));
		ws = path.join(tree.base, 'ws');
		const planted = { f: CANARY, new: CANARY, 'sub/g': CANARY };
		for (const place of ['outside', 'ws/.git/hooks', 'ws/.vscode']) {
			for (const [name, content] of Object.entries(planted)) tree.add({ [`${place}/${name}`]: content });
		}
		tree.add({
			'ws/src/a.ts': 'a',
			'ws/conflict.txt': 'v1',
			'ws/.github/workflows/ci.yml': 'on: push',
			'ws/hop': { link: '../outside' },
		});
		checkpoints = checkpointsFor(ws, storage, defaultPathPolicy);
	});
	afterEach(() => {
		tree.cleanup();
		fs.rmSync(storage, { recursive: true, force: true });
	});

	async function recordTurn(change: () => void): Promise<string> {
		const id = `t${++turn}`;
		checkpoints.turnStarted('s', id);
		await checkpoints.beforeChange();
		change();
		const done = await checkpoints.turnFinished('s', id);
		if (!done) throw new Error('no checkpoint was taken');
		return id;
	}

	const swapToLink = (linkPath: string, target: Target) => {
		const abs = path.join(ws, linkPath);
		fs.rmSync(abs, { recursive: true, force: true });
		fs.mkdirSync(path.dirname(abs), { recursive: true });
		fs.symlinkSync(target.link(linkPath, tree.base), abs);
	};
	const write = (rel: string, content: string) => {
		fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
		fs.writeFileSync(path.join(ws, rel), content);
	};

	async function run(shape: Shape, linkPath: string, target: Target): Promise<void> {
		const at = (name: string) => `${linkPath}/${name}`;
		let id: string;
		switch (shape) {
			case 'link in the checkpoint':
				// The checkpoint holds the link; the turn put a folder with files in its place.
				swapToLink(linkPath, target);
				id = await recordTurn(() => {
					fs.rmSync(path.join(ws, linkPath));
					write(at('f'), 'turn');
					write(at('new'), 'turn');
					write(at('sub/g'), 'turn');
				});
				await checkpoints.restore(
					's',
					id,
					async () => 'overwrite',
					async () => true,
				);
				return;
			case 'swap at the edit dialog':
				write(at('keep'), 'k');
				id = await recordTurn(() => {
					write(at('new'), 'turn');
					write(at('sub/g'), 'turn');
					write('conflict.txt', 'v2');
				});
				write('conflict.txt', 'mine');
				await checkpoints.restore('s', id, async () => (swapToLink(linkPath, target), 'overwrite'));
				return;
			case 'swap at the protected dialog (yes)':
			case 'swap at the protected dialog (no)':
				id = await recordTurn(() => {
					write(at('new'), 'turn');
					write('.github/workflows/ci.yml', 'on: pull_request');
				});
				await checkpoints.restore(
					's',
					id,
					async () => 'overwrite',
					async () => (swapToLink(linkPath, target), shape.endsWith('(yes)')),
				);
				return;
			case 'swap before a write':
				write(at('f'), 'v1');
				id = await recordTurn(() => {
					write(at('f'), 'v2');
					write('conflict.txt', 'v2');
				});
				write('conflict.txt', 'mine');
				await checkpoints.restore('s', id, async () => (swapToLink(linkPath, target), 'overwrite'));
				return;
			case 'the file becomes a link':
			case 'the file becomes a hard link':
				// The restored file itself, while the edit dialog waits: a link to a file in the watched place.
				write(linkPath, 'v1');
				id = await recordTurn(() => {
					write(linkPath, 'v2');
					write('conflict.txt', 'v2');
				});
				write('conflict.txt', 'mine');
				await checkpoints.restore('s', id, async () => {
					const abs = path.join(ws, linkPath);
					fs.rmSync(abs);
					if (shape === 'the file becomes a link')
						fs.symlinkSync(`${target.link(linkPath, tree.base)}/f`, abs);
					else fs.linkSync(path.join(tree.base, target.watched, 'f'), abs);
					return 'overwrite';
				});
				return;
		}
	}

	for (const target of TARGETS) {
		for (const linkPath of ['d', 'x/d']) {
			for (const shape of SHAPES) {
				it(`${shape}: ${linkPath} → ${target.label}`, () =>
					attack(
						`restore ${shape} ${linkPath} → ${target.label}`,
						async () => {
							const before = snapshotOf(path.join(tree.base, target.watched));
							await run(shape, linkPath, target).catch(() => undefined);
							const after = snapshotOf(path.join(tree.base, target.watched));
							return after !== before ? `${target.watched} changed:\n${after}` : undefined;
						},
						KLASS,
					));
			}
		}
	}
});
