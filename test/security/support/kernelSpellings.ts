// Spellings of one path that bash hands to a program as that path: quotes, escapes, ANSI-C and
// locale quoting, a NUL that cuts the word short (a C string ends there), brace lists. Each is
// checked against real bash once (`bashValues`), so a spelling that does not mean the path is
// dropped instead of counted as an attack.
import { execFileSync } from 'child_process';

const hex = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
const oct = (c: string) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`;
const uni = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
/** Quoted for bash inside single quotes. */
const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function kernelSpellings(target: string): string[] {
	const chars = [...target];
	const cut = Math.min(2, target.length - 1);
	const [head, tail] = [target.slice(0, cut), target.slice(cut)];
	return [
		target,
		sq(target),
		`"${target}"`,
		`$'${target}'`,
		`$"${target}"`,
		chars.map(c => `\\${c}`).join(''),
		`${head}''${tail}`,
		`${head}""${tail}`,
		`"${head}"${tail}`,
		`$'${chars.map(hex).join('')}'`,
		`$'${chars.map(oct).join('')}'`,
		`$'${chars.map(uni).join('')}'`,
		`${head}$'${tail}'`,
		// A NUL ends the C string the program receives: everything after it in that quote is gone.
		`$'${target}\\x00junk'`,
		`$'${target}\\0'`,
		`$'${target}\\c@tail'`,
		`$'${target}\\u0000x'`,
		`"${target}"$'\\x00'`,
		`$'\\x00'${target}`,
		`$'${head}'$'${tail}\\0zz'`,
		`${head}$'${chars.slice(cut).map(hex).join('')}\\x00'`,
		// Brace lists: bash makes several words, one of them the path.
		`{${target},nothing}`,
		`{nothing,${target}}`,
		`${head}{${tail},}`,
		`${head}{,${tail}}`,
	];
}

/** The words real bash makes of `word` (after every expansion, cut at NUL). */
export function bashValues(word: string): string[] {
	const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `printf '%s\\0' ${word}`], {
		env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
		cwd: '/',
	});
	return out.toString('utf8').split('\0').slice(0, -1);
}

/** Only the spellings that bash really turns into `target` (as one of the words they make). */
export function checkedSpellings(target: string): string[] {
	return kernelSpellings(target).filter(word => bashValues(word).includes(target));
}
