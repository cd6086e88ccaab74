import * as assert from 'assert';
import * as path from 'path';
import { ESLint } from 'eslint';
import { untypedEslint } from '../../support/untypedEslint';

// The layer rules of eslint.config.mjs, run through ESLint itself on code placed (by name) in each
// layer, so a change of config, plugin or resolver that stops them from biting fails here.
const root = path.resolve(__dirname, '../../../..');

const eslint = untypedEslint();

async function layerErrors(file: string, code: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
	return result.messages.map(m => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

const ZONE = 'import-x/no-restricted-paths';

describe('lint: layer rules', function () {
	this.timeout(120_000); // loading typescript-eslint is slow on a busy machine; no time is asserted

	it('reports src/core importing vscode', async () => {
		const errors = await layerErrors(
			'src/core/agent/layerProbe.ts',
			"import * as vscode from 'vscode';\nexport const probe = vscode;\n",
		);
		assert.strictEqual(errors.length, 1, errors.join('\n'));
		assert.match(errors[0], /^no-restricted-imports: .*vscode/);
	});

	it('reports src/core importing the view types of src/shared or the host', async () => {
		const errors = await layerErrors(
			'src/core/agent/layerProbe.ts',
			"import type { ChatItem } from '../../shared/views';\nimport { KeelHost } from '../../host/keelHost';\nexport type Probe = [ChatItem, KeelHost];\n",
		);
		assert.deepStrictEqual(
			errors.map(e => e.split(':')[0]),
			[ZONE, ZONE],
			errors.join('\n'),
		);
	});

	it('reports src/webview importing the host, the engine or vscode', async () => {
		const errors = await layerErrors(
			'src/webview/layerProbe.tsx',
			"import { KeelHost } from '../host/keelHost';\nimport { runTurn } from '../core/agent/loop/runAgent';\nimport * as vscode from 'vscode';\nexport const probe = [KeelHost, runTurn, vscode];\n",
		);
		assert.deepStrictEqual(
			errors.map(e => e.split(':')[0]).sort(),
			[ZONE, ZONE, 'no-restricted-imports'],
			errors.join('\n'),
		);
	});

	it('resolves a relative path, whatever the depth of the file', async () => {
		const errors = await layerErrors(
			'src/core/tools/sources/layerProbe.ts',
			"import type { ChatItem } from '../../../shared/views';\nexport type Probe = ChatItem;\n",
		);
		assert.deepStrictEqual(
			errors.map(e => e.split(':')[0]),
			[ZONE],
			errors.join('\n'),
		);
		const fromWebview = await layerErrors(
			'src/webview/parts/layerProbe.tsx',
			"import type { ChatItem } from '../../shared/views';\nimport { KeelHost } from '../../host/keelHost';\nexport type Probe = [ChatItem, typeof KeelHost];\n",
		);
		assert.deepStrictEqual(
			fromWebview.map(e => e.split(':')[0]),
			[ZONE],
			fromWebview.join('\n'),
		);
		assert.match(fromWebview[0], /browser bundle/);
	});

	it('reports src/shared importing the engine', async () => {
		const errors = await layerErrors(
			'src/shared/layerProbe.ts',
			"import type { ToolCallState } from '../core/agent/events';\nexport type Probe = ToolCallState;\n",
		);
		assert.deepStrictEqual(
			errors.map(e => e.split(':')[0]),
			[ZONE],
			errors.join('\n'),
		);
	});

	it('reports a floor of the engine importing one above it', async () => {
		const cases: Array<[string, string, RegExp]> = [
			[
				'src/core/gate/paths/layerProbe.ts',
				"import { ok } from '../../tools/defineTool';",
				/bottom of the engine/,
			],
			[
				'src/core/gate/layerProbe.ts',
				"import { runTurn } from '../agent/loop/runAgent';",
				/bottom of the engine/,
			],
			[
				'src/core/gate/layerProbe.ts',
				"import { createChatModel } from '../llm/catalog/providers';",
				/bottom of the engine/,
			],
			['src/core/shell/layerProbe.ts', "import { Gate } from '../gate/gate';", /below the gate/],
			[
				'src/core/tools/lent/layerProbe.ts',
				"import { runTurn } from '../../agent/loop/runAgent';",
				/through a port/,
			],
			['src/core/llm/wires/layerProbe.ts', "import { ok } from '../../tools/defineTool';", /below the tools/],
		];
		for (const [file, line, message] of cases) {
			// The probe's import is unused; only the layer rule is asserted.
			const errors = (await layerErrors(file, `${line}\nexport const probe = 1;\n`)).filter(
				e => !e.startsWith('@typescript-eslint/no-unused-vars'),
			);
			assert.deepStrictEqual(
				errors.map(e => e.split(':')[0]),
				[ZONE],
				`${file}: ${errors.join('\n')}`,
			);
			assert.match(errors[0], message);
		}
	});

	it('reports a shared room of the host importing a feature above it', async () => {
		for (const [file, line] of [
			['src/host/common/layerProbe.ts', "import { TurnChanges } from '../checkpoints/turnChanges';"],
			['src/host/view/layerProbe.ts', "import { KeelHost } from '../keelHost';"],
		]) {
			// The probe's import is unused; only the layer rule is asserted.
			const errors = (await layerErrors(file, `${line}\nexport const probe = 1;\n`)).filter(
				e => !e.startsWith('@typescript-eslint/no-unused-vars'),
			);
			assert.deepStrictEqual(
				errors.map(e => e.split(':')[0]),
				[ZONE],
				`${file}: ${errors.join('\n')}`,
			);
			assert.match(errors[0], /below the features/);
		}
	});

	it('reports an import circle, and lets a type-only import close one', async () => {
		// modelStep.ts imports callBounds.ts; callBounds.ts importing modelStep.ts back closes a circle.
		const file = 'src/core/agent/loop/callBounds.ts';
		const errors = await layerErrors(
			file,
			"import { runModelStep } from './modelStep';\nexport const probe = runModelStep;\n",
		);
		assert.deepStrictEqual(
			errors.map(e => e.split(':')[0]),
			['import-x/no-cycle'],
			errors.join('\n'),
		);
		assert.deepStrictEqual(
			await layerErrors(file, "import type { StepCall } from './modelStep';\nexport type Probe = StepCall;\n"),
			[],
		);
	});

	it('lets each layer import what it may', async () => {
		assert.deepStrictEqual(
			await layerErrors(
				'src/webview/layerProbe.tsx',
				"import { render } from 'preact';\nimport type { ChatItem } from '../shared/views';\nimport { h } from './h';\nexport type Probe = [typeof render, ChatItem, typeof h];\n",
			),
			[],
		);
		assert.deepStrictEqual(
			await layerErrors(
				'src/core/tools/sources/layerProbe.ts',
				"import { Client } from '@modelcontextprotocol/sdk/shared/transport.js';\nimport { ok } from '../defineTool';\nimport type { Workspace } from '../../ports';\nexport type Probe = [Client, typeof ok, Workspace];\n",
			),
			[],
		);
		assert.deepStrictEqual(
			await layerErrors(
				'src/host/layerProbe.ts',
				"import * as vscode from 'vscode';\nimport { runTurn } from '../core/agent/loop/runAgent';\nimport type { ChatItem } from '../shared/views';\nexport type Probe = [typeof vscode, typeof runTurn, ChatItem];\n",
			),
			[],
		);
	});

	it('checks for floating and misused promises with type information', async () => {
		const config = await new ESLint({ cwd: root }).calculateConfigForFile(
			path.join(root, 'src/core/agent/loop/runAgent.ts'),
		);
		for (const rule of ['@typescript-eslint/no-floating-promises', '@typescript-eslint/no-misused-promises']) {
			assert.ok([2, 'error'].includes(config.rules[rule]?.[0]), `${rule} is not an error`);
		}
		assert.ok(config.languageOptions.parserOptions.projectService, 'type information is off');
	});
});
