// The attack grammar: ways to spell a command word, wrappers that run a command, contexts
// that hide a command inside a line, and spellings of a path. Suites combine them so every
// class is tried in many variants, not only the examples that were once reported.

/** Spellings bash reduces to the same command word. */
export function spellings(word: string): string[] {
	const [first, ...rest] = word;
	const hex = [...word].map(c => `\\x${c.charCodeAt(0).toString(16)}`).join('');
	return [
		word,
		`/bin/${word}`,
		`/usr/bin/${word}`,
		`/usr/../bin/${word}`,
		`\\${word}`,
		`'${word}'`,
		`"${word}"`,
		`${first}""${rest.join('')}`,
		`${first}''${rest.join('')}`,
		`$'${word}'`,
		`$'${hex}'`,
		`${first}\\${rest.join('')}`,
		`"${first}"${rest.join('')}`,
		`$"${word}"`,
	];
}

/** Prefixes that run the command after them. */
export const WRAPPERS = [
	'',
	'FOO=1 ',
	'A=1 B=2 ',
	'env ',
	'env -i PATH=/usr/bin:/bin ',
	'env -- ',
	'command ',
	'command -p ',
	'nice ',
	'nice -n 5 ',
	'timeout 5 ',
	'timeout -s KILL 5 ',
	'nohup ',
	'time ',
	'stdbuf -o0 ',
	'exec ',
	'builtin command ',
	'setsid -w ',
	'env FOO=1 nice timeout 5 ',
];

/** `X` is replaced by the hidden command. */
export const CONTEXTS = [
	'X',
	'true; X',
	'true && X',
	'false || X',
	'true | X',
	'true |& X',
	'(X)',
	'{ X; }',
	'echo $(X)',
	'echo `X`',
	'echo "$(X)"',
	'echo ${u:-$(X)}',
	'echo "${u:-$(X)}"',
	'cat <(X)',
	'true > >(X)',
	'if true; then X; fi',
	'for i in 1; do X; done',
	'f() { X; }; f',
	'cat <<E\n$(X)\nE',
	'true\nX',
	"true #'\nX\n#'",
	'true & X; wait',
	'! X',
	'[[ -n $(X) ]]',
	'case a in a) X;; esac',
	'while X; do break; done',
	'echo $(( $(X) + 1 ))',
	'x=$(X)',
	'export y=$(X)',
	'true # comment\nX',
	"echo $'\\''; X",
	'echo "a\\"b"; X',
	'echo \\"; X',
	"echo '$(X)'; X",
	'echo `echo \\`X\\``',
	'echo ${u:-`X`}',
	'echo "${u:-`X`}"',
	'echo ${u#`X`}',
	'cat <<-E\n\tE\nX',
	'cat <<E; X\nbody\nE',
	'cat <<E\nbody\n E\nE\nX',
	'cat <<E\n`X`\nE',
	'echo ${x:-"}"}; X #"}',
	'echo "${x:-\'}\'}"; X',
	"echo ${x#'}'}; X",
	'echo $( (X) )',
	'echo a\\\n; X',
	'echo "$(echo ")")"; X',
	'echo a;# b\nX',
	'echo ${x[$(X)]}',
];

/** Shells and evaluators that run a command string. */
export function shellWrapped(command: string): string[] {
	const q = command.replace(/'/g, `'\\''`);
	return [
		`sh -c '${q}'`,
		`bash -c '${q}'`,
		`"bash" -c '${q}'`,
		`/bin/sh -c '${q}'`,
		`bash -lc '${q}'`,
		`sh -ec '${q}'`,
		`eval '${q}'`,
		`eval ${q}`,
		`bash -c -- '${q}'`,
		`env sh -c '${q}'`,
	];
}

/** Spellings of a workspace path that name the same file. */
export function pathSpellings(path: string): string[] {
	const [head, ...rest] = path.split('/');
	const tail = rest.join('/');
	return [
		path,
		`./${path}`,
		`${head}/./${tail}`,
		`${head}//${tail}`,
		`x/../${path}`,
		`${head}/${tail}/../${tail.split('/').pop()}`.replace(/\/[^/]+\/\.\.\//, '/'),
		`a/b/../../${path}`,
	];
}

/** Redirect target spellings for `path` (bash-side: quotes, globs, variables). */
export function redirectSpellings(path: string): string[] {
	const [head, ...rest] = path.split('/');
	const tail = rest.join('/');
	const half = Math.ceil(head.length / 2);
	return [
		path,
		`"${path}"`,
		`'${path}'`,
		`${head.slice(0, half)}"${head.slice(half)}"/${tail}`,
		`${head.slice(0, 3)}*/${tail}`,
		`${head.slice(0, -1)}?/${tail}`,
		`$PWD/${path}`,
		`\${PWD}/${path}`,
		`./${path}`,
		`${head}/../${path}`,
		`$(echo ${head})/${tail}`,
		`\`echo ${head}\`/${tail}`,
		`$'${head}'/${tail}`,
		`${head}/./${tail}`,
	];
}

export const REDIRECT_OPERATORS = ['>', '>>', '>|', '&>', '&>>', '1>', '2>', '<>', '>&'];

/** Small deterministic sample (no Math.random: the same attempts every run). */
export function sample<T>(items: T[], count: number, seed = 7): T[] {
	if (items.length <= count) return items;
	const out: T[] = [];
	let x = seed;
	const used = new Set<number>();
	while (out.length < count) {
		x = (x * 48271) % 2147483647;
		const i = x % items.length;
		if (!used.has(i)) {
			used.add(i);
			out.push(items[i]);
		}
	}
	return out;
}
