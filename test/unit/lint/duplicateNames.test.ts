import * as assert from 'assert';
import * as path from 'path';
import fc from 'fast-check';
import { duplicateFunctionNames, readModules, topLevelFunctions } from '../../support/functionNames';

// Two functions of one name in src mean either one job written twice (share it) or two jobs
// under one name (name each for its job): either way a reader who finds one has not found
// the other.
const src = path.resolve(__dirname, '../../../../src');

/** The ways a module defines a top-level function, each printed for a name. */
const FORMS: Array<(name: string) => string> = [
	name => `function ${name}(a: number): number {\n\treturn a;\n}`,
	name => `export function ${name}(): void {}`,
	name => `export async function ${name}(): Promise<void> {}`,
	name => `export function* ${name}(): Iterable<number> {}`,
	name => `const ${name} = (x: string) => x.length;`,
	name => `export const ${name} = async () => 1;`,
	name => `const ${name} = function (): void {};`,
	name => `export const ${name} = ((x: number) => x) as (x: number) => number;`,
	name =>
		`export function ${name}(a: string): string;\nexport function ${name}(a: number): number;\nexport function ${name}(a: unknown): unknown {\n\treturn a;\n}`,
];

/** Things that are not top-level functions and must never be reported. */
const NOT_FUNCTIONS: Array<(name: string) => string> = [
	name => `const ${name} = 3;`,
	name => `export class ${name} {\n\t${name}(): void {}\n}`,
	name => `export interface ${name} {\n\t${name}(): void;\n}`,
	name => `{\n\tfunction ${name}(): void {}\n}`,
	name => `export const table = { ${name}: () => 1 };`,
	name => `// function ${name}() {}`,
];

// The same words in the engine and in a view: the layer rules keep src/webview from importing
// src/core, so a formatter both need (the Check Model report's figures, drawn by the view and
// written by the Markdown export) is written once on each side, under the one name.
const ACROSS_LAYERS = new Set(['brokenShare', 'callsLine', 'durationText', 'percent', 'tokens']);
const oneEachSide = (sites: Array<{ file: string }>) =>
	sites.length === 2 && sites.some(s => s.file.startsWith('core/')) && sites.some(s => s.file.startsWith('webview/'));

describe('lint: one name, one function', function () {
	this.timeout(120_000); // parsing every module of src is slow on a busy machine; no time is asserted
	it('no two modules of src define a top-level function of the same name', () => {
		const duplicates = [...duplicateFunctionNames(readModules(src))].filter(
			([name, sites]) => !(ACROSS_LAYERS.has(name) && oneEachSide(sites)),
		);
		const listing = [...duplicates].map(
			([name, sites]) => `${name}: ${sites.map(s => `src/${s.file}:${s.line}`).join(', ')}`,
		);
		assert.deepStrictEqual(listing, [], `share or rename:\n${listing.join('\n')}`);
	});

	it('reports exactly the names defined as functions in more than one module, whatever the form', () => {
		const identifier = fc.stringMatching(/^[a-z][A-Za-z0-9]{0,7}$/);
		const definition = fc.record({
			name: identifier,
			module: fc.nat({ max: 4 }),
			form: fc.nat({ max: FORMS.length - 1 }),
			decoy: fc.option(fc.nat({ max: NOT_FUNCTIONS.length - 1 }), { nil: undefined }),
		});
		fc.assert(
			fc.property(fc.uniqueArray(definition, { selector: d => `${d.module}/${d.name}`, maxLength: 12 }), defs => {
				const modules = Array.from({ length: 5 }, (_, i) => ({
					file: i % 2 ? `core/m${i}.ts` : `webview/m${i}.tsx`,
					text: defs
						.filter(d => d.module === i)
						.map(d => FORMS[d.form](d.name))
						.join('\n\n'),
				}));
				// A decoy of some name in a module of its own: a constant, a method, a function in a block.
				const decoys = defs.filter(d => d.decoy !== undefined);
				modules.push(
					...decoys.map((d, i) => ({ file: `decoys/d${i}.ts`, text: NOT_FUNCTIONS[d.decoy!](d.name) })),
				);
				const expected = new Map<string, number>();
				for (const d of defs) {
					expected.set(d.name, (expected.get(d.name) ?? 0) + 1);
				}
				const reported = duplicateFunctionNames(modules);
				assert.deepStrictEqual(
					[...reported.keys()].sort(),
					[...expected]
						.filter(([, count]) => count > 1)
						.map(([name]) => name)
						.sort(),
				);
				for (const [name, sites] of reported) {
					assert.strictEqual(sites.length, expected.get(name));
				}
			}),
		);
	});

	it('names each definition by module and line, an overloaded function once', () => {
		const text = `import x from 'y';\n\nexport function f(a: string): string;\nexport function f(a: unknown): unknown {\n\treturn a;\n}\nconst g = () => 1;\n`;
		assert.deepStrictEqual(topLevelFunctions('core/a.ts', text), [
			{ name: 'f', file: 'core/a.ts', line: 3 },
			{ name: 'g', file: 'core/a.ts', line: 7 },
		]);
	});
});
