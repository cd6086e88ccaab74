// What Keel stores on its own holds nothing the tools refuse to read. Checkpoints are a real
// shadow git repository on a real disk: every file the deny-read list (the defaults, a user's
// globs with braces, extglobs and other cases) or a deny rule covers is planted with a canary
// of its own, the workspace's .gitignore tries to re-include it, hard links try to smuggle it
// under another name, and a store written by an older version must be purged when opened.
// An attempt gets through when its canary is in any object of the shadow repository.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { PermissionRule } from '../../src/core/gate/rules/permissions';
import { ShadowGit } from '../../src/core/checkpoints/shadowGit';
import { DEFAULT_ALLOW_READ, DEFAULT_DENY_READ, type PathPolicy } from '../../src/core/gate/paths/pathPolicy';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolCallMessage, toolResultMessage } from '../../src/core/llm/canonical';
import { promptWithAttachments } from '../../src/core/mentions/mentions';
import { SessionStore } from '../../src/core/store/sessionStore';
import { exportedText, openCheckpointStore } from './support/gateWiring';
import { attack } from './tally';

const KLASS = 'gate: stored secrets';

/** Every object of the repository, unreachable and packed ones included, as one buffer. */
function allObjects(gitDir: string): string {
	return execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch-all-objects', '--batch'], {
		maxBuffer: 256 * 1024 * 1024,
	}).toString('latin1');
}

/** Concrete file names for a deny glob: the plain name, nested, and in other cases. */
function instancesOf(glob: string): string[] {
	const concrete = glob
		.replace(/^\*\*\//, '')
		.replace(/\/\*\*$/, '/inner.txt')
		.replace(/\{([^,}]+)[^}]*\}/g, '$1')
		.replace(/[+@]\(([^|)]+)[^)]*\)/g, '$1')
		.replace(/\*/g, 'x');
	const nested = glob.startsWith('**/') ? [`deep/er/${concrete}`] : [];
	const upper = concrete.replace(/[a-z]+/g, word => word.toUpperCase());
	const mixed = concrete.replace(/(^|\/)\.?([a-z])/g, (m, slash: string, letter: string) =>
		m.replace(letter, letter.toUpperCase()),
	);
	return [...new Set([concrete, ...nested, upper, mixed])];
}

const USER_DENY = [
	'config/{prod,staging}.json',
	'vault/+(alpha|beta).txt',
	'**/*.@(token|secret)',
	'Private/**',
	'**/private-*.{yml,yaml}',
	'**/+(prod|stage)-*.credentials',
];
const DENY_RULES: PermissionRule[] = [
	{ tool: '*', match: 'internal/**', action: 'deny' },
	{ tool: 'read_file', match: '**/*.sealed', action: 'deny' },
];
const RULE_FILES = ['internal/plan.md', 'INTERNAL/notes.txt', 'a/b/box.sealed', 'box.SEALED'];
// What a workspace's own ignore files write to put a denied file back into what git adds.
const REINCLUDES = ['!.env', '!*.pem', '!**/.env*', '!/keys/', '!*', '!.ssh/', '!**', '!config/*.json'];

function policyOf(): PathPolicy {
	return {
		denyRead: [...DEFAULT_DENY_READ, ...USER_DENY],
		allowRead: DEFAULT_ALLOW_READ,
		alwaysAsk: [],
	};
}

function deniedFiles(): string[] {
	const files = [...DEFAULT_DENY_READ, ...USER_DENY].flatMap(glob => instancesOf(glob));
	return [...new Set([...files, ...RULE_FILES])].filter(f => !/\.(example|sample|template|pub)$/i.test(f));
}

const canaryOf = (file: string) => `CANARY_STORED_${Buffer.from(file).toString('hex').slice(0, 40)}`;

describe('security (gate): checkpoints never store what the tools refuse to read', function () {
	this.timeout(120_000);
	const files = deniedFiles();

	describe('a fresh store, whatever the workspace ignore files say', () => {
		const cases = REINCLUDES.map(line => ({ gitignore: `${line}\n`, label: line })).concat([
			{ gitignore: '', label: '(no .gitignore)' },
		]);
		for (const { gitignore, label } of cases) {
			describe(`.gitignore ${label}`, () => {
				let tree: TempTree;
				let storage: string;
				let objects = '';
				before(async () => {
					tree = tempTree('keel-g2-');
					storage = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-g2-store-'));
					tree.add({
						'ws/src/a.ts': 'a',
						'outside/secret.txt': 'CANARY_STORED_OUTSIDE',
						'ws/.gitignore': gitignore,
					});
					const ws = path.join(tree.base, 'ws');
					for (const file of files) {
						tree.add({ [`ws/${file}`]: `${canaryOf(file)}\n` });
					}
					// A secret under a name nothing denies: a hard link shares the bytes of its denied twin.
					tree.add({ 'ws/hard/id_rsa_linked': 'CANARY_STORED_HARDLINK\n' });
					fs.linkSync(path.join(ws, 'hard/id_rsa_linked'), path.join(ws, 'notes-key.txt'));
					fs.linkSync(path.join(tree.base, 'outside/secret.txt'), path.join(ws, 'outside-linked.txt'));
					const store = await openCheckpointStore(
						path.join(storage, 'shadow.git'),
						ws,
						policyOf(),
						DENY_RULES,
					);
					await store.snapshot('s/t/before', 'before');
					objects = allObjects(path.join(storage, 'shadow.git'));
				});
				after(() => {
					tree.cleanup();
					fs.rmSync(storage, { recursive: true, force: true });
				});
				for (const file of files) {
					it(`${file} stays out`, () =>
						attack(
							`stored ${label} ${file}`,
							() =>
								objects.includes(canaryOf(file)) ? `${file} is in the shadow repository` : undefined,
							KLASS,
						));
				}
				for (const [name, canary] of [
					['notes-key.txt (hard link to a deny-read key)', 'CANARY_STORED_HARDLINK'],
					['outside-linked.txt (hard link out)', 'CANARY_STORED_OUTSIDE'],
				]) {
					it(`${name} stays out`, () =>
						attack(
							`stored ${label} ${name}`,
							() => (objects.includes(canary) ? `${name} copied its content in` : undefined),
							KLASS,
						));
				}
			});
		}
	});

	describe('a store an older version filled is purged when opened', () => {
		let tree: TempTree;
		let storage: string;
		let objects = '';
		before(async () => {
			tree = tempTree('keel-g2-old-');
			storage = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-g2-old-store-'));
			tree.add({ 'ws/src/a.ts': 'a' });
			const ws = path.join(tree.base, 'ws');
			for (const file of files) {
				tree.add({ [`ws/${file}`]: `${canaryOf(file)}\n` });
			}
			const gitDir = path.join(storage, 'shadow.git');
			// An older version: every file copied (no deny list), two snapshots under refs, the index full.
			const old = new ShadowGit(gitDir, ws);
			await old.init([]);
			for (const name of ['before', 'after']) {
				await old.run(['add', '-A']);
				const tree = (await old.run(['write-tree'])).trim();
				const commit = (await old.run(['commit-tree', tree, '-m', `${name} t1`])).trim();
				await old.run(['update-ref', `refs/keel/s/t1/${name}`, commit]);
				fs.writeFileSync(path.join(ws, 'src/a.ts'), 'b');
			}
			const store = await openCheckpointStore(gitDir, ws, policyOf(), DENY_RULES);
			await store.snapshot('s/t2/before', 'before t2');
			objects = allObjects(gitDir);
		});
		after(() => {
			tree.cleanup();
			fs.rmSync(storage, { recursive: true, force: true });
		});
		for (const file of files) {
			it(`${file} is purged`, () =>
				attack(
					`purged ${file}`,
					() => (objects.includes(canaryOf(file)) ? `${file} is still in the shadow repository` : undefined),
					KLASS,
				));
		}
	});

	describe('an export copies nothing the deny list refuses now', () => {
		let storage: string;
		let store: SessionStore;
		before(() => {
			storage = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-g2-export-'));
			store = SessionStore.open(path.join(storage, 'sessions.sqlite'));
			// Read while nothing denied them (or by an older version): a read_file result and an attachment each.
			files.forEach((file, i) => {
				const id = `s${i}`;
				const attachment = promptWithAttachments(`look at @${file}`, [
					{ kind: 'file', label: file, tokens: 3, content: `${canaryOf(file)}-attached` },
				]);
				store.append(id, { kind: 'user', content: attachment }, { turnId: 't' });
				const call = {
					id: `c${i}`,
					name: 'read_file',
					arguments: { path: file },
					rawArguments: JSON.stringify({ path: file }),
				};
				store.append(id, toolCallMessage(call), { turnId: 't' });
				store.append(
					id,
					toolResultMessage({
						toolCallId: call.id,
						name: 'read_file',
						output: `1  ${canaryOf(file)}`,
						ok: true,
					}),
					{
						turnId: 't',
					},
				);
			});
		});
		after(() => {
			store.close();
			fs.rmSync(storage, { recursive: true, force: true });
		});
		for (const format of ['markdown', 'json'] as const) {
			files.forEach((file, i) =>
				it(`${format}: ${file}`, () =>
					attack(
						`export ${format} ${file}`,
						() => {
							const text = exportedText(store, `s${i}`, policyOf(), DENY_RULES, format);
							return text.includes(canaryOf(file)) ? `${file} is in the export` : undefined;
						},
						KLASS,
					)),
			);
		}
	});
});
