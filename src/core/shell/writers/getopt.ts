/**
 * A command's arguments as a GNU getopt program reads them, from a grammar given as data: which
 * short letters take a value (attached `-ofile`, next word `-o file`, or last in a bundle
 * `-rofile`), which long options take one (`--output=file`, `--output file`, any unambiguous
 * prefix `--out=file`), options anywhere until `--` unless the program stops at its first
 * operand. What the program will treat as a value is then known however the line spells it.
 */
import type { WordValue } from '../shellWords';

export interface OptionGrammar {
	/** Short option letters that take a value. */
	valued?: string;
	/** Long option names (without `--`) that take a value. */
	longValued?: readonly string[];
	/** Long option names that take no value (or only an attached `=` one), so prefixes resolve. */
	longFlags?: readonly string[];
	/** Single-dash long options (`-out file`, find's `-fprint file`): these names take a value. */
	dashLong?: readonly string[];
	/** Options end at the first operand (POSIX order, interpreters, `find`'s start points). */
	posix?: boolean;
	/** tar's first word without a dash is a bundle of letters whose values follow in order. */
	oldStyleBundle?: boolean;
}

export interface ParsedOption {
	/** As the program knows it: `-o` or `--output` (a prefix spelled out in full). */
	name: string;
	value?: WordValue;
}

export interface ParsedArgs {
	options: ParsedOption[];
	operands: WordValue[];
}

const UNKNOWN: WordValue = { text: '', known: false };

/** The long option `written` (without `--`) names, resolved among the grammar's names. */
function longName(written: string, grammar: OptionGrammar): string {
	const names = [...(grammar.longValued ?? []), ...(grammar.longFlags ?? [])];
	if (names.includes(written)) return written;
	const matches = names.filter(name => name.startsWith(written));
	return matches.length === 1 ? matches[0] : written;
}

export function parseArgs(args: readonly WordValue[], grammar: OptionGrammar): ParsedArgs {
	const out: ParsedArgs = { options: [], operands: [] };
	const valued = grammar.valued ?? '';
	let i = 0;
	if (grammar.oldStyleBundle && args[0]?.known && /^[a-zA-Z]+$/.test(args[0].text)) {
		// `tar cvzf out.tar src`: each letter an option; the valued ones take the next words in order.
		i = 1;
		for (const letter of args[0].text) {
			out.options.push(
				valued.includes(letter) ? { name: `-${letter}`, value: args[i++] ?? UNKNOWN } : { name: `-${letter}` },
			);
		}
	}
	let optionsOver = false;
	for (; i < args.length; i++) {
		const word = args[i];
		const text = word.text;
		if (optionsOver || !word.known || !text.startsWith('-') || text === '-') {
			out.operands.push(word);
			if (grammar.posix) optionsOver = true;
			continue;
		}
		if (text === '--') {
			optionsOver = true;
			continue;
		}
		if (text.startsWith('--')) {
			const eq = text.indexOf('=');
			const name = longName(text.slice(2, eq === -1 ? undefined : eq), grammar);
			if (eq !== -1) {
				out.options.push({ name: `--${name}`, value: { text: text.slice(eq + 1), known: true } });
			} else if (grammar.longValued?.includes(name)) {
				out.options.push({ name: `--${name}`, value: args[++i] ?? UNKNOWN });
			} else {
				out.options.push({ name: `--${name}` });
			}
			continue;
		}
		const dashName = text.slice(1);
		if (grammar.dashLong?.includes(dashName)) {
			out.options.push({ name: text, value: args[++i] ?? UNKNOWN });
			continue;
		}
		for (let j = 1; j < text.length; j++) {
			const letter = text[j];
			if (!valued.includes(letter)) {
				out.options.push({ name: `-${letter}` });
				continue;
			}
			const attached = text.slice(j + 1);
			out.options.push({
				name: `-${letter}`,
				value: attached ? { text: attached, known: true } : (args[++i] ?? UNKNOWN),
			});
			break;
		}
	}
	return out;
}

/** The values given to any of `names` (`-o`, `--output`), in order. */
export function optionValues(parsed: ParsedArgs, ...names: string[]): WordValue[] {
	return parsed.options.filter(o => names.includes(o.name) && o.value).map(o => o.value!);
}

export function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
	return parsed.options.some(o => names.includes(o.name));
}
