/**
 * What a sed script touches besides its operands, read command by command as GNU sed reads it:
 * `w file`, `W file` and the `s///w file` flag write; `r file` and `R file` read (each file name
 * runs to the end of the line, `;` included); `e command` runs a command line, and `e` alone or
 * the `s///e` flag runs whatever the pattern space holds (opaque). A command Keel does not know
 * makes the script opaque, so the line asks.
 */
import type { ProgramEffects } from './awkProgram';

const SPECIAL = new Set(['/dev/stdout', '/dev/stderr', '/dev/stdin']);
/** Commands that take nothing after them. */
const PLAIN = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);

export function sedEffects(script: string): ProgramEffects {
	const effects: ProgramEffects = { writes: [], reads: [], commands: [] };
	let i = 0;
	const rest = () => {
		const end = script.indexOf('\n', i);
		const text = script.slice(i, end === -1 ? undefined : end);
		i = end === -1 ? script.length : end + 1;
		return text.replace(/^[ \t]+/, '');
	};
	const toSeparator = () => {
		while (i < script.length && !/[;\n}]/.test(script[i])) i++;
	};
	/** A `/re/` or `\cREc` part ending at the unescaped delimiter; false when it never ends. */
	const delimited = (delimiter: string): boolean => {
		for (; i < script.length; i++) {
			if (script[i] === '\\') i++;
			else if (script[i] === delimiter) return (i++, true);
			else if (script[i] === '\n' && delimiter !== '\n') return false;
		}
		return false;
	};
	const address = (): boolean => {
		if (/[0-9$]/.test(script[i] ?? '')) {
			while (/[0-9$~+]/.test(script[i] ?? '')) i++;
			return true;
		}
		if (script[i] === '/' || script[i] === '\\') {
			const delimiter = script[i] === '\\' ? script[++i] : '/';
			i++;
			if (!delimited(delimiter)) return false;
			while (/[IM]/.test(script[i] ?? '')) i++;
		}
		return true;
	};
	const file = (what: 'writes' | 'reads') => {
		const name = rest();
		if (!name) effects.opaque ??= 'a sed r/w command without a file name';
		else if (!SPECIAL.has(name)) effects[what].push(name);
	};
	while (i < script.length) {
		if (/[\s;]/.test(script[i])) {
			i++;
			continue;
		}
		if (script[i] === '#') {
			rest();
			continue;
		}
		if (!address()) return { ...effects, opaque: 'a sed address Keel cannot read' };
		while (script[i] === ' ') i++;
		if (script[i] === ',') {
			i++;
			while (script[i] === ' ') i++;
			if (!address()) return { ...effects, opaque: 'a sed address Keel cannot read' };
		}
		while (script[i] === ' ' || script[i] === '!') i++;
		const command = script[i++];
		if (command === undefined) break;
		if (command === '{' || command === '}' || PLAIN.has(command)) continue;
		switch (command) {
			case ':':
			case 'b':
			case 't':
			case 'T':
			case 'v':
			case 'l':
			case 'L':
			case 'q':
			case 'Q':
				toSeparator();
				break;
			case 'a':
			case 'i':
			case 'c':
				// The text runs to the end of the line; a backslash at its end continues it.
				while (i < script.length) {
					const line = rest();
					if (!line.endsWith('\\')) break;
				}
				break;
			case 'r':
			case 'R':
				file('reads');
				break;
			case 'w':
			case 'W':
				file('writes');
				break;
			case 'e': {
				const command = rest();
				if (command) effects.commands.push(command);
				else effects.opaque ??= 'the sed script runs its input as commands (e)';
				break;
			}
			case 'y':
			case 's': {
				const delimiter = script[i++];
				if (!delimiter || delimiter === '\n' || delimiter === '\\' || !delimited(delimiter) || !delimited(delimiter)) {
					return { ...effects, opaque: 'a sed substitution Keel cannot read' };
				}
				if (command === 'y') break;
				while (i < script.length && /[gpiImMe0-9]/.test(script[i])) {
					if (script[i] === 'e') effects.opaque ??= 'the sed script runs what it substitutes as commands (s///e)';
					i++;
				}
				if (script[i] === 'w') {
					i++;
					file('writes');
				}
				break;
			}
			default:
				return { ...effects, opaque: `a sed command Keel does not know (${command})` };
		}
	}
	return effects;
}
