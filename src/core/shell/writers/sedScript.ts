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

/** A reading position in a sed script. */
class Cursor {
	i = 0;
	constructor(readonly script: string) {}
	get char(): string | undefined {
		return this.script[this.i];
	}
	/** The rest of the line (without leading blanks), moving past it. */
	rest(): string {
		const end = this.script.indexOf('\n', this.i);
		const text = this.script.slice(this.i, end === -1 ? undefined : end);
		this.i = end === -1 ? this.script.length : end + 1;
		return text.replace(/^[ \t]+/, '');
	}
	toSeparator(): void {
		while (this.i < this.script.length && !/[;\n}]/.test(this.script[this.i])) this.i++;
	}
	/** A `/re/` or `\cREc` part ending at the unescaped delimiter; false when it never ends. */
	delimited(delimiter: string): boolean {
		for (; this.i < this.script.length; this.i++) {
			if (this.script[this.i] === '\\') this.i++;
			else if (this.script[this.i] === delimiter) return (this.i++, true);
			else if (this.script[this.i] === '\n' && delimiter !== '\n') return false;
		}
		return false;
	}
	address(): boolean {
		if (/[0-9$]/.test(this.char ?? '')) {
			while (/[0-9$~+]/.test(this.char ?? '')) this.i++;
			return true;
		}
		if (this.char === '/' || this.char === '\\') {
			const delimiter = this.char === '\\' ? this.script[++this.i] : '/';
			this.i++;
			if (!this.delimited(delimiter)) return false;
			while (/[IM]/.test(this.char ?? '')) this.i++;
		}
		return true;
	}
	skipBlanks(also = ''): void {
		while (this.char === ' ' || (also && this.char === also)) this.i++;
	}
}

export function sedEffects(script: string): ProgramEffects {
	const effects: ProgramEffects = { writes: [], reads: [], commands: [] };
	const at = new Cursor(script);
	while (at.i < script.length) {
		if (/[\s;]/.test(script[at.i])) {
			at.i++;
			continue;
		}
		if (script[at.i] === '#') {
			at.rest();
			continue;
		}
		if (!at.address()) return { ...effects, opaque: 'a sed address Keel cannot read' };
		at.skipBlanks();
		if (at.char === ',') {
			at.i++;
			at.skipBlanks();
			if (!at.address()) return { ...effects, opaque: 'a sed address Keel cannot read' };
		}
		at.skipBlanks('!');
		const command = script[at.i++];
		if (command === undefined) break;
		if (command === '{' || command === '}' || PLAIN.has(command)) continue;
		const opaque = oneCommand(command, at, effects);
		if (opaque) return { ...effects, opaque };
	}
	return effects;
}

/** Reads one command's arguments into `effects`; returns why the script is opaque when it cannot be read on. */
function oneCommand(command: string, at: Cursor, effects: ProgramEffects): string | undefined {
	const file = (what: 'writes' | 'reads') => {
		const name = at.rest();
		if (!name) effects.opaque ??= 'a sed r/w command without a file name';
		else if (!SPECIAL.has(name)) effects[what].push(name);
	};
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
			at.toSeparator();
			return undefined;
		case 'a':
		case 'i':
		case 'c':
			// The text runs to the end of the line; a backslash at its end continues it.
			while (at.i < at.script.length) {
				const line = at.rest();
				if (!line.endsWith('\\')) break;
			}
			return undefined;
		case 'r':
		case 'R':
			file('reads');
			return undefined;
		case 'w':
		case 'W':
			file('writes');
			return undefined;
		case 'e': {
			const line = at.rest();
			if (line) effects.commands.push(line);
			else effects.opaque ??= 'the sed script runs its input as commands (e)';
			return undefined;
		}
		case 'y':
		case 's': {
			const delimiter = at.script[at.i++];
			if (
				!delimiter ||
				delimiter === '\n' ||
				delimiter === '\\' ||
				!at.delimited(delimiter) ||
				!at.delimited(delimiter)
			) {
				return 'a sed substitution Keel cannot read';
			}
			if (command === 'y') return undefined;
			while (at.i < at.script.length && /[gpiImMe0-9]/.test(at.script[at.i])) {
				if (at.script[at.i] === 'e')
					effects.opaque ??= 'the sed script runs what it substitutes as commands (s///e)';
				at.i++;
			}
			if (at.char === 'w') {
				at.i++;
				file('writes');
			}
			return undefined;
		}
		default:
			return `a sed command Keel does not know (${command})`;
	}
}
