/**
 * Where the grammar and bash may read a line differently: a substitution bash would run that the
 * grammar left as text, and arithmetic, where bash evaluates a variable's value as code.
 */
import type { BashNode } from './bashParser';

export function isArithmetic(node: BashNode): boolean {
	if (node.type === 'compound_statement') {
		return node.children[0]?.type === '((';
	}
	if (node.type === 'test_command') {
		return node.descendantsOfType('test_operator').some(op => /^-(?:eq|ne|lt|le|gt|ge)$/.test(op?.text ?? ''));
	}
	return true;
}

export function hasVariable(node: BashNode): boolean {
	return node.descendantsOfType(['variable_name', 'word', 'simple_expansion', 'expansion']).length > 0;
}

/**
 * Every `$(`, backtick, `<(` and `>(` bash would act on must be one the grammar parsed as a
 * substitution: the grammar leaves backticks inside `${…}` as plain text, for one. One it
 * missed is a command we cannot see, so the line is treated as running an unknown command.
 */
export function missedSubstitution(source: string, root: BashNode): boolean {
	const starts = new Set(
		root
			.descendantsOfType(['command_substitution', 'process_substitution', 'arithmetic_expansion'])
			.map(n => n!.startIndex),
	);
	const ends = new Set(
		root
			.descendantsOfType('command_substitution')
			.filter(n => n!.text.startsWith('`'))
			.map(n => n!.endIndex - 1),
	);
	const literal = root
		.descendantsOfType(['raw_string', 'comment', 'ansi_c_string'])
		.map(n => [n!.startIndex, n!.endIndex] as const);
	const quoted = root.descendantsOfType(['string', 'heredoc_body']).map(n => [n!.startIndex, n!.endIndex] as const);
	const marker = /\$\(|`|[<>]\(/g;
	for (let m = marker.exec(source); m; m = marker.exec(source)) {
		const at = m.index;
		const escaped = /(\\+)$/.exec(source.slice(0, at))?.[1].length ?? 0;
		if (
			escaped % 2 === 1 ||
			starts.has(at) ||
			ends.has(at) ||
			literal.some(([from, to]) => at >= from && at < to)
		) {
			continue;
		}
		if (/^[<>]/.test(m[0]) && quoted.some(([from, to]) => at >= from && at < to)) {
			continue; // "<(" inside double quotes is text; "$(" and backticks there are not
		}
		return true;
	}
	return false;
}
