import * as assert from 'assert';
import * as path from 'path';
import { ESLint } from 'eslint';
import { untypedEslint } from '../../support/untypedEslint';

// The size and switch rules of eslint.config.mjs, run through ESLint on generated code placed in
// src/, so a change of config that stops them from biting fails here.
const root = path.resolve(__dirname, '../../../..');

function functionOf(name: string, lines: number, arrow = false): string {
	const body = Array.from({ length: lines }, (_, i) => `\tconst v${i} = ${i};`).join('\n');
	const sum = Array.from({ length: lines }, (_, i) => `v${i}`).join(' + ');
	return arrow
		? `export const ${name} = (): number => {\n${body}\n\treturn ${sum};\n};\n`
		: `export function ${name}(): number {\n${body}\n\treturn ${sum};\n}\n`;
}

const untyped = untypedEslint();

async function ruleIds(file: string, code: string): Promise<string[]> {
	const [result] = await untyped.lintText(code, { filePath: path.join(root, file) });
	return result.messages.map(m => m.ruleId ?? 'parse');
}

describe('lint: sizes and exhaustive switches', function () {
	this.timeout(120_000); // typescript-eslint with type information loads slowly; no time is asserted

	it('reports a function over 80 lines, counted without blank and comment lines, whatever its form', async () => {
		for (const arrow of [false, true]) {
			assert.deepStrictEqual(await ruleIds('src/core/util/sizeProbe.ts', functionOf('long', 80, arrow)), [
				'keel-size/max-lines-per-function',
			]);
			const padded = functionOf('padded', 76, arrow).replace(/\n\t/g, '\n\n\t// why\n\t');
			assert.deepStrictEqual(await ruleIds('src/core/util/sizeProbe.ts', padded), []);
		}
	});

	it('exempts tool definition lists by name, and nothing else', async () => {
		assert.deepStrictEqual(await ruleIds('src/core/tools/sizeProbe.ts', functionOf('createProbeTools', 120)), []);
		assert.deepStrictEqual(
			await ruleIds('src/core/tools/sizeProbe.ts', functionOf('createProbeToolsAndMore', 120)),
			['keel-size/max-lines-per-function'],
		);
	});

	it('reports a file over 400 lines', async () => {
		const functions = Array.from({ length: 12 }, (_, i) => functionOf(`part${i}`, 35)).join('\n');
		assert.deepStrictEqual(await ruleIds('src/host/sizeProbe.ts', functions), ['max-lines']);
	});

	it('reports a switch over a union that leaves a case out, even behind a default', async () => {
		const code = [
			"type Kind = 'a' | 'b' | 'c';",
			'export function name(kind: Kind): string {',
			'\tswitch (kind) {',
			"\t\tcase 'a':",
			"\t\t\treturn 'A';",
			"\t\tcase 'b':",
			"\t\t\treturn 'B';",
			'\t\tdefault:',
			"\t\t\treturn '?';",
			'\t}',
			'}',
			'',
		].join('\n');
		// A probe outside every tsconfig has no type information; an existing file of src/ does.
		const [result] = await new ESLint({ cwd: root }).lintText(code, {
			filePath: path.join(root, 'src/core/util/lifecycle.ts'),
		});
		assert.deepStrictEqual(
			result.messages.map(m => m.ruleId),
			['@typescript-eslint/switch-exhaustiveness-check'],
		);
	});

	it('reports a non-null assertion in the host, where everything is built before it is used', async () => {
		const code = 'export function first(items: string[]): number {\n\treturn items.find(Boolean)!.length;\n}\n';
		assert.deepStrictEqual(await ruleIds('src/host/sizeProbe.ts', code), [
			'@typescript-eslint/no-non-null-assertion',
		]);
		assert.deepStrictEqual(await ruleIds('src/core/util/sizeProbe.ts', code), []);
	});
});
