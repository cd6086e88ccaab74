/**
 * Whether a command line provably only reads: every program it runs (nested ones, wrappers
 * and substitutions included) is one whose every option reads, nothing is redirected into a
 * file, and nothing is left for bash to decide at run time. Anything else is not proven, and a
 * call running it waits for the calls before it. This decides when a command may run beside
 * other reads, never whether it may run: the approval still does that.
 */
import { splitCommandLine } from './shellRules';

/**
 * Programs with no option that writes a file or runs another program (so not sort -o, uniq's
 * output operand, find -exec, tree -o, rg --pre, file -C, date -s, git's index refresh).
 */
const READERS = new Set([
	'cat',
	'head',
	'tail',
	'wc',
	'ls',
	'pwd',
	'stat',
	'grep',
	'egrep',
	'fgrep',
	'echo',
	'printf',
	'basename',
	'dirname',
	'realpath',
	'readlink',
	'true',
	'false',
	'test',
	'[',
	'which',
	'du',
	'df',
	'nl',
	'cut',
	'tr',
	'diff',
	'cmp',
	'comm',
	'md5sum',
	'sha1sum',
	'sha256sum',
]);

export function provesReadOnly(line: string): boolean {
	const parsed = splitCommandLine(line);
	return (
		parsed.opaque === undefined &&
		parsed.writes.length === 0 &&
		parsed.programs.length > 0 &&
		parsed.programs.every(name => name !== undefined && READERS.has(name)) &&
		// A form that is no program's (a PATH=… assignment in front, a command the parser could not read).
		parsed.commands.every(form => !form.needsAllow || READERS.has(form.text.split(' ')[0]))
	);
}
