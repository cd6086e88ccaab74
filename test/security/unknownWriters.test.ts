// Programs write where the line does not say "write": an option's value (`sort -o`, `tar -cf`,
// `git diff --output=`), a positional argument (`uniq in out`, `dd of=`), a folder they create
// (`git init`, `git clone`), and inline programs (awk's `print > "f"` and `system()`, sed's `w`
// and `e`, interpreters' `-c`/`-e` and the program they read on stdin). Lines are generated from
// programs × every spelling of their options × targets (outside, protected, a secret) ×
// contexts; everything is auto-approved and real bash runs what Keel lets through, so a line
// gets through only if a file really landed there (or a secret really printed) without a card.
import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { shellFixture, throughOf, type ShellFixture } from './support/shellFixture';
import { optionSpellings } from './support/optionSpellings';
import { attack } from './tally';

const SEED = Number(process.env.KEEL_SEED ?? 20_261_205);
const ARGS = 'writers: arguments that become file names';
const INLINE = 'writers: inline programs (awk, sed, interpreters)';

/** Files a writer may create or replace that must make the line ask. */
const FILE_TARGETS = [
	'../pwned',
	'.git/hooks/pre-commit',
	'.vscode/tasks.json',
	'hk/pre-commit',
	'vs/tasks.json',
	'.envrc',
	'.env',
];
/** Folders a writer may put files in (cp -t, git init, format-patch -o). */
const DIR_TARGETS = ['..', '.git/hooks', '.vscode', 'hk', 'vs', '../pwnrepo', '.github/workflows'];
const CONTEXTS = ['X', 'true && X', '(X)', 'X | cat', 'env X', 'nice X', 'timeout 5 X'];

const withOption = (program: string, short: string | undefined, long: string | undefined, rest: string, bundle = '') =>
	optionSpellings(short, long, bundle).flatMap(spelling => [
		`${program} ${spelling} ${rest}`,
		`${program} ${rest} ${spelling}`,
	]);

/** `{}` is a file, `{dir}` a folder. */
const ARGUMENT_WRITERS = [
	...withOption('sort', 'o', 'output', 'src/a.txt', 'r'),
	...withOption('shuf', 'o', 'output', 'src/a.txt'),
	...withOption('iconv -f utf-8 -t utf-8', 'o', 'output', 'src/a.txt'),
	'uniq src/a.txt {}',
	'uniq -c src/a.txt {}',
	'uniq -- src/a.txt {}',
	'uniq -i src/a.txt {}',
	'tar -cf {} src',
	'tar cf {} src',
	'tar -c -f {} src',
	'tar --file={} -c src',
	'tar -cvf{} src',
	'tar --create --file {} src',
	'tar -czf {} src',
	'tar cvzf {} src',
	'cp src/a.txt {}',
	'cp -f src/a.txt {}',
	'install -m 644 src/a.txt {}',
	'install -D src/a.txt {}',
	'ln src/a.txt {}',
	'ln -f src/a.txt {}',
	'mv -n src/b.txt {}',
	'cp -t {dir} src/pre-commit',
	'cp --target-directory={dir} src/pre-commit',
	'cp --target-directory {dir} src/pre-commit',
	'cp -vt{dir} src/pre-commit',
	'install -t {dir} src/pre-commit',
	'ln -t {dir} src/pre-commit',
	'dd if=src/a.txt of={}',
	'dd of={} if=src/a.txt',
	'dd if=src/a.txt of={} status=none',
	'tee {} < src/a.txt',
	'tee -a {} < src/a.txt',
	'tee --append {} < src/a.txt',
	'echo x | tee -- {}',
	'split -l 1 src/a.txt {}',
	'split -n 1 src/a.txt {}',
	'csplit -s -f {} src/a.txt 1',
	'csplit -s --prefix={} src/a.txt 1',
	'csplit -s -f{} src/a.txt 1',
	'git init -q {dir}/r',
	'git init -q --bare {dir}/r',
	'git clone -q . {dir}/r',
	'git init -q --separate-git-dir={dir}/g newrepo',
	'git worktree add -q {dir}/w',
	'git diff --no-index --output={} src/a.txt src/b.txt',
	'git diff --no-index --output {} src/a.txt src/b.txt',
	'git log --output={} -1',
	'git format-patch -q -o {dir} --root HEAD',
	'git format-patch -q --output-directory={dir} --root HEAD',
	'git bundle create {} HEAD',
	'git archive -o {} HEAD',
	'git archive --output={} HEAD',
	'find src -name a.txt -fprint {}',
	'find src -name a.txt -fprint0 {}',
	'find src -name a.txt -fls {}',
	"find src -name a.txt -fprintf {} '%p'",
	'xxd src/a.txt {}',
	'gcc -x c -c /dev/null -o {}',
	'gcc -x c -c /dev/null -o{}',
	'zip -q {} src/a.txt',
	'curl -so {} file:///etc/hostname',
	'curl -s --output {} file:///etc/hostname',
	'openssl enc -in src/a.txt -out {}',
	'truncate -s 0 {}',
	'touch -r src/a.txt {}',
];

const AWK = [
	`awk '{print > "{}"}' src/a.txt`,
	`awk '{print >> "{}"}' src/a.txt`,
	`awk 'BEGIN{printf "x" > "{}"}'`,
	`awk 'BEGIN{print "x" > "{}"; close("{}")}'`,
	`awk 'BEGIN{system("touch {}")}'`,
	`awk 'BEGIN{print "x" | "cat > {}"}'`,
	`awk 'BEGIN{"touch {}" | getline x}'`,
	`awk 'BEGIN { cmd = "touch {}"; cmd | getline }'`,
	`awk 'BEGIN{f="{}"; print "x" > f}'`,
	`awk -F: 'BEGIN{system("touch {}")}'`,
	`awk -- 'BEGIN{system("touch {}")}'`,
	`awk -v x=1 'BEGIN{print x > "{}"}'`,
	`nawk 'BEGIN{print 1 > "{}"}'`,
	`awk -f prog.awk`,
];
const SED = [
	`sed -n 'w {}' src/a.txt`,
	`sed 's/a/b/w {}' src/a.txt`,
	`sed -e 'W {}' src/a.txt`,
	`sed --expression='w {}' src/a.txt`,
	`sed -n -e p -e 'w {}' src/a.txt`,
	`sed '1w {}' src/a.txt`,
	`sed '/a/w {}' src/a.txt`,
	`sed -n '$w {}' src/a.txt`,
	`sed 's/.*/touch {}/e' src/a.txt`,
	`sed '1e touch {}' src/a.txt`,
	`sed -E 's/(a)/\\1/w {}' src/a.txt`,
	`sed -n '1{w {}\n}' src/a.txt`,
	`sed 's|a|b|w {}' src/a.txt`,
	`sed -f prog.sed src/a.txt`,
];
const INTERPRETERS = [
	`python3 -c 'open("{}","w").write("x")'`,
	`python3 -c'open("{}","w").write("x")'`,
	`python3 -Sc 'open("{}","w").write("x")'`,
	`python3 -I -c 'open("{}","w").write("x")'`,
	`python3 - <<'EOF'\nopen("{}","w").write("x")\nEOF`,
	`echo 'open("{}","w").write("x")' | python3`,
	`python3 <<< 'open("{}","w").write("x")'`,
	`perl -e 'open F, ">{}"'`,
	`perl -e'open F, ">{}"'`,
	`perl -E 'open F, ">{}"'`,
	`perl -ne 'BEGIN{open F, ">{}"}' src/a.txt`,
	`perl -we 'open F, ">{}"'`,
	`echo 'open F, ">{}"' | perl`,
	`perl <<< 'open F, ">{}"'`,
	`node -e 'require("fs").writeFileSync("{}","x")'`,
	`node --eval='require("fs").writeFileSync("{}","x")'`,
	`node --eval 'require("fs").writeFileSync("{}","x")'`,
	`node -p 'require("fs").writeFileSync("{}","x")'`,
	`node --print='require("fs").writeFileSync("{}","x")'`,
	`echo 'require("fs").writeFileSync("{}","x")' | node`,
	`node <<< 'require("fs").writeFileSync("{}","x")'`,
	`bash -c 'touch {}'`,
	`sh -c 'echo x > {}'`,
	`bash <<< 'touch {}'`,
	`echo 'touch {}' | sh`,
	`printf 'w {}\\nq\\n' | ed -s src/a.txt`,
	`ex -sc 'w! {}|q' src/a.txt`,
	`vim -es -c 'w! {}' -c q src/a.txt`,
	`sqlite3 :memory: '.output {}' 'select 1;'`,
	`sqlite3 :memory: ".shell touch {}"`,
	`jq -n 'input' src/a.txt > /dev/null; gdb -batch -ex 'shell touch {}'`,
];
/** Inline programs that read a file the line never names as a word. */
const INLINE_READS = [
	`awk 'BEGIN{while((getline l < "{}")>0) print l}'`,
	`awk 'BEGIN{getline l < "{}"; print l}'`,
	`awk 'BEGIN{while(("cat {}" | getline l)>0) print l}'`,
	`sed 'r {}' src/a.txt`,
	`sed '1R {}' src/a.txt`,
	`sed -e '$r {}' src/a.txt`,
	`python3 -c 'print(open("{}").read())'`,
	`perl -e 'open F, "<{}"; print <F>'`,
	`node -e 'process.stdout.write(require("fs").readFileSync("{}"))'`,
];
const READ_TARGETS = ['.env', '../outside/secret', '.aws/credentials', 'lnk/secret'];

const fill = (template: string, target: string) => template.replace(/\{dir\}|\{\}/g, () => target);

function lines(templates: string[], targets: string[], dirs: string[], offset: number, count: number): string[] {
	const out = new Set<string>();
	const targetsOf = (t: string) => (t.includes('{dir}') ? dirs : targets);
	// Every template once with its first target, then generated mixes with contexts.
	for (const template of templates) out.add(fill(template, targetsOf(template)[0]));
	fc.sample(
		fc
			.tuple(fc.constantFrom(...templates), fc.nat(50), fc.constantFrom(...CONTEXTS))
			.map(([template, pick, context]) => {
				const choices = targetsOf(template);
				return context.replace('X', () => fill(template, choices[pick % choices.length]));
			}),
		{ seed: SEED + offset, numRuns: count },
	).forEach(line => out.add(line));
	return [...out].filter(line => !/^(?:env|nice|timeout 5) .*(?:<<|\|)/.test(line));
}

describe('security: writers the analysis does not know ask', function () {
	this.timeout(30_000);
	let f: ShellFixture;
	before(() => {
		f = shellFixture();
		fs.writeFileSync(path.join(f.ws, 'prog.awk'), 'BEGIN { print "x" > "../pwned" }\n');
		fs.writeFileSync(path.join(f.ws, 'prog.sed'), 'w ../pwned\n');
	});
	after(() => f.tree.cleanup());

	const run = (klass: string, line: string) =>
		it(`asks before ${JSON.stringify(line).slice(0, 100)}`, () =>
			attack(
				`writer ${JSON.stringify(line).slice(0, 100)}`,
				() => throughOf(f, () => f.h.run('run_command', { command: line })),
				klass,
			));

	for (const line of lines(ARGUMENT_WRITERS, FILE_TARGETS, DIR_TARGETS, 1, 200)) run(ARGS, line);
	for (const line of lines([...AWK, ...SED, ...INTERPRETERS], FILE_TARGETS, DIR_TARGETS, 2, 150)) run(INLINE, line);
	for (const line of lines(INLINE_READS, READ_TARGETS, [], 3, 30)) run(INLINE, line);
});
