// Path attacks against a multi-root workspace on a real disk: two folders (api, web) side by
// side with a prefix sibling (api-evil) and an outside folder next to them. Paths start with
// a folder's name; the guard runs per folder, so a symlink from one folder into the other is
// refused (with the path to use instead), as is anything that names no folder or climbs out.
// Everything auto-approved: the guard alone must hold.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { NodeWorkspace } from '../../src/core/tools/files/nodeWorkspace';
import { MultiRootWorkspace } from '../../src/core/gate/paths/workspaceFolders';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolHarness, type Harness } from '../support/toolHarness';
import { attack } from './tally';

const OUT = 'CANARY_MR_OUTSIDE_3b1e';
const SIB = 'CANARY_MR_SIBLING_c0d4';
const ENV = 'CANARY_MR_DOTENV_8a2f';
const KLASS = 'class 4 (paths)';

describe('security: multi-root workspace guard', () => {
	let tree: TempTree;
	let h: Harness;
	const outsideIntact = () =>
		fs.readdirSync(path.join(tree.base, 'outside')).join(',') === 'secret.txt' &&
		fs.readdirSync(path.join(tree.base, 'api-evil')).join(',') === 'secret.txt' &&
		tree.read('outside/secret.txt') === OUT &&
		tree.read('api/.env')?.includes(ENV) === true;

	before(() => {
		tree = tempTree('keel-mr-');
		tree.add({
			'api/src/a.ts': 'export const a = "api";\n',
			'api/.env': `TOKEN=${ENV}\n`,
			'web/index.html': '<h1>web</h1>\n',
			'web/src/b.ts': 'export const b = "web";\n',
			'outside/secret.txt': OUT,
			'api-evil/secret.txt': SIB,
			// Symlinks across folders and out of the workspace.
			'api/link-web': { link: '../web' },
			'api/link-out': { link: '../outside' },
			'api/link-evil': { link: '../api-evil' },
			'web/link-api-env': { link: '../api/.env' },
			'web/link-abs': { link: path.join(tree.base, 'outside') },
			'web/dangling': { link: '../outside/none.txt' },
		});
		const workspace = new MultiRootWorkspace(() => [
			{ name: 'api', workspace: new NodeWorkspace(path.join(tree.base, 'api')) },
			{ name: 'web', workspace: new NodeWorkspace(path.join(tree.base, 'web')) },
		]);
		h = toolHarness(tree.base, { workspace });
	});
	after(() => tree.cleanup());

	const leaks = (text: string) => [OUT, SIB, ENV].some(c => text.includes(c));

	const readTargets = [
		'outside/secret.txt',
		'api-evil/secret.txt',
		'../outside/secret.txt',
		'api/../outside/secret.txt',
		'api/../../outside/secret.txt',
		'web/../../outside/secret.txt',
		'api/link-out/secret.txt',
		'api/link-evil/secret.txt',
		'web/link-abs/secret.txt',
		'web/link-api-env',
		'web/dangling',
		'api/.env',
		'API/.env',
		'web/../api/.env',
		'api/src/../.env',
		'/outside/secret.txt',
		'secret.txt',
		'.env',
		'',
		'api%2f..%2f..%2foutside%2fsecret.txt',
		'api\uFF0F..\uFF0F..\uFF0Foutside',
	];
	for (const target of readTargets) {
		it(`read_file refuses ${JSON.stringify(target)}`, () =>
			attack(
				`multi-root read_file ${JSON.stringify(target)}`,
				async () => {
					const result = await h.run('read_file', { path: target });
					return result.ok || leaks(result.output) ? result.output.slice(0, 80) : undefined;
				},
				KLASS,
			));
	}

	for (const target of ['api/link-out', 'api/link-evil', 'web/link-abs', '..', 'api/..', 'api/../..', 'outside']) {
		it(`list_directory refuses ${target}`, () =>
			attack(
				`multi-root list_directory ${target}`,
				async () => {
					const result = await h.run('list_directory', { path: target });
					return result.ok && /secret\.txt/.test(result.output) ? result.output : undefined;
				},
				KLASS,
			));
	}

	for (const target of [
		'api/link-out/pwned.txt',
		'api/link-evil/pwned.txt',
		'web/link-abs/pwned.txt',
		'outside/pwned.txt',
		'api-evil/pwned.txt',
		'api/../../outside/pwned.txt',
		'web/link-api-env',
		'web/dangling',
		'api/link-web/pwned.txt',
		'pwned.txt',
	]) {
		it(`write_file refuses ${target}`, () =>
			attack(
				`multi-root write_file ${target}`,
				async () => {
					await h.run('write_file', { path: target, content: 'pwned' });
					const planted =
						fs.existsSync(path.join(tree.base, 'web/pwned.txt')) ||
						fs.existsSync(path.join(tree.base, 'pwned.txt'));
					return outsideIntact() && !planted ? undefined : 'a file outside its folder (or .env) changed';
				},
				KLASS,
			));
	}

	for (const target of ['', '.', 'api', 'web', 'API', 'api/.', 'api/link-out']) {
		it(`delete_path refuses ${JSON.stringify(target)}`, () =>
			attack(
				`multi-root delete_path ${JSON.stringify(target)}`,
				async () => {
					await h.run('delete_path', { path: target, recursive: true });
					return outsideIntact() &&
						fs.existsSync(path.join(tree.base, 'api/src/a.ts')) &&
						fs.existsSync(path.join(tree.base, 'web/index.html'))
						? undefined
						: 'a folder of the workspace or something outside was deleted';
				},
				KLASS,
			));
	}

	for (const [from, to] of [
		['api/.env', 'web/leak.txt'],
		['web/link-api-env', 'web/leak.txt'],
		['api/link-out/secret.txt', 'web/leak.txt'],
		['web/index.html', 'api/link-out/x.html'],
	] as const) {
		it(`copy_path refuses ${from} → ${to}`, () =>
			attack(
				`multi-root copy_path ${from} → ${to}`,
				async () => {
					await h.run('copy_path', { from, to, overwrite: true });
					return !fs.existsSync(path.join(tree.base, 'web/leak.txt')) &&
						!fs.existsSync(path.join(tree.base, 'outside/x.html'))
						? undefined
						: 'secret copied across folders or a file planted outside';
				},
				KLASS,
			));
	}

	it('grep over both folders never prints the outside, the sibling or .env', () =>
		attack(
			'multi-root grep CANARY',
			async () => {
				const result = await h.run('grep', { pattern: 'CANARY', limit: 500 });
				return leaks(result.output) ? result.output : undefined;
			},
			KLASS,
		));

	it('a symlink into the other folder is refused with the path through that folder', async () => {
		const result = await h.run('read_file', { path: 'api/link-web/index.html' });
		assert.strictEqual(result.ok, false);
		assert.match(result.output, /use the path through the folder it lands in, "web\/index\.html"/);
		const direct = await h.run('read_file', { path: 'web/index.html' });
		assert.match(direct.output, /<h1>web<\/h1>/);
	});

	it('a path that names no folder says which folders there are', async () => {
		const result = await h.run('read_file', { path: 'src/a.ts' });
		assert.strictEqual(result.ok, false);
		assert.match(result.output, /every path starts with a folder's name: api\/, web\//);
	});

	it('protected files are protected in every folder: a write to web/.vscode asks', async () => {
		h.approver.requests.length = 0;
		const result = await h.run('write_file', { path: 'web/.vscode/tasks.json', content: '{}' });
		assert.strictEqual(result.ok, false);
		assert.strictEqual(h.approver.requests.length, 1, 'the protected write asked despite auto-approve');
		assert.strictEqual(fs.existsSync(path.join(tree.base, 'web/.vscode/tasks.json')), false);
	});
});
