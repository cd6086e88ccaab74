// The guard's walk of a path is the kernel's: on a real folder with links inside and out,
// generated paths full of `..` after links land where libc's realpath(3) says they do.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { kernelWalk } from '../../../../../src/core/gate/paths/kernelWalk';
import { PathRefused, WorkspaceGuard } from '../../../../../src/core/gate/paths/paths';
import { defaultPathPolicy } from '../../../../../src/core/gate/paths/pathPolicy';
import { NodeWorkspace } from '../../../../../src/core/tools/files/nodeWorkspace';

describe('kernel walk', () => {
	let base: string;
	let root: string;
	let workspace: NodeWorkspace;
	before(() => {
		base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-walk-')));
		root = path.join(base, 'ws');
		for (const dir of ['ws/a/b/c', 'ws/d', 'out/e/f']) fs.mkdirSync(path.join(base, dir), { recursive: true });
		for (const file of ['ws/a/b/c/x', 'ws/d/x', 'ws/x', 'out/e/f/x', 'out/e/x', 'out/x'])
			fs.writeFileSync(path.join(base, file), '');
		fs.symlinkSync('a/b/c', path.join(root, 'in'));
		fs.symlinkSync('../out/e/f', path.join(root, 'rel'));
		fs.symlinkSync(path.join(base, 'out/e'), path.join(root, 'abs'));
		fs.symlinkSync('../../d', path.join(root, 'a/b/up'));
		workspace = new NodeWorkspace(root);
	});
	after(() => fs.rmSync(base, { recursive: true, force: true }));

	it('lands where realpath(3) lands, for every generated path', async () => {
		const segment = fc.constantFrom('a', 'b', 'c', 'd', 'x', 'in', 'rel', 'abs', 'up', '..', '.', '');
		await fc.assert(
			fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 7 }), async segments => {
				const relative = segments.join('/');
				let truth: string | undefined;
				try {
					// Joined as text: path.join would fold `x/..` by name, which is the mistake under test.
					truth = fs.realpathSync.native(`${root}/${relative}`);
				} catch {
					truth = undefined;
				}
				const walk = await kernelWalk(workspace, root, segments);
				if (truth === undefined) return; // the kernel opens nothing: any answer is safe
				if (truth === root || truth.startsWith(`${root}/`)) {
					assert.deepStrictEqual(
						walk,
						{ kind: 'inside', relative: path.relative(root, truth), exists: true },
						relative,
					);
				} else {
					assert.strictEqual(walk.kind, 'outside', `${relative} → ${truth}`);
				}
			}),
			{ numRuns: 400, seed: 11 },
		);
	});

	it('the guard refuses a `..` after a link that leads out or elsewhere, and says where', async () => {
		const guard = new WorkspaceGuard(workspace, defaultPathPolicy);
		await assert.rejects(
			guard.resolve('rel/../x', 'read'),
			(e: Error) => e instanceof PathRefused && e.message.includes(path.join(base, 'out/e/x')),
		);
		await assert.rejects(
			guard.resolveWord('in/../x', 'read'),
			(e: Error) => e instanceof PathRefused && /opens a\/b\/x/.test(e.message),
		);
		assert.strictEqual((await guard.resolveWord('a/b/../../x', 'read')).canonical, 'x');
		assert.strictEqual((await guard.resolveWord('back\\slash%20/../x', 'read')).canonical, 'x');
		await assert.rejects(guard.resolveWord('a%20b/../../x', 'read'), /leaves the workspace/);
	});

	it('confirm walks the path again as it was asked: a folder swapped for a link is refused', async () => {
		const guard = new WorkspaceGuard(workspace, defaultPathPolicy);
		fs.mkdirSync(path.join(root, 'race'));
		const approved = await guard.resolveWord('race/../x', 'read');
		fs.rmdirSync(path.join(root, 'race'));
		fs.symlinkSync('../out/e/f', path.join(root, 'race'));
		await assert.rejects(guard.confirm(approved, 'read'), PathRefused);
	});
});
