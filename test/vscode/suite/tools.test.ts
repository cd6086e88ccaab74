// Every tool the model is offered, called by a model (the double) through Keel's real loop in
// the real extension host: files through vscode.workspace.fs and WorkspaceEdit, grep through
// VS Code's own ripgrep, the Problems panel, and the network guard.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { text, toolCalls } from '../../support/modelDouble';
import { useKeelSuite } from '../keelSuite';

describe('every tool through Keel in the extension host', function () {
	this.timeout(60_000);
	const keel = useKeelSuite();
	const root = () => vscode.workspace.workspaceFolders![0].uri;
	const exists = (relative: string) =>
		vscode.workspace.fs.stat(vscode.Uri.joinPath(root(), relative)).then(
			() => true,
			() => false,
		);

	after(async () => {
		await vscode.workspace.fs
			.delete(vscode.Uri.joinPath(root(), 'tools-tmp'), { recursive: true })
			.then(undefined, () => undefined);
	});

	it('offers every tool, with a JSON Schema for each', async () => {
		keel.double.script(text('ok'));
		await keel.api.runTurn('hi');
		const offered = keel.double.modelRequests[0].body.tools
			.map((t: { function: { name: string } }) => t.function.name)
			.sort();
		for (const name of [
			'copy_path',
			'create_directory',
			'delete_path',
			'diagnostics',
			'edit_file',
			'fetch',
			'find_path',
			'grep',
			'list_directory',
			'move_path',
			'read_file',
			'read_output',
			'run_command',
			'web_scrape',
			'write_file',
		]) {
			assert.ok(offered.includes(name), `${name} is not offered (${offered.join(', ')})`);
		}
	});

	it('creates, writes, copies, moves, edits, greps and deletes files of the real workspace', async () => {
		await keel.set('approval.autoApproveWrites', true);
		keel.double.script(
			toolCalls([
				{ name: 'create_directory', arguments: { path: 'tools-tmp/sub' } },
				{ name: 'write_file', arguments: { path: 'tools-tmp/a.txt', content: 'alpha needle-42\n' } },
				{ name: 'copy_path', arguments: { from: 'tools-tmp/a.txt', to: 'tools-tmp/sub/b.txt' } },
				{ name: 'move_path', arguments: { from: 'tools-tmp/a.txt', to: 'tools-tmp/c.txt' } },
				{ name: 'edit_file', arguments: { path: 'tools-tmp/c.txt', old_string: 'alpha', new_string: 'omega' } },
				{ name: 'grep', arguments: { pattern: 'needle-\\d+', path: 'tools-tmp/**' } },
				{ name: 'find_path', arguments: { glob: 'tools-tmp/**/*.txt' } },
				{ name: 'list_directory', arguments: { path: 'tools-tmp' } },
				{ name: 'delete_path', arguments: { path: 'tools-tmp/sub', recursive: true } },
			]),
			text('done'),
		);
		const outcome = await keel.api.runTurn('exercise the file tools');
		assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		const results = keel.toolResults();
		const failed = results.filter(r => !r.ok);
		assert.deepStrictEqual(
			failed.map(r => `${r.name}: ${r.content}`),
			[],
			'every call succeeds',
		);
		const byName = new Map(results.map(r => [r.name, r.content]));
		assert.match(byName.get('grep')!, /tools-tmp\/c\.txt.*omega needle-42/s);
		assert.match(byName.get('grep')!, /tools-tmp\/sub\/b\.txt.*alpha needle-42/s);
		assert.match(byName.get('find_path')!, /tools-tmp\/c\.txt/);
		assert.match(byName.get('list_directory')!, /sub\//);
		assert.strictEqual(
			Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root(), 'tools-tmp/c.txt'))).toString(),
			'omega needle-42\n',
		);
		assert.strictEqual(await exists('tools-tmp/a.txt'), false, 'moved away');
		assert.strictEqual(await exists('tools-tmp/sub'), false, 'deleted');
	});

	it('cuts a long output for the model, and read_output pages the whole of it after the session is resumed', async () => {
		const big = Array.from(
			{ length: 4000 },
			(_, i) => `row ${String(i + 1).padStart(4, '0')} ${'x'.repeat(20)}`,
		).join('\n');
		await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root(), 'tools-tmp/big.txt'), Buffer.from(big));
		keel.double.script(
			toolCalls([{ name: 'read_file', arguments: { path: 'tools-tmp/big.txt', limit: 5000 } }]),
			text('too long'),
		);
		await keel.api.runTurn('read the big file');
		const [cut] = keel.toolResults();
		const ref = /Full output stored as (out_[\w-]+)/.exec(cut.content)?.[1];
		assert.ok(ref, `the output was cut with a reference: ${cut.content.slice(0, 200)}`);
		assert.ok(!cut.content.includes('row 2000 '), 'the middle is not sent to the model');

		const sessionId = keel.api.sessionId();
		keel.api.newChat();
		assert.ok(keel.api.resumeSession(sessionId), 'the session reopens from the store');
		keel.double.reset();
		keel.double.script(
			toolCalls([{ name: 'read_output', arguments: { ref, offset: 2000, limit: 2 } }]),
			text('paged'),
		);
		await keel.api.runTurn('show me the middle');
		const paged = keel.toolResults().at(-1)!;
		assert.ok(paged.ok, paged.content);
		assert.match(paged.content, /row 2000 x+/);
	});

	it('reports the Problems panel as structured diagnostics', async () => {
		const uri = vscode.Uri.joinPath(root(), 'src/app.ts');
		const collection = vscode.languages.createDiagnosticCollection('keel-test');
		collection.set(uri, [
			new vscode.Diagnostic(
				new vscode.Range(0, 0, 0, 6),
				'Synthetic problem for Keel',
				vscode.DiagnosticSeverity.Error,
			),
		]);
		try {
			keel.double.script(toolCalls([{ name: 'diagnostics', arguments: { path: 'src/app.ts' } }]), text('seen'));
			await keel.api.runTurn('any problems?');
			const [result] = keel.toolResults();
			assert.ok(result.ok, result.content);
			assert.match(result.content, /src\/app\.ts:1:1.*error.*Synthetic problem for Keel/i);
		} finally {
			collection.dispose();
		}
	});

	it('refuses local addresses for fetch and web_scrape before any request is made', async () => {
		await keel.set('approval.autoApproveNetwork', true);
		keel.double.script(
			toolCalls([
				// A path of its own: Keel's model client asks the double about itself (/v1/models) every turn.
				{ name: 'fetch', arguments: { url: `https://127.0.0.1:${keel.double.port}/keel-fetch-target` } },
				{
					name: 'web_scrape',
					arguments: { url: 'https://169.254.169.254/latest/meta-data', selector: 'body' },
				},
			]),
			text('refused'),
		);
		const before = keel.double.requests.length;
		await keel.api.runTurn('fetch things');
		const results = keel.toolResults();
		assert.ok(
			results.every(r => !r.ok),
			JSON.stringify(results),
		);
		assert.ok(
			results.every(r => /loopback|private|link-local|not allowed|refused/i.test(r.content)),
			JSON.stringify(results.map(r => r.content)),
		);
		assert.strictEqual(
			keel.double.requests.filter(r => r.path === '/keel-fetch-target').length,
			0,
			'the guard refused before connecting',
		);
		assert.ok(keel.double.requests.length - before >= 2);
	});
});
