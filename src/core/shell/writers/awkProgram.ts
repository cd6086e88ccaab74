/**
 * What an awk program touches besides its operands, read from the program text: `print > "f"`,
 * `print >> "f"` and `printf … > "f"` write a file; `getline < "f"` reads one; `system("cmd")`,
 * `print | "cmd"` and `"cmd" | getline` run a command line. A target or command written as a
 * string literal is returned to be judged like a redirection or a nested line; one computed at
 * run time (a variable, a concatenation) makes the program opaque, so the line asks. `>` outside
 * a print statement is a comparison (`$3 > 100`) and touches nothing.
 */
export interface ProgramEffects {
	writes: string[];
	reads: string[];
	/** Command lines the program runs (judged as bash lines). */
	commands: string[];
	/** Why the program cannot be judged, or undefined. */
	opaque?: string;
}

interface Token {
	kind: 'string' | 'regex' | 'word' | 'op';
	value: string;
}

const AWK_ESCAPES: Record<string, string> = {
	n: '\n',
	t: '\t',
	r: '\r',
	'\\': '\\',
	'"': '"',
	'/': '/',
	a: '\x07',
	b: '\b',
	f: '\f',
	v: '\v',
};

function awkUnescape(body: string): string {
	return body.replace(/\\([0-7]{1,3}|.)/gs, (all, esc: string) =>
		/^[0-7]/.test(esc) ? String.fromCharCode(parseInt(esc, 8)) : (AWK_ESCAPES[esc] ?? esc),
	);
}

/** After these a `/` starts a regex; after an operand it divides. */
function regexMayStart(previous: Token | undefined): boolean {
	if (!previous) return true;
	if (previous.kind === 'op') return !/^[)\]]$/.test(previous.value) && previous.value !== '$';
	return previous.kind === 'word' && /^(?:print|printf|return|in|case|getline)$/.test(previous.value);
}

function tokenize(text: string): Token[] | undefined {
	const tokens: Token[] = [];
	for (let i = 0; i < text.length;) {
		const c = text[i];
		if (c === '#') {
			while (i < text.length && text[i] !== '\n') i++;
		} else if (c === '\\' && text[i + 1] === '\n') {
			i += 2;
		} else if (c === ' ' || c === '\t') {
			i++;
		} else if (c === '"') {
			let j = i + 1;
			while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
			if (j >= text.length) return undefined;
			tokens.push({ kind: 'string', value: awkUnescape(text.slice(i + 1, j)) });
			i = j + 1;
		} else if (c === '/' && regexMayStart(tokens.at(-1))) {
			let j = i + 1;
			let bracket = false;
			while (j < text.length && (bracket || text[j] !== '/')) {
				if (text[j] === '\\') j++;
				else if (text[j] === '[') bracket = true;
				else if (text[j] === ']') bracket = false;
				else if (text[j] === '\n') return undefined;
				j++;
			}
			tokens.push({ kind: 'regex', value: '' });
			i = j + 1;
		} else if (/[A-Za-z_@]/.test(c)) {
			const word = /^@?[A-Za-z_][A-Za-z_0-9]*/.exec(text.slice(i))![0];
			tokens.push({ kind: 'word', value: word });
			i += word.length;
		} else if (/[0-9.]/.test(c)) {
			const number = /^[0-9.]+(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i))?.[0] ?? c;
			tokens.push({ kind: 'word', value: number });
			i += number.length;
		} else {
			const op = /^(?:\|\||\|&|&&|>>|>=|<=|==|!=|\+\+|--|[-+*/%^!]=|.)/s.exec(text.slice(i))![0];
			tokens.push({ kind: 'op', value: op === '\n' ? ';' : op });
			i += op.length;
		}
	}
	return tokens;
}

/** The token after `at` if it is a string literal that ends its expression, else undefined. */
function literalAt(tokens: Token[], at: number): string | undefined {
	const token = tokens[at];
	const next = tokens[at + 1];
	const ends = !next || (next.kind === 'op' && /^[;})]$|^\|$|^,$/.test(next.value));
	return token?.kind === 'string' && ends ? token.value : undefined;
}

export function awkEffects(program: string): ProgramEffects {
	const effects: ProgramEffects = { writes: [], reads: [], commands: [] };
	const tokens = tokenize(program);
	if (!tokens) return { ...effects, opaque: 'an awk program Keel cannot read (an unclosed string or regex)' };
	const computed = (what: string) => (effects.opaque ??= `the awk program ${what} a name computed when it runs`);
	let depth = 0;
	let printDepth: number | undefined;
	for (let i = 0; i < tokens.length; i++) {
		const token = tokens[i];
		if (token.kind === 'word' && /^@(?:load|include|namespace)$/.test(token.value)) {
			effects.opaque ??= `the awk program loads code (${token.value})`;
		}
		if (token.kind === 'word' && (token.value === 'print' || token.value === 'printf')) printDepth = depth;
		if (token.kind === 'word' && token.value === 'system') {
			const literal =
				tokens[i + 1]?.kind === 'op' && tokens[i + 1].value === '(' ? literalAt(tokens, i + 2) : undefined;
			if (literal === undefined) computed('runs (system) a command with');
			else effects.commands.push(literal);
		}
		if (token.kind === 'word' && token.value === 'getline') {
			// `getline < f`, `getline var < f`
			let j = i + 1;
			if (tokens[j]?.kind === 'word' || (tokens[j]?.kind === 'op' && tokens[j].value === '$'))
				j += tokens[j].kind === 'op' ? 2 : 1;
			if (tokens[j]?.kind === 'op' && tokens[j].value === '<') {
				const literal = literalAt(tokens, j + 1);
				if (literal === undefined) computed('reads (getline <) a file with');
				else effects.reads.push(literal);
			}
		}
		if (token.kind !== 'op') continue;
		if (token.value === '(') depth++;
		else if (token.value === ')') depth--;
		else if (/^[;{}]$/.test(token.value)) printDepth = undefined;
		else if (token.value === '|&') effects.opaque ??= 'the awk program talks to a coprocess (|&)';
		else if (token.value === '|') {
			const next = tokens[i + 1];
			if (next?.kind === 'word' && next.value === 'getline') {
				// `"cmd" | getline`: the command is the expression before the pipe.
				const before = tokens[i - 1];
				const starts =
					i < 2 || (tokens[i - 2].kind === 'op' && /^[;{}(,=!&|]$|^&&$|^\|\|$/.test(tokens[i - 2].value));
				if (before?.kind === 'string' && starts) effects.commands.push(before.value);
				else computed('runs (| getline) a command with');
			} else if (printDepth === depth) {
				const literal = literalAt(tokens, i + 1);
				if (literal === undefined) computed('pipes (print |) into a command with');
				else effects.commands.push(literal);
			}
		} else if ((token.value === '>' || token.value === '>>') && printDepth === depth) {
			const literal = literalAt(tokens, i + 1);
			if (literal === undefined) computed('writes (print >) a file with');
			else effects.writes.push(literal);
		}
	}
	return effects;
}
