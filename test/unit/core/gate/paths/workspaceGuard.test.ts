import * as assert from 'assert';
import type { Workspace } from '../../../../../src/core/ports';
import { defaultPathPolicy } from '../../../../../src/core/gate/paths/pathPolicy';
import { isUnder, PathRefused, WorkspaceGuard } from '../../../../../src/core/gate/paths/paths';

/** Canonical paths from a table: what realpath would say about each workspace-relative path. */
function fakeFs(real: Record<string, string | 'dangling'>): Workspace {
	return {
		rootRealPath: async () => '/ws',
		realPath: async (p: string) => (p === '' ? '/ws' : real[p]),
		stat: async () => undefined,
	} as unknown as Workspace;
}

describe('WorkspaceGuard', () => {
	const guard = new WorkspaceGuard(
		fakeFs({
			src: '/ws/src',
			'src/a.ts': '/ws/src/a.ts',
			out: '/elsewhere',
			sib: '/ws-evil',
			alias: '/ws/src',
			dead: 'dangling',
			cfg: '/ws/.vscode',
		}),
		defaultPathPolicy,
	);

	it('isUnder compares whole segments', () => {
		assert.ok(isUnder('/ws', '/ws/a'));
		assert.ok(isUnder('/ws', '/ws'));
		assert.ok(!isUnder('/ws', '/ws-evil/a'));
		assert.ok(!isUnder('/ws', '/w'));
	});

	it('walks up to the deepest existing ancestor for paths that do not exist yet', async () => {
		assert.deepStrictEqual(await guard.resolve('src/new/file.ts', 'write'), {
			path: 'src/new/file.ts',
			canonical: 'src/new/file.ts',
			exists: false,
			protectedReason: undefined,
			asked: 'src/new/file.ts',
		});
		assert.deepStrictEqual(await guard.resolve('alias/x.ts', 'write'), {
			path: 'alias/x.ts',
			canonical: 'src/x.ts',
			exists: false,
			protectedReason: undefined,
			asked: 'alias/x.ts',
		});
	});

	it('refuses symlinks out, prefix siblings and dangling links with a reason', async () => {
		await assert.rejects(
			guard.resolve('out/x', 'read'),
			/leads outside the workspace through a symlink \(out → \/elsewhere\)/,
		);
		await assert.rejects(guard.resolve('sib/x', 'read'), /leads outside the workspace/);
		await assert.rejects(guard.resolve('dead', 'write'), /symlink that points nowhere/);
	});

	it('refuses root deletion however it is spelled, and deny-read files', async () => {
		for (const root of ['.', '', 'src/..', './']) {
			await assert.rejects(guard.resolve(root, 'delete'), PathRefused);
		}
		await assert.rejects(guard.resolve('.env', 'read'), /deny list/);
		await assert.rejects(guard.resolve('config/.ENV.local', 'read'), /deny list/);
		assert.strictEqual((await guard.resolve('.env.example', 'read')).path, '.env.example');
	});

	it('flags protected files by canonical path too (a link to .vscode)', async () => {
		assert.match((await guard.resolve('cfg/settings.json', 'write')).protectedReason ?? '', /\.vscode/);
		assert.match((await guard.resolve('.git/hooks/pre-push', 'write')).protectedReason ?? '', /git hooks/);
	});
});
