// Multi-root workspaces: how folders are named, how a path finds its folder, how globs split
// per folder, what the virtual root is, and what the sandbox and the prompt say about them.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { sandboxMountPoints } from '../../../../../src/core/exec/sandbox/sandboxSpec';
import { specFor } from '../../../../support/sandboxPlan';
import { buildSystemPrompt } from '../../../../../src/core/agent/loop/systemPrompt';
import { NodeWorkspace } from '../../../../../src/core/tools/files/nodeWorkspace';
import { normalizeWorkspacePath, WorkspaceGuard } from '../../../../../src/core/gate/paths/paths';
import {
	folderNames,
	globForFolder,
	MultiRootWorkspace,
	splitFolderPath,
} from '../../../../../src/core/gate/paths/workspaceFolders';

describe('multi-root workspace folders', () => {
	let base: string;
	let ws: MultiRootWorkspace;
	beforeEach(() => {
		base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-mr-unit-')));
		for (const [file, text] of Object.entries({ 'api/a.txt': 'A', 'web/b.txt': 'B' })) {
			fs.mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
			fs.writeFileSync(path.join(base, file), text);
		}
		ws = new MultiRootWorkspace(() => [
			{ name: 'api', workspace: new NodeWorkspace(path.join(base, 'api')) },
			{ name: 'web', workspace: new NodeWorkspace(path.join(base, 'web')) },
		]);
	});
	afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

	it('names: collisions get -2, -3 in folder order; a real "-2" folder keeps its name; unsafe characters become "-"', () => {
		assert.deepStrictEqual(folderNames(['app', 'app', 'lib', 'app']), ['app', 'app-2', 'lib', 'app-3']);
		assert.deepStrictEqual(folderNames(['app', 'app', 'app-2']), ['app', 'app-3', 'app-2']);
		assert.deepStrictEqual(
			folderNames(['App', 'app']),
			['App', 'app-2'],
			'names differ by case only on a case-sensitive disk, never in a path the model writes',
		);
		assert.deepStrictEqual(folderNames(['a/b', 'c\\d', '..', '', '~home', 'x%2e', 'dot\uFF0Edot']), [
			'a-b',
			'c-d',
			'folder',
			'folder-2',
			'home',
			'x-2e',
			'dot-dot',
		]);
		for (const name of folderNames(['a/b', '..', '~home', 'x%2e', 'w\u0000x'])) {
			const checked = normalizeWorkspacePath(`${name}/file`);
			assert.ok(checked.ok && checked.path === `${name}/file`, `${name} is a plain segment`);
		}
	});

	it('a path finds its folder by its first segment, exact name first', () => {
		const folders = ws.folders();
		assert.strictEqual(splitFolderPath(folders, 'api/src/x.ts')?.folder.name, 'api');
		assert.strictEqual(splitFolderPath(folders, 'api/src/x.ts')?.rest, 'src/x.ts');
		assert.strictEqual(splitFolderPath(folders, 'web')?.rest, '');
		assert.strictEqual(splitFolderPath(folders, 'WEB/b.txt')?.folder.name, 'web');
		assert.strictEqual(splitFolderPath(folders, 'src/x.ts'), undefined);
		assert.strictEqual(splitFolderPath(folders, 'api-evil/x'), undefined);
	});

	it('a glob naming a folder applies to that folder only; any other glob to every folder', () => {
		assert.strictEqual(globForFolder('api/src/**/*.ts', 'api', ['api', 'web']), 'src/**/*.ts');
		assert.strictEqual(globForFolder('api/src/**/*.ts', 'web', ['api', 'web']), undefined);
		assert.strictEqual(globForFolder('**/*.ts', 'web', ['api', 'web']), '**/*.ts');
		assert.strictEqual(globForFolder('api', 'api', ['api', 'web']), '**');
	});

	it('routes every operation to the folder a path names; the virtual root lists the folders', async () => {
		assert.deepStrictEqual(await ws.readDirectory(''), [
			['api', 'directory'],
			['web', 'directory'],
		]);
		assert.strictEqual((await ws.stat(''))?.type, 'directory');
		assert.strictEqual(Buffer.from(await ws.readFile('web/b.txt')).toString(), 'B');
		await ws.writeText('api/new.txt', 'N');
		assert.strictEqual(fs.readFileSync(path.join(base, 'api/new.txt'), 'utf8'), 'N');
		await ws.rename('api/new.txt', 'web/moved.txt', { overwrite: false });
		assert.strictEqual(fs.readFileSync(path.join(base, 'web/moved.txt'), 'utf8'), 'N');
		assert.strictEqual(fs.existsSync(path.join(base, 'api/new.txt')), false);
		assert.strictEqual(await ws.stat('nowhere/x'), undefined);
		await assert.rejects(ws.readFile('nowhere/x'), /starts with a folder's name: api\/, web\//);
		assert.deepStrictEqual((await ws.findFiles('**/*.txt', 10)).sort(), [
			'api/a.txt',
			'web/b.txt',
			'web/moved.txt',
		]);
		assert.strictEqual(await ws.rootRealPath(), undefined, 'several folders have no single root');
	});

	it('a single folder keeps plain relative paths, the folder name and its root', async () => {
		const one = new MultiRootWorkspace(() => [
			{ name: 'api', workspace: new NodeWorkspace(path.join(base, 'api')) },
		]);
		assert.strictEqual(Buffer.from(await one.readFile('a.txt')).toString(), 'A');
		assert.strictEqual(one.rootName, 'api');
		assert.strictEqual(await one.rootRealPath(), path.join(base, 'api'));
		const resolved = await new WorkspaceGuard(one).resolve('a.txt', 'read');
		assert.deepStrictEqual([resolved.path, resolved.canonical, resolved.exists], ['a.txt', 'a.txt', true]);
	});

	it('the guard keeps the folder in the path and its canonical form; the virtual root can only be listed', async () => {
		const guard = new WorkspaceGuard(ws);
		const resolved = await guard.resolve('web/./x/../b.txt', 'read');
		assert.deepStrictEqual([resolved.path, resolved.canonical, resolved.exists], ['web/b.txt', 'web/b.txt', true]);
		assert.strictEqual((await guard.resolve('', 'list')).canonical, '');
		await assert.rejects(guard.resolve('', 'read'), /holds only its folders/);
		await assert.rejects(guard.resolve('api', 'delete'), /is the workspace folder api itself/);
		await assert.rejects(guard.resolve('api/../../x', 'read'), /leaves the workspace/);
	});

	it("the sandbox mounts each folder at /workspace/<name>, with each folder's protected paths read-only", async () => {
		const spec = await specFor([
			{ name: 'api', path: path.join(base, 'api') },
			{ name: 'web', path: path.join(base, 'web') },
		]);
		const mounts = spec.HostConfig!.Mounts!.map(
			m => `${m.Target}${m.ReadOnly ? ' (ro)' : ''} ← ${path.relative(base, m.Source!)}`,
		);
		assert.deepStrictEqual(mounts, [
			'/workspace/api ← api',
			'/workspace/web ← web',
			'/workspace/api/.vscode (ro) ← api/.vscode',
			'/workspace/web/.vscode (ro) ← web/.vscode',
		]);
		assert.strictEqual(spec.WorkingDir, '/workspace');
		assert.deepStrictEqual(
			sandboxMountPoints([{ name: 'api', path: '/x/api' }]),
			[{ source: '/x/api', target: '/workspace' }],
			'one folder: mounted as before',
		);
		await assert.rejects(
			specFor([
				{ name: 'a', path: base },
				{ name: '..', path: '/srv' },
			]),
			/cannot be a mount point/,
		);
		await assert.rejects(
			specFor([
				{ name: 'a', path: base },
				{ name: 'b', path: '/var/run' },
			]),
			/where container engines keep their sockets/,
		);
	});

	it('the system prompt names the folders and how paths start', () => {
		assert.match(
			buildSystemPrompt('proj', { folders: ['api', 'web'] }),
			/The workspace has 2 folders: api\/, web\/\. Every path starts with a folder's name, e\.g\. "api\/README\.md"/,
		);
		assert.match(buildSystemPrompt('proj', { folders: ['api'] }), /Paths are relative to the workspace root\./);
		assert.match(buildSystemPrompt('proj'), /Paths are relative to the workspace root\./);
	});
});
