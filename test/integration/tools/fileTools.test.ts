// The file tools end to end on a real disk: registry → prepare (diff) → approval → execute.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { tempTree, type TempTree } from '../../support/tempTree';
import { toolHarness } from '../../support/toolHarness';

describe('file tools on a real workspace', () => {
	let tree: TempTree;
	let ws: string;
	const asking = { autoApprove: { read: true } };

	beforeEach(() => {
		tree = tempTree('keel-files-');
		ws = path.join(tree.base, 'ws');
		tree.add({
			'ws/src/app.ts': 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n',
			'ws/README.md': '# hi\n',
			'ws/src/link': { link: 'app.ts' },
		});
	});
	afterEach(() => tree.cleanup());

	it('write_file shows the diff on the card before approval and writes exactly that', async () => {
		const h = toolHarness(ws, { settings: asking });
		h.approver.answer = { approved: true };
		const result = await h.run('write_file', { path: 'src/new.ts', content: 'export {};\n' });
		assert.ok(result.ok, result.output);
		const asked = h.events.find(e => e.type === 'toolCallUpdated' && e.call.status === 'awaitingApproval');
		assert.ok(asked && asked.type === 'toolCallUpdated');
		assert.match(asked.call.diffs![0].unified, /\+\+\+ b\/src\/new\.ts[\s\S]*\+export \{\};/);
		assert.strictEqual(tree.read('ws/src/new.ts'), asked.call.diffs![0].after);
	});

	it('approval applies what was shown: a file changed while the card waited is not overwritten', async () => {
		const h = toolHarness(ws, { settings: asking });
		h.approver.request = async () => {
			fs.writeFileSync(path.join(ws, 'src/app.ts'), 'changed by the user\n');
			return { approved: true };
		};
		const result = await h.run('edit_file', {
			path: 'src/app.ts',
			old_string: 'const b = 2;',
			new_string: 'const b = 3;',
		});
		assert.strictEqual(result.ok, false);
		assert.match(result.output, /changed after the diff was shown; nothing was written/);
		assert.strictEqual(tree.read('ws/src/app.ts'), 'changed by the user\n');
	});

	it('edit_file: exact match once; otherwise says how many and where', async () => {
		const h = toolHarness(ws);
		const many = await h.run('edit_file', { path: 'src/app.ts', old_string: '= 1;', new_string: '= 9;' });
		assert.match(many.output, /occurs 2 times in src\/app\.ts \(lines 1, 3\)/);
		const none = await h.run('edit_file', { path: 'src/app.ts', old_string: 'const  b', new_string: 'x' });
		assert.match(none.output, /not found in src\/app\.ts/);
		const indent = await h.run('edit_file', {
			path: 'src/app.ts',
			old_string: '  const b = 2;\n',
			new_string: 'x',
		});
		assert.match(indent.output, /occurs at line 2: check indentation/);
		const done = await h.run('edit_file', {
			path: 'src/app.ts',
			old_string: 'const b = 2;',
			new_string: 'const b = 3;',
		});
		assert.ok(done.ok);
		assert.strictEqual(tree.read('ws/src/app.ts'), 'const a = 1;\nconst b = 3;\nconst a2 = 1;\n');
		const all = await h.run('edit_file', {
			path: 'src/app.ts',
			old_string: '= 1;',
			new_string: '= 7;',
			replace_all: true,
		});
		assert.ok(all.ok);
		assert.strictEqual(tree.read('ws/src/app.ts'), 'const a = 7;\nconst b = 3;\nconst a2 = 7;\n');
	});

	it('create, copy, move and delete inside the workspace', async () => {
		const h = toolHarness(ws);
		assert.ok((await h.run('create_directory', { path: 'lib/deep' })).ok);
		assert.ok((await h.run('copy_path', { from: 'src/app.ts', to: 'lib/app.ts' })).ok);
		assert.match((await h.run('copy_path', { from: 'src/app.ts', to: 'lib/app.ts' })).output, /already exists/);
		assert.ok((await h.run('move_path', { from: 'lib/app.ts', to: 'lib/deep/moved.ts' })).ok);
		assert.ok(fs.existsSync(path.join(ws, 'lib/deep/moved.ts')) && !fs.existsSync(path.join(ws, 'lib/app.ts')));
		assert.match((await h.run('delete_path', { path: 'lib' })).output, /folder with 1 entries.*recursive: true/);
		assert.ok((await h.run('delete_path', { path: 'lib', recursive: true })).ok);
		assert.ok(!fs.existsSync(path.join(ws, 'lib')));
	});

	it('list_directory marks symlinks without following them', async () => {
		const h = toolHarness(ws);
		assert.strictEqual((await h.run('list_directory', { path: 'src' })).output, 'app.ts\nlink@');
	});

	it('read_file points at grep for huge files instead of loading them', async () => {
		const fd = fs.openSync(path.join(ws, 'huge.log'), 'w');
		fs.ftruncateSync(fd, 21 * 1024 * 1024);
		fs.closeSync(fd);
		const result = await toolHarness(ws).run('read_file', { path: 'huge.log' });
		assert.match(result.output, /21 MB, too large to read\. Search it with grep/);
	});

	it('reads are cached for the session and dropped by a write to the path they cover', async () => {
		const h = toolHarness(ws);
		const signal = new AbortController().signal;
		await h.run('read_file', { path: 'README.md' }, signal);
		fs.writeFileSync(path.join(ws, 'README.md'), '# changed behind our back\n');
		const again = await h.run('read_file', { path: 'README.md' }, signal);
		assert.match(again.output, /# hi/);
		assert.strictEqual(again.card.cached, true);
		await h.run('write_file', { path: 'other.txt', content: 'x' }, signal);
		assert.match(
			(await h.run('read_file', { path: 'README.md' }, new AbortController().signal)).output,
			/# hi/,
			'another file and another turn: still cached',
		);
		await h.run('write_file', { path: 'README.md', content: '# written\n' }, signal);
		const fresh = await h.run('read_file', { path: 'README.md' }, signal);
		assert.match(fresh.output, /# written/);
		assert.strictEqual(fresh.card.cached, undefined);
	});
});
