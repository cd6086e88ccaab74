/**
 * Programs that run a program text: an interpreter's `-c`/`-e` (attached, bundled, `--eval=`),
 * the program it reads on stdin when it is given no script, editors and databases whose
 * commands can write or run anything. As data: how each takes its text. Their effects are not
 * seen by the rules, so such a line is opaque (it asks). awk and sed are read instead
 * (awkProgram.ts, sedScript.ts): what their program writes, reads and runs is judged like the
 * rest of the line, and only what they compute at run time makes them ask.
 */
import { awkEffects, type ProgramEffects } from './awkProgram';
import { hasOption, optionValues, parseArgs } from './getopt';
import { sedEffects } from './sedScript';
import type { WordValue } from '../shellWords';

interface Interpreter {
	/** Short option letters that take a value (`-W ignore`), so the script operand is found. */
	valued?: string;
	/** Long options (without `--`) that take a value. */
	longValued?: readonly string[];
	/** Short letters and long names whose value is program text. */
	inline: readonly string[];
	/** Options that name what runs instead of a script operand (`python -m module`). */
	runsNamed?: readonly string[];
	/** With no script operand the program reads its program from stdin. */
	stdin: boolean;
}

const INFO = /^(?:-[vVh]|--version|--help|-version|-help)$/;

const PYTHON: Interpreter = { valued: 'cmWXQ', inline: ['c'], runsNamed: ['m'], stdin: true };
const INTERPRETERS: Readonly<Record<string, Interpreter>> = {
	python: PYTHON,
	perl: { valued: 'eEIMm', inline: ['e', 'E', 'M', 'm'], stdin: true },
	ruby: { valued: 'eIrCEKTWx', inline: ['e'], stdin: true },
	node: {
		valued: 'epr',
		longValued: ['eval', 'print', 'require', 'import', 'input-type', 'loader', 'env-file', 'conditions', 'title'],
		inline: ['e', 'p', 'eval', 'print'],
		stdin: true,
	},
	bun: { valued: 'epr', longValued: ['eval', 'print'], inline: ['e', 'p', 'eval', 'print'], stdin: false },
	php: { valued: 'rRBEFcdfz', inline: ['r', 'R', 'B', 'E'], runsNamed: ['F', 'f'], stdin: true },
	lua: { valued: 'el', inline: ['e'], stdin: true },
	Rscript: { valued: 'e', inline: ['e'], stdin: false },
	R: { valued: 'e', longValued: ['file'], inline: ['e'], runsNamed: ['file'], stdin: true },
	osascript: { valued: 'el', inline: ['e'], stdin: true },
	pwsh: {
		valued: 'ceCEf',
		longValued: ['command', 'encodedcommand', 'file'],
		inline: ['c', 'e', 'C', 'E', 'command', 'encodedcommand'],
		runsNamed: ['f', 'file'],
		stdin: true,
	},
	tclsh: { inline: [], stdin: true },
	expect: { valued: 'cfD', inline: ['c'], runsNamed: ['f'], stdin: true },
	julia: { valued: 'eEpLJC', inline: ['e', 'E', 'L'], stdin: true },
	guile: { valued: 'celLs', inline: ['c', 'e', 'l'], stdin: true },
	racket: { valued: 'efrtlp', inline: ['e', 'f', 'r', 'l'], stdin: true },
	sbcl: { longValued: ['eval', 'load', 'script'], inline: ['eval', 'load'], stdin: true },
	ghci: { valued: 'e', inline: ['e'], stdin: true },
	gdb: {
		longValued: ['eval-command', 'init-eval-command', 'command'],
		valued: 'x',
		inline: ['ex', 'iex', 'eval-command', 'init-eval-command', 'x', 'command'],
		stdin: true,
	},
};
/** Every use may write or run anything the rules do not see (commands on stdin or in their own language). */
const ALWAYS_OPAQUE = new Set([
	'm4',
	'ed',
	'red',
	'ex',
	'vi',
	'vim',
	'nvim',
	'view',
	'vimdiff',
	'emacs',
	'sqlite3',
	'duckdb',
	'psql',
	'mysql',
	'mariadb',
	'dc',
	'tmux',
	'screen',
	'at',
	'batch',
	'crontab',
	'deno',
]);

function interpreterOf(name: string): Interpreter | undefined {
	if (/^python[\d.]*$/.test(name)) return PYTHON;
	if (/^perl[\d.]*$/.test(name)) return INTERPRETERS.perl;
	if (/^(?:nodejs|node)$/.test(name)) return INTERPRETERS.node;
	if (/^lua(?:jit|[\d.]+)?$/.test(name)) return INTERPRETERS.lua;
	if (/^(?:powershell|pwsh)$/.test(name)) return INTERPRETERS.pwsh;
	if (name === 'wish') return INTERPRETERS.tclsh;
	return Object.prototype.hasOwnProperty.call(INTERPRETERS, name) ? INTERPRETERS[name] : undefined;
}

/** Why running `name` with `args` runs a program text the rules cannot see, or undefined. */
export function programTextConcern(name: string, args: readonly WordValue[]): string | undefined {
	if (args.length > 0 && args.every(a => a.known && INFO.test(a.text))) return undefined;
	if (ALWAYS_OPAQUE.has(name))
		return `"${name}" runs commands of its own language (on its input or its arguments) that the rules do not see`;
	const interpreter = interpreterOf(name);
	if (!interpreter) return undefined;
	const inline = `"${name}" runs an inline program whose effects the rules do not see`;
	for (let i = 0; i < args.length; i++) {
		const word = args[i];
		if (!word.known) return `"${name}" runs a program only known when it runs`;
		const text = word.text;
		if (text === '-') return `"${name}" runs the program on its input, which the rules do not see`;
		if (text === '--')
			return args[i + 1] === undefined && interpreter.stdin
				? `"${name}" runs the program on its input, which the rules do not see`
				: undefined;
		if (!text.startsWith('-')) return undefined; // the script: a file the rules can allow by name
		if (text.startsWith('--')) {
			const long = text.slice(2).split('=')[0];
			if (interpreter.inline.includes(long)) return inline;
			if (interpreter.runsNamed?.includes(long)) return undefined;
			if (!text.includes('=') && interpreter.longValued?.includes(long)) i++;
			continue;
		}
		// gdb's `-ex`, sbcl's single-dash long names.
		if (interpreter.inline.includes(text.slice(1))) return inline;
		for (let j = 1; j < text.length; j++) {
			const letter = text[j];
			if (interpreter.inline.includes(letter)) return inline;
			if (interpreter.runsNamed?.includes(letter)) return undefined;
			if (interpreter.valued?.includes(letter)) {
				if (j === text.length - 1) i++;
				break;
			}
		}
	}
	return interpreter.stdin ? `"${name}" runs the program on its input, which the rules do not see` : undefined;
}

const AWK_GRAMMAR = {
	valued: 'fvFWeEil',
	longValued: ['file', 'assign', 'field-separator', 'source', 'exec', 'include', 'load'],
	posix: true,
};
const SED_GRAMMAR = {
	valued: 'efl',
	longValued: ['expression', 'file', 'line-length'],
	longFlags: [
		'quiet',
		'silent',
		'in-place',
		'regexp-extended',
		'separate',
		'null-data',
		'unbuffered',
		'posix',
		'sandbox',
		'debug',
		'follow-symlinks',
	],
};

/** The files an awk or sed program writes and reads, and the command lines it runs. */
export function inlineEffects(
	name: string,
	args: readonly WordValue[],
): (ProgramEffects & { inPlace?: WordValue[] }) | undefined {
	if (/^(?:awk|gawk|mawk|nawk)$/.test(name)) {
		const parsed = parseArgs(args, AWK_GRAMMAR);
		if (hasOption(parsed, '-f', '--file', '-E', '--exec', '-i', '--include', '-l', '--load')) {
			return {
				writes: [],
				reads: [],
				commands: [],
				opaque: `"${name}" runs a program from a file the rules do not read`,
			};
		}
		const sources = optionValues(parsed, '-e', '--source');
		const texts = sources.length ? sources : parsed.operands.slice(0, 1);
		return programs(texts, awkEffects, name);
	}
	if (name === 'sed') {
		const parsed = parseArgs(args, SED_GRAMMAR);
		if (hasOption(parsed, '-f', '--file')) {
			return {
				writes: [],
				reads: [],
				commands: [],
				opaque: '"sed" runs a script from a file the rules do not read',
			};
		}
		const expressions = optionValues(parsed, '-e', '--expression');
		const files = expressions.length ? parsed.operands : parsed.operands.slice(1);
		const inPlace = args.some(a => a.known && /^-[a-zA-Z]*i|^--in-place/.test(a.text)) ? files : undefined;
		if (hasOption(parsed, '--sandbox')) return { writes: [], reads: [], commands: [], inPlace };
		const effects = programs(
			expressions.length ? [joined(expressions)] : parsed.operands.slice(0, 1),
			sedEffects,
			name,
		);
		return { ...effects, inPlace };
	}
	return undefined;
}

function joined(words: WordValue[]): WordValue {
	return words.every(w => w.known)
		? { text: words.map(w => w.text).join('\n'), known: true }
		: { text: '', known: false };
}

function programs(texts: readonly WordValue[], read: (text: string) => ProgramEffects, name: string): ProgramEffects {
	const out: ProgramEffects = { writes: [], reads: [], commands: [] };
	for (const text of texts) {
		if (!text.known) {
			out.opaque ??= `"${name}" runs a program only known when it runs`;
			continue;
		}
		const effects = read(text.text);
		out.writes.push(...effects.writes);
		out.reads.push(...effects.reads);
		out.commands.push(...effects.commands);
		out.opaque ??= effects.opaque;
	}
	return out;
}
