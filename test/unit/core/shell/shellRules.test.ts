import * as assert from 'assert';
import { loadBashParser } from '../../../../src/core/shell/bashParser';
import { matchCommandRule, splitCommandLine } from '../../../../src/core/shell/shellRules';

const forms = (line: string) =>
	splitCommandLine(line).commands.map(c => `${c.complete ? '' : '~'}${c.needsAllow ? '' : '^'}${c.text}`);

describe('shellRules (bash grammar)', () => {
	before(() => loadBashParser());

	it('splits chains, pipelines, subshells and every kind of substitution', () => {
		assert.deepStrictEqual(forms('git status && npm test | tee log; echo $(date) `whoami`'), [
			'git status',
			'npm test',
			'tee log',
			'~echo ',
			'date',
			'whoami',
		]);
		assert.deepStrictEqual(forms('ls <(find . -name x)'), ['~ls ', 'find . -name x']);
		assert.deepStrictEqual(forms('(cd x; make) || { echo no; }'), ['cd x', 'make', 'echo no']);
		assert.deepStrictEqual(forms('echo ${x:-$(rm -f v)}'), ['~echo ', 'rm -f v']);
	});

	it('matches words after quote removal, as bash runs them', () => {
		assert.deepStrictEqual(forms(`echo "a; b" 'c && $(d)'`), ['echo a; b c && $(d)']);
		assert.deepStrictEqual(forms(`r""m -f \\x 'y'`), ['rm -f x y']);
		assert.deepStrictEqual(forms(`echo $'a\\tb'`), ['echo a\tb']);
	});

	it('a # comment is a comment only where bash says so', () => {
		assert.deepStrictEqual(forms("git status #'\ntouch X\n#'"), ['git status', 'touch X']);
		assert.deepStrictEqual(forms('echo a#b'), ['echo a#b']);
	});

	it('reduces a command path to its name, keeping the written form for allow rules', () => {
		assert.deepStrictEqual(forms('/bin/rm -f x'), ['^rm -f x', '/bin/rm -f x']);
	});

	it('looks through wrappers and shells', () => {
		assert.ok(forms('sudo -u root env A=1 nice -n 3 timeout 5 rm -rf /').includes('rm -rf /'));
		assert.ok(forms('bash -c "rm z"').includes('rm z'));
		assert.ok(forms('eval "rm -rf ~"').includes('rm -rf ~'));
		assert.ok(forms('git -c a=b push origin').includes('git push origin'));
		assert.ok(forms('ls | xargs -0 rm -f').includes('~rm -f '));
		assert.ok(forms('find . -exec rm {} +').includes('~rm '));
	});

	it('records files written by redirections after quote removal, not fd duplications or /dev/null', () => {
		const writes = splitCommandLine(
			'make 2>&1 > build.log; echo x >> ~/.bashrc; ls > /dev/null; cat a &> out.txt; echo > .vs"code"/t.json',
		).writes;
		assert.deepStrictEqual(
			writes.map(w => w.path),
			['build.log', undefined, 'out.txt', '.vscode/t.json'],
		);
	});

	it('marks what cannot be judged statically as opaque', () => {
		for (const line of [
			'eval "$X"',
			'bash -c "$X"',
			'$CMD arg',
			'echo "open',
			'bash script.sh',
			'python3 -c "import os"',
			'echo > $OUT',
			'echo > *.txt',
		]) {
			assert.ok(splitCommandLine(line).opaque, line);
		}
		assert.strictEqual(splitCommandLine('npm test -- --grep "a b"').opaque, undefined);
		assert.strictEqual(splitCommandLine('cat <<EOF > notes.txt\nhello\nEOF').opaque, undefined);
	});

	it('rule patterns: * stays inside one command; incomplete forms only under a trailing *', () => {
		assert.ok(matchCommandRule('git status*', 'git status --short'));
		assert.ok(matchCommandRule('npm test', 'npm test'));
		assert.ok(!matchCommandRule('npm test', 'npm test --force'));
		assert.ok(matchCommandRule('echo \\*', 'echo *'));
		assert.ok(!matchCommandRule('echo \\*', 'echo x'));
		assert.ok(matchCommandRule('echo *', { text: 'echo ', complete: false, needsAllow: true }, 'allow'));
		assert.ok(!matchCommandRule('echo * done', { text: 'echo ', complete: false, needsAllow: true }, 'allow'));
		assert.ok(matchCommandRule('rm -rf*', { text: 'r', complete: false, needsAllow: true }, 'restrict'));
		assert.ok(!matchCommandRule('rm -rf*', { text: 'ls ', complete: false, needsAllow: true }, 'restrict'));
	});
});
