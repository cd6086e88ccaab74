// Checkpoints through the real loop: real tools on a real folder, the real git CLI behind a
// shadow repository in a separate storage folder, the model double scripting the turns.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Checkpoints, type CheckpointNotice } from '../../src/core/checkpoints/checkpoints';
import { withCheckpoints } from '../../src/core/checkpoints/checkpointedTools';
import { CheckpointStore } from '../../src/core/checkpoints/checkpointStore';
import { DEFAULT_ALLOW_READ, DEFAULT_DENY_READ, isProtectedPath } from '../../src/core/gate/paths/pathPolicy';
import { CheckpointIndex } from '../../src/core/checkpoints/turnCheckpoints';
import { Gate } from '../../src/core/gate/gate';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import { ChatSession } from '../../src/core/session/chatSession';
import { NodeWorkspace } from '../../src/core/tools/files/nodeWorkspace';
import { ToolRegistry } from '../../src/core/tools/registry';
import { defaultToolDeps } from '../../src/core/tools/toolDeps';
import { createToolset } from '../../src/core/tools/toolset';
import { startModelDouble, text, toolCalls, type ModelDouble } from '../support/modelDouble';
import { tempTree, type TempTree } from '../support/tempTree';

describe('checkpoints through the loop (real git, real files)', function () {
	this.timeout(30_000);
	let double: ModelDouble;
	let tree: TempTree;
	let storage: string;
	let notices: CheckpointNotice[];
	let checkpoints: Checkpoints;
	let session: ChatSession;
	let clock = 0;

	before(async () => {
		double = await startModelDouble();
	});
	after(() => double.close());
	beforeEach(() => {
		double.reset();
		tree = tempTree('keel-cp-');
		tree.add({ 'README.md': '# Project\n', 'src/app.ts': 'export const a = 1;\n', 'notes.txt': 'keep me\n' });
		storage = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-cp-store-'));
		notices = [];
		const gitDir = path.join(storage, 'checkpoints.git');
		checkpoints = new Checkpoints({
			open: async () => ({
				store: await CheckpointStore.open(
					gitDir,
					tree.base,
					undefined,
					new Gate({
						policy: () => ({ denyRead: DEFAULT_DENY_READ, allowRead: DEFAULT_ALLOW_READ, alwaysAsk: [] }),
					}),
				),
				index: new CheckpointIndex(path.join(storage, 'checkpoints.json')),
			}),
			notice: notice => notices.push(notice),
			now: () => ++clock,
			protectedReason: file =>
				isProtectedPath(file, { denyRead: DEFAULT_DENY_READ, allowRead: DEFAULT_ALLOW_READ, alwaysAsk: [] }),
		});
		const registry = new ToolRegistry(
			withCheckpoints(createToolset(defaultToolDeps()), () => checkpoints.beforeChange()),
		);
		session = new ChatSession({
			sessionId: 's1',
			createModel: async () => new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'm' }),
			modelLabel: () => 'm',
			registry,
			workspace: new NodeWorkspace(tree.base),
			approvalSettings: () => ({ autoApprove: { read: true, write: true, exec: true } }),
			maxSteps: () => 10,
			systemPrompt: () => 'You are Keel.',
		});
		session.onDidEvent(event => {
			if (event.type === 'turnStarted') checkpoints.turnStarted('s1', event.turnId);
		});
	});
	afterEach(() => {
		session.dispose();
		tree.cleanup();
		fs.rmSync(storage, { recursive: true, force: true });
	});

	async function turn(calls: Array<{ name: string; arguments: object }>, prompt = 'change things') {
		double.script(toolCalls(calls), text('Done.'));
		const outcome = await session.send(prompt);
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		const done = await checkpoints.turnFinished('s1', outcome.turnId);
		assert.ok(done, JSON.stringify(notices) + JSON.stringify(session.history.slice(-3)));
		return done;
	}

	it('records what a turn changed (edit, create, delete) and restores the files to before it', async () => {
		const done = await turn([
			{ name: 'write_file', arguments: { path: 'src/app.ts', content: 'export const a = 2;\n' } },
			{ name: 'write_file', arguments: { path: 'src/new/created.ts', content: 'new\n' } },
			{ name: 'delete_path', arguments: { path: 'notes.txt' } },
		]);
		assert.deepStrictEqual(done.files!.map(f => `${f.status} ${f.path}`).sort(), [
			'added src/new/created.ts',
			'deleted notes.txt',
			'modified src/app.ts',
		]);
		assert.match(notices.at(-1)!.text, /^3 files changed: /);
		const outcome = await checkpoints.restore('s1', done.turnId, async () => 'cancel');
		assert.strictEqual(outcome.restored.length, 3, outcome.message);
		assert.strictEqual(tree.read('src/app.ts'), 'export const a = 1;\n');
		assert.strictEqual(tree.read('notes.txt'), 'keep me\n');
		assert.strictEqual(
			fs.existsSync(path.join(tree.base, 'src/new')),
			false,
			'the folder the turn created is gone',
		);

		const undone = await checkpoints.undoRestore('s1', async () => 'cancel');
		assert.strictEqual(undone.restored.length, 3, undone.message);
		assert.strictEqual(tree.read('src/app.ts'), 'export const a = 2;\n');
		assert.strictEqual(tree.read('src/new/created.ts'), 'new\n');
		assert.strictEqual(tree.read('notes.txt'), undefined);
	});

	it('a restore that would write a protected file (.vscode/settings.json) leaves it alone unless approved; the approved one writes it', async () => {
		tree.add({ '.vscode/settings.json': '{ "editor.tabSize": 4 }\n' });
		const done = await turn([
			{ name: 'write_file', arguments: { path: 'src/app.ts', content: 'export const a = 2;\n' } },
		]);
		// Changed after the turn (by the user or a task): restoring to before the turn would write it back.
		fs.writeFileSync(path.join(tree.base, '.vscode/settings.json'), '{ "editor.tabSize": 2 }\n');
		const asked: Array<Array<{ path: string; reason: string }>> = [];
		const refused = await checkpoints.restore(
			's1',
			done.turnId,
			async () => 'overwrite',
			async files => (asked.push(files), false),
		);
		assert.deepStrictEqual(
			asked.map(files => files.map(f => f.path)),
			[['.vscode/settings.json']],
		);
		assert.match(asked[0][0].reason, /editor settings/);
		assert.strictEqual(
			tree.read('.vscode/settings.json'),
			'{ "editor.tabSize": 2 }\n',
			'not approved: the protected file is untouched',
		);
		assert.strictEqual(tree.read('src/app.ts'), 'export const a = 1;\n', 'the other files are restored');
		assert.deepStrictEqual(refused.guarded, ['.vscode/settings.json']);
		assert.match(refused.message, /Left protected files alone \(not approved\): \.vscode\/settings\.json/);

		// No gate at all (an API call that decided up front) fails closed as well.
		await checkpoints.undoRestore('s1', async () => 'overwrite');
		const silent = await checkpoints.restore('s1', done.turnId, async () => 'overwrite');
		assert.deepStrictEqual(silent.guarded, ['.vscode/settings.json']);
		assert.strictEqual(tree.read('.vscode/settings.json'), '{ "editor.tabSize": 2 }\n');

		await checkpoints.undoRestore('s1', async () => 'overwrite');
		const approved = await checkpoints.restore(
			's1',
			done.turnId,
			async () => 'overwrite',
			async () => true,
		);
		assert.deepStrictEqual(approved.guarded, []);
		assert.strictEqual(tree.read('.vscode/settings.json'), '{ "editor.tabSize": 4 }\n', 'approved: written back');
	});

	it('a turn that only reads takes no checkpoint', async () => {
		double.script(toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]), text('Read.'));
		const outcome = await session.send('read');
		assert.strictEqual(await checkpoints.turnFinished('s1', outcome.turnId), undefined);
		assert.deepStrictEqual(await checkpoints.turns('s1'), []);
	});

	it('asks before overwriting a file the user edited since, and keeps it when told to', async () => {
		const first = await turn([
			{ name: 'write_file', arguments: { path: 'src/app.ts', content: 'export const a = 2;\n' } },
			{ name: 'write_file', arguments: { path: 'README.md', content: '# Changed\n' } },
		]);
		fs.writeFileSync(path.join(tree.base, 'src/app.ts'), 'export const a = 3; // mine\n');
		const asked: string[][] = [];
		const cancelled = await checkpoints.restore('s1', first.turnId, async files => (asked.push(files), 'cancel'));
		assert.strictEqual(cancelled.cancelled, true);
		assert.deepStrictEqual(asked, [['src/app.ts']]);
		assert.strictEqual(tree.read('README.md'), '# Changed\n', 'cancel changes nothing');
		const kept = await checkpoints.restore('s1', first.turnId, async () => 'skip');
		assert.deepStrictEqual(kept.kept, ['src/app.ts']);
		assert.strictEqual(tree.read('src/app.ts'), 'export const a = 3; // mine\n');
		assert.strictEqual(tree.read('README.md'), '# Project\n');
	});

	it('restores through several turns, and user edits between turns count as theirs', async () => {
		const first = await turn([{ name: 'write_file', arguments: { path: 'src/app.ts', content: 'v2\n' } }]);
		fs.writeFileSync(path.join(tree.base, 'README.md'), '# Edited by me\n');
		await turn([{ name: 'write_file', arguments: { path: 'src/app.ts', content: 'v3\n' } }]);
		const asked: string[][] = [];
		const outcome = await checkpoints.restore('s1', first.turnId, async files => (asked.push(files), 'overwrite'));
		assert.deepStrictEqual(asked, [['README.md']]);
		assert.strictEqual(tree.read('src/app.ts'), 'export const a = 1;\n');
		assert.strictEqual(tree.read('README.md'), '# Project\n');
		assert.strictEqual(outcome.restored.length, 2);
	});

	it("never touches the workspace's own git repository, and honours its .gitignore and the size limit", async () => {
		execFileSync('git', ['init', '-q'], { cwd: tree.base });
		tree.add({
			'.gitignore': 'build/\n',
			'build/out.js': 'generated\n',
			'.env': 'SECRET=1\n',
			'keys/server.pem': 'pem',
			'.env.example': 'SECRET=\n',
		});
		fs.writeFileSync(path.join(tree.base, 'big.bin'), Buffer.alloc(3 * 1024 * 1024));
		const gitBefore = execFileSync('git', ['status', '--porcelain'], { cwd: tree.base, encoding: 'utf8' });
		const done = await turn([
			{ name: 'write_file', arguments: { path: 'build/out.js', content: 'changed\n' } },
			{ name: 'write_file', arguments: { path: 'src/app.ts', content: 'x\n' } },
		]);
		assert.deepStrictEqual(
			done.files!.map(f => f.path),
			['src/app.ts'],
			'ignored files are not in checkpoints',
		);
		assert.deepStrictEqual(done.skipped, ['big.bin']);
		assert.match(notices.at(-1)!.text, /not in the checkpoint: big\.bin/);
		assert.strictEqual(
			fs.existsSync(path.join(tree.base, '.git', 'refs', 'keel')),
			false,
			"nothing written into the user's .git",
		);
		assert.strictEqual(
			execFileSync('git', ['status', '--porcelain'], { cwd: tree.base, encoding: 'utf8' })
				.replace(/.*src\/app\.ts\n/, '')
				.replace(/.*build.*\n/, ''),
			gitBefore.replace(/.*build.*\n/, ''),
		);
		assert.ok(
			fs.existsSync(path.join(storage, 'checkpoints.git', 'HEAD')),
			'the shadow repository lives in the storage folder',
		);
		const stored = execFileSync(
			'git',
			['--git-dir', path.join(storage, 'checkpoints.git'), 'ls-tree', '-r', '--name-only', done.before],
			{ encoding: 'utf8' },
		).split('\n');
		assert.ok(
			!stored.includes('.env') && !stored.includes('keys/server.pem'),
			"secrets on the deny-read list are never copied into Keel's storage",
		);
		assert.ok(stored.includes('.env.example'), 'allow-read exceptions are kept');
	});

	it('names what it could not restore safely (a folder swapped for a link out while the dialog waited), restores the rest, and keeps binary files byte for byte', async () => {
		const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-cp-outside-'));
		fs.writeFileSync(path.join(outside, 'guide.md'), 'outside, not the workspace\n');
		const bytes = Buffer.from([0, 255, 10, 13, 128, 0, 1]);
		tree.add({ 'docs/guide.md': 'v1\n' });
		fs.writeFileSync(path.join(tree.base, 'logo.bin'), bytes);
		const done = await turn([
			{ name: 'write_file', arguments: { path: 'docs/guide.md', content: 'v2\n' } },
			{ name: 'write_file', arguments: { path: 'README.md', content: '# Changed\n' } },
			{ name: 'delete_path', arguments: { path: 'logo.bin' } },
		]);
		fs.writeFileSync(path.join(tree.base, 'README.md'), '# Mine\n');
		const outcome = await checkpoints.restore('s1', done.turnId, async () => {
			fs.rmSync(path.join(tree.base, 'docs'), { recursive: true });
			fs.symlinkSync(outside, path.join(tree.base, 'docs'));
			return 'overwrite';
		});
		assert.deepStrictEqual(
			outcome.refused?.map(r => r.path),
			['docs/guide.md'],
		);
		assert.match(outcome.message, /Left alone, not safe to restore: docs\/guide\.md \(docs is a symlink now/);
		assert.strictEqual(fs.readFileSync(path.join(outside, 'guide.md'), 'utf8'), 'outside, not the workspace\n');
		assert.strictEqual(tree.read('README.md'), '# Project\n', 'the rest is restored');
		assert.deepStrictEqual(fs.readFileSync(path.join(tree.base, 'logo.bin')), bytes);
		fs.rmSync(outside, { recursive: true, force: true });
	});

	it('takes a checkpoint when a folder it holds became a symlink (its files recorded as gone, the link as a link)', async () => {
		tree.add({ 'lib/a.ts': 'a\n', 'elsewhere/b.ts': 'b\n' });
		const first = await turn([{ name: 'write_file', arguments: { path: 'lib/a.ts', content: 'a2\n' } }]);
		fs.rmSync(path.join(tree.base, 'lib'), { recursive: true });
		fs.symlinkSync('elsewhere', path.join(tree.base, 'lib'));
		const second = await turn([{ name: 'write_file', arguments: { path: 'notes.txt', content: 'n\n' } }]);
		assert.ok(second.before !== first.after);
		const files = (await checkpoints.turns('s1')).find(t => t.turnId === second.turnId)!;
		assert.ok(files.before, 'the checkpoint was taken');
	});
});
