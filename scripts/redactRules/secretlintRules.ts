/**
 * secretlint's recommended preset, as published on npm: its rules are code, so their shapes
 * are read out of the rules' own sources (shipped in the preset's source map): every regular
 * expression a rule assigns to a `…Pattern`/`…PATTERN` constant, a regex literal or
 * `new RegExp(String.raw\`…\`)` with the constants it interpolates filled in.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

export interface SecretlintPattern {
	/** `<rule>/<constant>`, e.g. `aws/AWSAccessKeyIDPattern`. */
	id: string;
	rule: string;
	/** JavaScript syntax, as the rule writes it. */
	source: string;
}

export interface SecretlintPreset {
	version: string;
	sha256: string;
	patterns: SecretlintPattern[];
}

const PRESET = 'node_modules/@secretlint/secretlint-rule-preset-recommend';

export function readSecretlintPreset(root: string): SecretlintPreset {
	const dir = path.join(root, PRESET);
	const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
	const hash = createHash('sha256');
	const patterns: SecretlintPattern[] = [];
	for (const file of fs
		.readdirSync(path.join(dir, 'module'))
		.filter(f => f.endsWith('.js.map'))
		.sort()) {
		const map = JSON.parse(fs.readFileSync(path.join(dir, 'module', file), 'utf8')) as {
			sources: string[];
			sourcesContent: string[];
		};
		map.sources.forEach((source, i) => {
			const rule = /secretlint-rule-([\w-]+)\/module\//.exec(source)?.[1];
			if (!rule || rule === 'filter-comments') return;
			hash.update(map.sourcesContent[i]);
			patterns.push(...patternsIn(rule, map.sourcesContent[i]));
		});
	}
	return { version, sha256: hash.digest('hex'), patterns };
}

function patternsIn(rule: string, code: string): SecretlintPattern[] {
	const file = ts.createSourceFile(`${rule}.js`, code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
	const out: SecretlintPattern[] = [];
	const visit = (node: ts.Node, scope: Map<string, string>) => {
		if (ts.isBlock(node) || ts.isSourceFile(node)) {
			scope = new Map(scope);
		}
		if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
			const name = node.name.text;
			const init = node.initializer;
			if (ts.isStringLiteral(init) || ts.isNoSubstitutionTemplateLiteral(init)) {
				scope.set(name, init.text);
			}
			if (/pattern|patten/i.test(name)) {
				const source = regexSource(init, scope);
				const same = out.filter(p => p.id === `${rule}/${name}` || p.id.startsWith(`${rule}/${name}-`)).length;
				if (source) out.push({ id: `${rule}/${name}${same ? `-${same + 1}` : ''}`, rule, source });
			}
		}
		ts.forEachChild(node, child => visit(child, scope));
	};
	visit(file, new Map());
	return out;
}

/** The pattern a `/…/g` literal or `new RegExp(String.raw\`…\`, flags)` builds, constants filled in. */
function regexSource(init: ts.Expression, scope: Map<string, string>): string | undefined {
	if (ts.isRegularExpressionLiteral(init)) {
		return init.text.slice(1, init.text.lastIndexOf('/'));
	}
	if (ts.isNewExpression(init) && init.expression.getText() === 'RegExp' && init.arguments?.length) {
		const arg = init.arguments[0];
		if (ts.isTaggedTemplateExpression(arg) && arg.tag.getText() === 'String.raw') {
			const template = arg.template;
			if (ts.isNoSubstitutionTemplateLiteral(template)) return template.rawText;
			let text = template.head.rawText ?? '';
			for (const span of template.templateSpans) {
				const value = scope.get(span.expression.getText());
				if (value === undefined)
					throw new Error(`secretlint pattern uses an unknown constant ${span.expression.getText()}`);
				text += value + (span.literal.rawText ?? '');
			}
			return text;
		}
	}
	return undefined;
}
