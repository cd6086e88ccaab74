import * as assert from 'assert';
import * as z from 'zod';
import { defineTool, ok } from '../../../../src/core/tools/defineTool';
import { defaultToolDeps } from '../../../../src/core/tools/toolDeps';
import { createToolset } from '../../../../src/core/tools/toolset';
import { InMemoryWorkspace } from '../../../fakes/inMemoryWorkspace';

const mochaRun = [
	'',
	...Array.from({ length: 340 }, (_, i) => `    ✔ case ${i}`),
	'',
	'  340 passing (3s)',
	'  1 failing',
	'  1) suite does x:',
	'     AssertionError: expected 1 to equal 2',
].join('\n');
const fakeCommand = defineTool({
	name: 'run_command',
	description: 'stand-in',
	input: z.object({ command: z.string() }),
	effect: 'exec',
	describe: i => i.command,
	execute: async () => ok(`\u001b[32m${mochaRun}\u001b[0m`, { exitCode: 1 }),
});

describe('toolset wrapping', () => {
	const deps = defaultToolDeps();
	const tools = createToolset(deps, [fakeCommand]);
	const context = {
		workspace: new InMemoryWorkspace(),
		signal: new AbortController().signal,
		progress: () => {},
		sessionId: 's',
	};

	it('filters command output, reports N → M lines, and keeps the unfiltered text for read_output', async () => {
		const result = await tools.find(t => t.name === 'run_command')!.execute({ command: 'npx mocha' }, context);
		assert.strictEqual(result.linesBefore, 346);
		assert.ok(Number(result.linesAfter) < 10, result.display);
		assert.match(
			result.display,
			/340 passing[\s\S]*AssertionError[\s\S]*Keel filtered this output: 346 → \d+ lines \(\d+% filtered, full\), rule mocha/,
		);
		assert.strictEqual(result.filterConfidence, 'full');
		const raw = await deps.outputs.get('s', String(result.filteredRef));
		assert.match(raw ?? '', /✔ case 339/);
	});

	it('leaves read tools unfiltered', async () => {
		const ws = new InMemoryWorkspace({ 'a.txt': '\u001b[31mred\u001b[0m' });
		const result = await tools
			.find(t => t.name === 'read_file')!
			.execute({ path: 'a.txt' }, { ...context, workspace: ws });
		// eslint-disable-next-line no-control-regex
		assert.match(result.display, /\u001b\[31m/);
	});

	it("cuts long outputs at a share of the model's context window, not a fixed size", async () => {
		const { shapeOutput } = await import('../../../../src/core/tools/toolset');
		const { defaultToolSystemConfig, overflowThreshold } =
			await import('../../../../src/core/tools/toolSystemConfig');
		const long = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
		const small = defaultToolDeps({
			toolSystem: () => defaultToolSystemConfig({ overflowChars: overflowThreshold(4096) }),
		});
		const cut = await shapeOutput({ ok: true, display: long }, small, { sessionId: 's' });
		assert.strictEqual(cut.truncated, true);
		assert.ok(cut.display.length < 5500, String(cut.display.length));
		assert.match(cut.display, /^line 0\n[\s\S]*omitted\. Full output stored as out_[\s\S]*line 1999$/);
		const large = defaultToolDeps({
			toolSystem: () => defaultToolSystemConfig({ overflowChars: overflowThreshold(200_000) }),
		});
		assert.strictEqual(
			(await shapeOutput({ ok: true, display: long }, large, { sessionId: 's' })).truncated,
			undefined,
		);
	});
});
