/**
 * The functions a module defines at its top level (exported or not), found with the TypeScript
 * compiler's parser: `function f`, and `const f = (…) => …` / `const f = function …`. Used by
 * the guard that no two files of src define functions of the same name.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

export interface FunctionSite {
	name: string;
	/** Relative to the folder walked, with forward slashes. */
	file: string;
	line: number;
}

function isFunctionValue(node: ts.Expression | undefined): boolean {
	let inner = node;
	while (
		inner &&
		(ts.isParenthesizedExpression(inner) || ts.isAsExpression(inner) || ts.isSatisfiesExpression(inner))
	) {
		inner = inner.expression;
	}
	return !!inner && (ts.isArrowFunction(inner) || ts.isFunctionExpression(inner));
}

/** The top-level function names of one module, once each (overloads are one function). */
export function topLevelFunctions(file: string, text: string): FunctionSite[] {
	const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
	const found = new Map<string, FunctionSite>();
	const add = (name: ts.Identifier) => {
		if (!found.has(name.text)) {
			const line = source.getLineAndCharacterOfPosition(name.getStart(source)).line + 1;
			found.set(name.text, { name: name.text, file, line });
		}
	};
	for (const statement of source.statements) {
		if (ts.isFunctionDeclaration(statement) && statement.name) {
			add(statement.name);
		} else if (ts.isVariableStatement(statement)) {
			for (const declaration of statement.declarationList.declarations) {
				if (ts.isIdentifier(declaration.name) && isFunctionValue(declaration.initializer)) {
					add(declaration.name);
				}
			}
		}
	}
	return [...found.values()];
}

/** Names defined as top-level functions in more than one module, each with every place it is defined. */
export function duplicateFunctionNames(modules: Array<{ file: string; text: string }>): Map<string, FunctionSite[]> {
	const byName = new Map<string, FunctionSite[]>();
	for (const { file, text } of modules) {
		for (const site of topLevelFunctions(file, text)) {
			byName.set(site.name, [...(byName.get(site.name) ?? []), site]);
		}
	}
	return new Map([...byName].filter(([, sites]) => sites.length > 1).sort(([a], [b]) => a.localeCompare(b)));
}

/** Every .ts and .tsx module under `root` (declaration files left out). */
export function readModules(root: string): Array<{ file: string; text: string }> {
	return fs
		.readdirSync(root, { recursive: true, encoding: 'utf8' })
		.filter(file => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
		.sort()
		.map(file => ({ file: file.split(path.sep).join('/'), text: fs.readFileSync(path.join(root, file), 'utf8') }));
}
