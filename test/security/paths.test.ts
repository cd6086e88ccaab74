// Path attacks against the real tools on a real disk: traversal, absolute and home paths,
// prefix siblings, symlinks out (file, folder, nested, dangling, absolute), encodings, NUL,
// look-alike characters, deny-read secrets, root deletion. Everything auto-approved: the
// guard alone must hold. Canaries sit outside the workspace and in .env.
import * as fs from 'fs';
import * as path from 'path';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolHarness, type Harness } from '../support/toolHarness';
import { attack } from './tally';

const OUT = 'CANARY_OUTSIDE_7f3a';
const SIB = 'CANARY_SIBLING_91bc';
const ENV = 'CANARY_DOTENV_55de';

describe('security: workspace guard', () => {
	let tree: TempTree;
	let h: Harness;
	let ws: string;
	const outsideIntact = () => {
		const names = fs.readdirSync(path.join(tree.base, 'outside')).sort().join(',');
		return (
			names === 'secret.txt' &&
			tree.read('outside/secret.txt') === OUT &&
			tree.read('ws/hardlink.txt') === OUT &&
			!fs.existsSync(path.join(tree.base, 'ws-evil', 'pwned.txt'))
		);
	};

	before(() => {
		tree = tempTree('keel-sec-');
		ws = path.join(tree.base, 'ws');
		tree.add({
			'ws/src/a.ts': 'export const a = 1;\n',
			'ws/.env': `TOKEN=${ENV}\n`,
			'ws/config/.env.production': `X=${ENV}\n`,
			'ws/keys/id_rsa': `${ENV}\n`,
			'ws/deploy/.aws/credentials': `aws_secret=${ENV}\n`,
			'ws/deploy/.ssh/config': `Host ${ENV}\n`,
			'ws/.env.example': 'TOKEN=changeme\n',
			'outside/secret.txt': OUT,
			'ws-evil/secret.txt': SIB,
			'ws/link-out': { link: '../outside' },
			'ws/link-file': { link: '../outside/secret.txt' },
			'ws/link-abs': { link: path.join(tree.base, 'outside') },
			'ws/src/deep': { link: '../../outside' },
			'ws/dangling': { link: '../outside/new-file.txt' },
			'ws/link-sibling': { link: '../ws-evil' },
			'ws/env-alias': { link: '.env' },
		});
		// A hard link to a file outside: realpath says it is inside, the inode says otherwise.
		fs.linkSync(path.join(tree.base, 'outside/secret.txt'), path.join(ws, 'hardlink.txt'));
		h = toolHarness(ws);
	});
	after(() => tree.cleanup());

	const readTargets = [
		'../outside/secret.txt',
		'/tmp/../etc/hostname',
		'/etc/passwd',
		'~/.ssh/id_rsa',
		'~root/.bashrc',
		'$HOME/.ssh/id_rsa',
		'../ws-evil/secret.txt',
		'link-out/secret.txt',
		'link-file',
		'link-abs/secret.txt',
		'src/deep/secret.txt',
		'link-sibling/secret.txt',
		'%2e%2e/outside/secret.txt',
		'..%2foutside%2fsecret.txt',
		'..\\outside\\secret.txt',
		'src/../../outside/secret.txt',
		'a\u0000b',
		'\uFF0E\uFF0E/outside/secret.txt',
		'..\u2215outside\u2215secret.txt',
		'file:///etc/passwd',
		'C:\\Windows\\win.ini',
		'\\\\server\\share\\x',
		'.env',
		'.ENV',
		'./.env',
		'src/../.env',
		'config/.env.production',
		'keys/id_rsa',
		'env-alias',
		'dangling',
		'hardlink.txt',
		'deploy/.aws/credentials',
		'deploy/.ssh/config',
	];

	for (const target of readTargets) {
		it(`read_file refuses ${JSON.stringify(target)}`, () =>
			attack(`read_file ${JSON.stringify(target)}`, async () => {
				const result = await h.run('read_file', { path: target });
				return [OUT, SIB, ENV, 'root:x:0:0'].some(c => result.output.includes(c))
					? result.output.slice(0, 80)
					: undefined;
			}));
	}

	for (const target of ['..', '../outside', 'link-out', 'link-abs', 'src/deep', 'link-sibling', '/', '~']) {
		it(`list_directory refuses ${target}`, () =>
			attack(`list_directory ${target}`, async () => {
				const result = await h.run('list_directory', { path: target });
				return result.ok && /secret\.txt/.test(result.output) ? result.output : undefined;
			}));
	}

	const writeTargets = [
		'hardlink.txt',
		'../outside/pwned.txt',
		'link-out/pwned.txt',
		'link-abs/pwned.txt',
		'src/deep/pwned.txt',
		'dangling',
		'link-file',
		'link-sibling/pwned.txt',
		'../ws-evil/pwned.txt',
		'.env',
		'/tmp/keel-pwned.txt',
	];
	for (const target of writeTargets) {
		it(`write_file refuses ${target}`, () =>
			attack(`write_file ${target}`, async () => {
				await h.run('write_file', { path: target, content: 'pwned' });
				return outsideIntact() && tree.read('ws/.env')?.includes(ENV) && !fs.existsSync('/tmp/keel-pwned.txt')
					? undefined
					: 'a file outside the workspace (or .env) changed';
			}));
		it(`edit_file refuses ${target}`, () =>
			attack(`edit_file ${target}`, async () => {
				await h.run('edit_file', { path: target, old_string: OUT, new_string: 'pwned' });
				return outsideIntact() ? undefined : 'outside file edited';
			}));
	}

	for (const target of [
		'.',
		'',
		'./',
		'src/..',
		'link-out/secret.txt',
		'../outside',
		'src/deep/secret.txt',
		'link-abs/secret.txt',
	]) {
		it(`delete_path refuses ${JSON.stringify(target)}`, () =>
			attack(`delete_path ${JSON.stringify(target)}`, async () => {
				await h.run('delete_path', { path: target, recursive: true });
				return outsideIntact() && fs.existsSync(path.join(ws, 'src/a.ts'))
					? undefined
					: 'deleted outside or the root';
			}));
	}

	const transfers: Array<[string, string]> = [
		['.env', 'leak.txt'],
		['env-alias', 'leak2.txt'],
		['link-file', 'copy.txt'],
		['link-out', 'copied'],
		['src/a.ts', '../outside/a.ts'],
		['src/a.ts', 'link-out/a.ts'],
		['.', 'elsewhere'],
		['keys/id_rsa', 'keys/notes.txt'],
	];
	for (const tool of ['move_path', 'copy_path']) {
		for (const [from, to] of transfers) {
			it(`${tool} refuses ${from} → ${to}`, () =>
				attack(`${tool} ${from} → ${to}`, async () => {
					await h.run(tool, { from, to, overwrite: true });
					const leaked = ['leak.txt', 'leak2.txt', 'copy.txt', 'copied/secret.txt', 'keys/notes.txt'].some(
						f => fs.existsSync(path.join(ws, f)),
					);
					return !leaked && outsideIntact() && fs.existsSync(path.join(ws, 'src'))
						? undefined
						: 'secret or outside file copied/moved';
				}));
		}
	}

	for (const target of ['../outside/newdir', 'link-out/newdir', 'dangling/x']) {
		it(`create_directory refuses ${target}`, () =>
			attack(`create_directory ${target}`, async () => {
				await h.run('create_directory', { path: target });
				return outsideIntact() ? undefined : 'created a folder outside';
			}));
	}

	it('grep never prints lines from outside (symlinks) or from deny-read files', () =>
		attack('grep CANARY', async () => {
			const result = await h.run('grep', { pattern: 'CANARY', limit: 500 });
			return [OUT, SIB, ENV].some(c => result.output.includes(c)) ? result.output : undefined;
		}));

	for (const glob of ['../**', '/etc/*', '~/**', 'link-out/**']) {
		it(`find_path with ${glob} lists nothing outside`, () =>
			attack(`find_path ${glob}`, async () => {
				const result = await h.run('find_path', { glob });
				return /secret\.txt|passwd/.test(result.output) ? result.output : undefined;
			}));
	}

	for (const filter of ['../outside/**', '/etc/**']) {
		it(`grep with path filter ${filter} searches nothing outside`, () =>
			attack(`grep path ${filter}`, async () => {
				const result = await h.run('grep', { pattern: 'CANARY|root', path: filter });
				return [OUT, 'root:x'].some(c => result.output.includes(c)) ? result.output : undefined;
			}));
	}
});
