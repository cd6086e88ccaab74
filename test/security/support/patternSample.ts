// A random string a rule's pattern matches (RE2 syntax, as gitleaks and secretlint write them):
// the security tier makes secrets from the rule sets' own shapes, so every rule is tried with
// text it was written for, not only with the kinds someone thought of. Assertions (\b, ^, $)
// add nothing; whether a sample really is a finding is left to the rule set itself (gitleaks,
// secretlint), run on the samples as an oracle.
import { seeded } from './seeded';

type Gen = (out: string[]) => void;

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
const WORD = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_'];
const DIGIT = [...'0123456789'];
const SPACE = [' ', '\t'];

export function patternSampler(pattern: string, seed: number): () => string {
	const rnd = seeded(seed);
	let i = 0;
	const pick = <T>(items: readonly T[]) => items[rnd.int(items.length)];
	const alt = (): Gen => {
		const branches = [cat()];
		while (pattern[i] === '|') {
			i++;
			branches.push(cat());
		}
		return out => pick(branches)(out);
	};
	const cat = (): Gen => {
		const items: Gen[] = [];
		while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') items.push(quantified(atom()));
		return out => items.forEach(item => item(out));
	};
	const quantified = (gen: Gen): Gen => {
		for (;;) {
			let min: number;
			let max: number;
			const c = pattern[i];
			if (c === '*') [min, max] = [0, 3];
			else if (c === '+') [min, max] = [1, 4];
			else if (c === '?') [min, max] = [0, 1];
			else if (c === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(i))) {
				const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(pattern.slice(i))!;
				min = Number(m[1]);
				max = m[2] ? (m[3] ? Number(m[3]) : min + 4) : min;
				i += m[0].length - 1;
			} else return gen;
			i++;
			if (pattern[i] === '?') i++;
			const [lo, hi] = [min, max];
			const inner = gen;
			gen = out => {
				const n = lo + rnd.int(hi - lo + 1);
				for (let k = 0; k < n; k++) inner(out);
			};
		}
	};
	const atom = (): Gen => {
		const c = pattern[i++];
		if (c === '(') {
			if (pattern[i] === '?') {
				const flags = /^\?(?:P?<[^>]+>|<?[=!]|[a-zA-Z-]*:|[a-zA-Z-]+\))/.exec(pattern.slice(i))!;
				i += flags[0].length;
				if (flags[0].endsWith(')')) return () => undefined;
				if (/^\?<?[=!]/.test(flags[0])) {
					alt();
					i++;
					return () => undefined;
				}
			}
			const inner = alt();
			i++;
			return inner;
		}
		if (c === '[') return charClass();
		if (c === '.') return out => out.push(pick(PRINTABLE));
		if (c === '^' || c === '$') return () => undefined;
		if (c === '\\') return escape();
		return out => out.push(c);
	};
	const escape = (): Gen => {
		const c = pattern[i++];
		const set = classEscape(c);
		if (set) return out => out.push(pick(set));
		if ('bBAz'.includes(c)) return () => undefined;
		if (c === 'x') {
			const hex = pattern.slice(i, i + 2);
			i += 2;
			return out => out.push(String.fromCharCode(parseInt(hex, 16)));
		}
		const literal = c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : c;
		return out => out.push(literal);
	};
	const classEscape = (c: string): string[] | undefined =>
		c === 'd'
			? DIGIT
			: c === 'w'
				? WORD
				: c === 's'
					? SPACE
					: c === 'S' || c === 'W' || c === 'D'
						? ['#', '!']
						: undefined;
	const charClass = (): Gen => {
		let negated = false;
		if (pattern[i] === '^') {
			negated = true;
			i++;
		}
		const members = new Set<string>();
		let first = true;
		while (first || pattern[i] !== ']') {
			first = false;
			if (pattern.startsWith('[:', i)) {
				const end = pattern.indexOf(':]', i);
				const name = pattern.slice(i + 2, end);
				i = end + 2;
				(name === 'alnum' ? WORD.filter(w => w !== '_') : name === 'digit' ? DIGIT : WORD).forEach(m =>
					members.add(m),
				);
				continue;
			}
			let from = pattern[i++];
			if (from === '\\') {
				const e = pattern[i++];
				const set = classEscape(e);
				if (set) {
					set.forEach(m => members.add(m));
					continue;
				}
				from =
					e === 'x'
						? String.fromCharCode(parseInt(pattern.slice(i, (i += 2)), 16))
						: e === 't'
							? '\t'
							: e === 'n'
								? '\n'
								: e;
			}
			if (pattern[i] === '-' && pattern[i + 1] !== ']') {
				i++;
				let to = pattern[i++];
				if (to === '\\') to = pattern[i++];
				for (let k = from.charCodeAt(0); k <= to.charCodeAt(0); k++) members.add(String.fromCharCode(k));
			} else members.add(from);
		}
		i++;
		const choices = negated
			? PRINTABLE.filter(p => !members.has(p) && p !== ' ')
			: [...members].filter(m => m !== '\n' && m !== '\r');
		return out => out.push(pick(choices.length ? choices : ['x']));
	};
	const gen = alt();
	return () => {
		const out: string[] = [];
		gen(out);
		return out.join('');
	};
}
