/**
 * Checkpoints: what a changing turn pays before its first file tool runs. A workspace of
 * 2,000 source files (4 KB each) and 200 more under node_modules (excluded): the first
 * snapshot (every file hashed into the shadow repository, once per workspace), a snapshot
 * after one file changed (the common case: every later turn), the diff of a turn, and
 * restores of 10 and 200 files, the latter beside git's own ungated checkout of the same files.
 * Budget: a later snapshot should stay well under the time a user waits for an approval card
 * (< 300 ms); the first one is paid once, in the background at turn start. A gated restore
 * should cost what the ungated one did before the gate (237 ms for 200 files).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CheckpointStore } from '../src/core/checkpoints/checkpointStore';
import { percentile, printTable, timeIt } from './table';

export const title = 'Checkpoints (shadow git repository, git CLI)';

export async function run(): Promise<void> {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-cp-bench-'));
	const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-cp-bench-store-'));
	try {
		const body = 'export const value = 1;\n'.repeat(170);
		for (let i = 0; i < 2000; i++) {
			const file = path.join(root, `src/dir${i % 40}/module${i}.ts`);
			fs.mkdirSync(path.dirname(file), { recursive: true });
			fs.writeFileSync(file, body);
		}
		for (let i = 0; i < 200; i++) {
			fs.mkdirSync(path.join(root, 'node_modules/pkg'), { recursive: true });
			fs.writeFileSync(path.join(root, `node_modules/pkg/f${i}.js`), body);
		}
		let store!: CheckpointStore;
		const open = await timeIt(
			async () => (store = await CheckpointStore.open(path.join(storage, 'shadow.git'), root)),
		);
		let first = '';
		const firstMs = await timeIt(async () => (first = (await store.snapshot('bench/first', 'first')).commit));
		const later: number[] = [];
		let last = first;
		for (let i = 0; i < 5; i++) {
			fs.writeFileSync(path.join(root, `src/dir0/module${i * 40}.ts`), `${body}// change ${i}\n`);
			later.push(await timeIt(async () => (last = (await store.snapshot(`bench/later${i}`, 'later')).commit)));
		}
		const unchanged = await timeIt(() => store.snapshot('bench/same', 'same'));
		const diffMs = await timeIt(() => store.diff(first, last));
		for (let i = 0; i < 10; i++) {
			fs.writeFileSync(path.join(root, `src/dir1/module${1 + i * 40}.ts`), 'changed\n');
		}
		const files = Array.from({ length: 10 }, (_, i) => `src/dir1/module${1 + i * 40}.ts`);
		const restoreMs = await timeIt(() => store.checkout(first, files));
		const many = Array.from({ length: 200 }, (_, i) => `src/dir${i % 40}/module${i}.ts`);
		// Medians of five, alternating with the reference: git's own checkout of the same files, which
		// is what a restore ran before every write passed the gate (237 ms then; 430-480 ms once gated).
		const gated: number[] = [];
		const plain: number[] = [];
		for (let i = 0; i < 5; i++) {
			many.forEach(file => fs.writeFileSync(path.join(root, file), 'changed\n'));
			gated.push(await timeIt(() => store.checkout(first, many)));
			many.forEach(file => fs.writeFileSync(path.join(root, file), 'changed\n'));
			plain.push(
				await timeIt(() =>
					store.git.run(
						['checkout', first, '--pathspec-from-file=-', '--pathspec-file-nul'],
						many.join('\0'),
					),
				),
			);
		}
		const reopen = await timeIt(async () => {
			await CheckpointStore.open(path.join(storage, 'shadow.git'), root);
		});
		printTable(
			['operation', 'ms', 'budget'],
			[
				['open (git init on first use)', open, ''],
				['open again (nothing to purge)', reopen, ''],
				['first snapshot, 2,000 files (8 MB)', firstMs, 'once per workspace'],
				['snapshot after one file changed (median of 5)', later.sort((a, b) => a - b)[2], '< 300'],
				['snapshot, nothing changed', unchanged, '< 300'],
				['diff of a turn', diffMs, ''],
				['restore 10 files', restoreMs, ''],
				['restore 200 files, every write gated (median of 5)', percentile(gated, 0.5), '≤ 250'],
				['git checkout of the same 200 files, ungated (reference)', percentile(plain, 0.5), ''],
			],
		);
	} finally {
		fs.rmSync(root, { recursive: true, force: true });
		fs.rmSync(storage, { recursive: true, force: true });
	}
}
