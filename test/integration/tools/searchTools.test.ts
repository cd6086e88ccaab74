// grep and find_path through real ripgrep on a real tree; read_output and redaction on real outputs.
import * as assert from 'assert';
import * as path from 'path';
import { tempTree, type TempTree } from '../../support/tempTree';
import { toolHarness } from '../../support/toolHarness';

describe('search tools on a real tree (ripgrep)', () => {
	let tree: TempTree;
	let ws: string;

	before(() => {
		tree = tempTree('keel-search-');
		ws = path.join(tree.base, 'ws');
		const files: Record<string, string> = {
			'ws/.gitignore': 'dist/\n*.log\n',
			'ws/dist/bundle.js': 'function needle() {}\n',
			'ws/debug.log': 'needle in a log\n',
			'ws/src/a.ts': 'import x from "y";\nfunction needle() {\n  return 1;\n}\nexport const Needle = 2;\n',
			'ws/src/b.py': 'def needle():\n    pass\n',
			'ws/generated/c.ts': 'needle()\n',
			'ws/.env': 'NEEDLE_SECRET=1\n',
		};
		for (let i = 0; i < 30; i++) {
			files[`ws/many/f${String(i).padStart(2, '0')}.txt`] = `line\nneedle ${i}\n`;
		}
		tree.add(files);
	});
	after(() => tree.cleanup());

	it('grep: smart case, regex, path filter and context lines', async () => {
		const h = toolHarness(ws);
		const smart = await h.run('grep', { pattern: 'Needle', path: 'src/**' });
		assert.strictEqual(smart.output, 'src/a.ts\n  5: export const Needle = 2;');
		const context = await h.run('grep', { pattern: 'function \\w+\\(', path: '**/*.ts', context: 1 });
		assert.strictEqual(
			context.output,
			'src/a.ts\n  1- import x from "y";\n  2: function needle() {\n  3-   return 1;',
		);
		const sensitive = await h.run('grep', { pattern: 'needle', caseSensitive: false, path: 'src/*.ts' });
		assert.strictEqual(sensitive.card.status, 'succeeded');
		assert.match(sensitive.output, /2: function needle[\s\S]*5: export const Needle/);
	});

	it('grep honours .gitignore, files.exclude and the deny-read list', async () => {
		const h = toolHarness(ws, { deps: { excludes: () => ['generated/**'] } });
		const result = await h.run('grep', { pattern: 'needle', caseSensitive: false, limit: 500 });
		assert.ok(!/dist\/|debug\.log|generated\/|\.env/.test(result.output), result.output);
		assert.match(result.output, /src\/b\.py/);
	});

	it('grep pages: capped, says how to get the next page, and the pages join up', async () => {
		const h = toolHarness(ws);
		const first = await h.run('grep', { pattern: 'needle \\d+', path: 'many/**', limit: 20 });
		assert.match(first.output, /\[more matches; call again with offset 20\]$/);
		const second = await h.run('grep', { pattern: 'needle \\d+', path: 'many/**', limit: 20, offset: 20 });
		const count = (text: string) => (text.match(/: needle \d+/g) ?? []).length;
		assert.strictEqual(count(first.output) + count(second.output), 30);
		assert.ok(!/more matches/.test(second.output));
	});

	it('grep reports a bad regex as something the model can fix, and no match as a result', async () => {
		const h = toolHarness(ws);
		assert.match(
			(await h.run('grep', { pattern: 'needle(' })).output,
			/ripgrep rejected the search: .*fixed: true/,
		);
		const none = await h.run('grep', { pattern: 'zzz_nothing' });
		assert.ok(none.ok);
		assert.match(none.output, /No matches/);
	});

	it('find_path honours .gitignore and files.exclude', async () => {
		const h = toolHarness(ws, { deps: { excludes: () => ['generated/**'] } });
		const result = await h.run('find_path', { glob: '**/*.{ts,js}' });
		assert.strictEqual(result.output, 'src/a.ts');
	});
});

describe('output the model can use', () => {
	let tree: TempTree;
	before(() => {
		tree = tempTree('keel-out-');
		const big = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'x'.repeat(30)}`).join('\n');
		tree.add({
			'ws/big.txt': big,
			'ws/conf.ts': 'const config = { apiKey: "sk-proj-abcdefghijklmnopqrstuvwxyz012345" };\n',
		});
	});
	after(() => tree.cleanup());

	it('cuts outputs over 50,000 characters to head + tail with a reference read_output pages through, per session', async () => {
		const h = toolHarness(path.join(tree.base, 'ws'), { sessionId: 'session-A' });
		const result = await h.run('read_file', { path: 'big.txt', limit: 3000 });
		assert.ok(result.output.length < 50_000);
		assert.match(result.output, /^ {3}1 {2}line 0 /);
		assert.match(result.output, /line 2999 x+$/);
		const ref = /stored as (out_[\w-]+)/.exec(result.output)![1];
		const page = await h.run('read_output', { ref, offset: 1500, limit: 2 });
		assert.match(page.output, /^1500 {2}line 1499 x+\n1501 {2}line 1500 x+\n\[lines 1500–1501 of 3000/);
		const other = toolHarness(path.join(tree.base, 'ws'), {
			sessionId: 'session-B',
			deps: { outputs: h.deps.outputs },
		});
		assert.match((await other.run('read_output', { ref })).output, /No stored output .* in this session/);
	});

	it('redacts credentials from tool output and tells the model', async () => {
		const h = toolHarness(path.join(tree.base, 'ws'));
		const result = await h.run('read_file', { path: 'conf.ts' });
		assert.ok(!result.output.includes('abcdefghijklmnop'));
		assert.match(result.output, /Keel redacted 1 credential-shaped string/);
		assert.strictEqual(result.card.redactions, 1);
	});
});
