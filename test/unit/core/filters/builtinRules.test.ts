import * as assert from 'assert';
import { FilterEngine } from '../../../../src/core/filters/engine';
import type { FilterResult } from '../../../../src/core/filters/types';
import { filterFixtures, readFixture } from '../../../support/filterFixtures';

/**
 * Each built-in rule on a captured output (test/fixtures/filters; see its README for which
 * are real runs and which are synthetic): the rule that matched, what must survive, what
 * must go, and the confidence it reports.
 */
const engine = new FilterEngine();

function run(file: string): FilterResult & { raw: string } {
	const fixture = filterFixtures().find(f => f.file === file);
	assert.ok(fixture, `no fixture ${file}`);
	const raw = readFixture(file);
	return { ...engine.apply(fixture.command, raw), raw };
}

function expectRule(result: FilterResult, rule: string, maxShare: number): void {
	assert.strictEqual(result.rule, rule);
	assert.ok(result.applied.includes(rule), `rule ${rule} changed nothing: ${result.applied}`);
	assert.ok(
		result.linesAfter <= result.linesBefore * maxShare,
		`${result.linesBefore} → ${result.linesAfter} lines, expected at most ${maxShare * 100}%`,
	);
}

describe('built-in filter rules on captured outputs', () => {
	it('cargo test: keeps the failing test, its panic and the result; drops passing tests and std frames', () => {
		const r = run('cargo-test.txt');
		expectRule(r, 'cargo-test', 0.7);
		assert.match(r.text, /test tests::broken \.\.\. FAILED/);
		assert.match(r.text, /panicked at src\/lib\.rs:16:27/);
		assert.match(r.text, /test result: FAILED\. 8 passed; 1 failed/);
		assert.doesNotMatch(r.text, /test tests::t1 \.\.\. ok|core::panicking::panic_fmt|Compiling rs/);
		assert.strictEqual(r.confidence, 'full');
	});

	it('cargo nextest: the failure and the summary, no PASS lines', () => {
		const r = run('cargo-nextest.synthetic.txt');
		expectRule(r, 'cargo-nextest', 0.4);
		assert.match(r.text, /Summary \[.*47 passed, 1 failed/);
		assert.match(r.text, /assertion failed: parse\("\[1,\]"\)\.is_err\(\)/);
		assert.doesNotMatch(r.text, /PASS \[/);
	});

	it('cargo clippy: one line per lint with its places, the totals kept', () => {
		const r = run('cargo-clippy.txt');
		expectRule(r, 'cargo-clippy', 0.2);
		assert.match(
			r.text,
			/unneeded `return` statement \[needless_return\] \(2×\): src\/lib\.rs:3:34, src\/lib\.rs:4:35/,
		);
		assert.match(r.text, /\[unused_variables\] \(3×\)/);
		assert.match(r.text, /generated \d+ warnings/);
		assert.strictEqual(r.confidence, 'partial', 'unused_variables groups three different messages');
	});

	it('git status: branch and one line per section', () => {
		const r = run('git-status.txt');
		expectRule(r, 'git-status', 0.3);
		assert.match(r.text, /^On branch /m);
		assert.match(
			r.text,
			/^staged \(5\): M src\/f1\.ts, M src\/f2\.ts, M src\/f3\.ts, D src\/f9\.ts, A src\/new\.ts$/m,
		);
		assert.match(r.text, /^unstaged \(5\): M src\/f4\.ts/m);
		assert.match(r.text, /^untracked \(2\): docs\/, scratch\.log$/m);
		assert.doesNotMatch(r.text, /use "git/);
		assert.strictEqual(r.confidence, 'full');
	});

	it('git diff: capped at 500 lines, every file header kept, partial', () => {
		const r = run('git-diff.txt');
		expectRule(r, 'git-diff', 0.6);
		const headers = (text: string) => text.split('\n').filter(l => l.startsWith('diff --git ')).length;
		assert.strictEqual(headers(r.text), headers(r.raw));
		assert.match(r.text, /diff capped at 500 lines/);
		assert.doesNotMatch(r.text, /^index [0-9a-f]+\.\./m);
		assert.strictEqual(r.confidence, 'partial');
	});

	it('git log: blank lines go, the newest commits stay', () => {
		const r = run('git-log.txt');
		expectRule(r, 'git-log', 0.5);
		assert.strictEqual(r.text.split('\n')[0], r.raw.split('\n')[0]);
		assert.match(r.text, /Add sources/);
	});

	it('ls, find, tree: long listings cut to head and tail, partial', () => {
		for (const file of ['ls-la.txt', 'find.txt', 'tree.synthetic.txt']) {
			const r = run(file);
			assert.ok(r.linesAfter <= 172, `${file}: ${r.linesAfter}`);
			assert.strictEqual(r.confidence, 'partial', file);
			assert.match(r.text, /lines omitted/);
		}
		const ls = run('ls-la.txt');
		assert.doesNotMatch(ls.text, /^total \d+$/m);
		assert.strictEqual(run('tree.synthetic.txt').text.split('\n').pop(), '13 directories, 300 files');
	});

	it('logs: lines equal but for timestamps and ids are counted, errors kept', () => {
		const r = run('kubectl-logs.synthetic.txt');
		expectRule(r, 'log-dedup', 0.1);
		assert.strictEqual((r.text.match(/ERROR db pool exhausted/g) ?? []).length, 3);
		assert.match(r.text, /repeated 58 more times \(timestamps and ids differ\)/);
	});

	it('kubectl: repeated client errors collapse', () => {
		const r = run('kubectl-get-pods-error.txt');
		expectRule(r, 'kubectl', 0.6);
		assert.match(r.text, /connection to the server localhost:8080 was refused/);
	});

	it("docker build: step bookkeeping goes, the steps' own output stays", () => {
		const r = run('docker-build.txt');
		expectRule(r, 'docker-build', 0.85);
		assert.doesNotMatch(r.text, /^Step \d+\/\d+ : |^ ---> |Removing intermediate container|Sending build context/m);
		assert.match(r.text, /^step one$/m);
		assert.match(r.text, /Successfully built [0-9a-f]+/);
	});

	it('npm, yarn, pnpm install: deprecations, funding and progress go; the result and vulnerabilities stay', () => {
		const npm = run('npm-install-deprecations.synthetic.txt');
		expectRule(npm, 'npm-install', 0.4);
		assert.match(npm.text, /added 412 packages/);
		assert.match(npm.text, /2 moderate severity vulnerabilities/);
		assert.doesNotMatch(npm.text, /deprecated|looking for funding/);
		assert.match(run('npm-install.txt').text, /^added 48 packages/);
		const yarn = run('yarn-install.synthetic.txt');
		assert.match(yarn.text, /unmet peer dependency/);
		assert.doesNotMatch(yarn.text, /\[\d\/4\]/);
		const pnpm = run('pnpm-install.synthetic.txt');
		expectRule(pnpm, 'npm-install', 0.3);
		assert.match(pnpm.text, /\+ typescript 5\.9\.3/);
		assert.doesNotMatch(pnpm.text, /^Progress: /m);
	});

	it('pip install: only what was installed (and errors)', () => {
		const r = run('pip-install.txt');
		expectRule(r, 'pip-install', 0.1);
		assert.match(r.text, /^Successfully installed .*requests-/m);
	});

	it('make: head and tail, directory noise gone, the error in the cut middle would survive', () => {
		const r = run('make.txt');
		expectRule(r, 'make', 0.3);
		assert.match(r.text, /src\/broken\.c:12:5: error/);
		assert.match(r.text, /make: \*\*\* \[Makefile:5: all\] Error 2/);
		assert.doesNotMatch(r.text, /Entering directory/);
		const middle = [
			'x',
			...Array.from({ length: 200 }, (_, i) => (i === 100 ? 'lib.c:1: error: boom' : `cc -c f${i}.c`)),
		].join('\n');
		assert.match(engine.apply('make -j4', middle).text, /lib\.c:1: error: boom/);
	});

	it('pytest: failures with their assertion and the summary; PASSED lines and session header go', () => {
		const r = run('pytest.txt');
		expectRule(r, 'pytest', 0.5);
		assert.match(r.text, /E {7}assert 1 == 2/);
		assert.match(r.text, /FAILED tests\/test_fail\.py::test_err - ValueError: boom/);
		assert.match(r.text, /2 failed, 30 passed in/);
		assert.doesNotMatch(r.text, /PASSED|^platform |^rootdir/m);
	});

	it('go test: the failing test with its message and the package results', () => {
		const r = run('go-test.synthetic.txt');
		expectRule(r, 'go-test', 0.15);
		assert.match(r.text, /handler_test\.go:42: expected status 400, got 200/);
		assert.match(r.text, /^ok\s+example\.com\/app\/store/m);
		assert.match(r.text, /^FAIL\s+example\.com\/app\/api/m);
		assert.doesNotMatch(r.text, /=== RUN|--- PASS/);
	});

	it("terraform: the plan's resources and totals, no boilerplate", () => {
		const plan = run('terraform-plan.txt');
		expectRule(plan, 'terraform', 0.6);
		assert.match(plan.text, /# terraform_data\.r6 will be created/);
		assert.match(plan.text, /Plan: 6 to add, 0 to change, 0 to destroy/);
		assert.doesNotMatch(plan.text, /known after apply/);
		assert.match(run('terraform-init.txt').text, /Terraform has been successfully initialized!/);
	});

	it('brew: downloads and pours go, caveats and the summary stay', () => {
		const r = run('brew-install.synthetic.txt');
		expectRule(r, 'brew', 0.5);
		assert.match(r.text, /==> Caveats/);
		assert.match(r.text, /ripgrep\/14\.1\.1: 13 files/);
		assert.doesNotMatch(r.text, /==> Downloading|######/);
	});

	it('tsc (plain and --pretty): one line per error code with places, the total kept', () => {
		for (const file of ['tsc.txt', 'tsc-pretty.txt']) {
			const r = run(file);
			expectRule(r, 'tsc', 0.1);
			assert.match(r.text, /\[TS2322\] \(18×\): src\/m1\.ts:3:8/);
			assert.match(r.text, /\[TS2345\] \(6×\)/);
			assert.strictEqual(r.confidence, 'partial', 'TS2322 has several messages; only the first is shown');
		}
		assert.match(run('tsc-pretty.txt').text, /Found 36 errors in 6 files/);
	});

	it('eslint: grouped by rule with file:line:col places, the problem count kept', () => {
		const r = run('eslint.synthetic.txt');
		expectRule(r, 'eslint', 0.2);
		assert.match(r.text, /\[no-console\] \(\d+×\): \/home\/dev\/project\/src\/module\d\.ts:\d+:\d+/);
		assert.match(r.text, /✖ \d+ problems/);
	});

	it('jest, vitest, mocha: failures with their diff and location, the summary; passing tests go', () => {
		const jest = run('jest.synthetic.txt');
		expectRule(jest, 'jest-vitest', 0.5);
		assert.match(jest.text, /● parser › rejects trailing commas[\s\S]*src\/parser\.test\.ts:13:33/);
		assert.match(jest.text, /Tests: {7}1 failed, 37 passed, 38 total/);
		assert.doesNotMatch(jest.text, /✓/);
		const vitest = run('vitest.synthetic.txt');
		expectRule(vitest, 'jest-vitest', 0.7);
		assert.match(vitest.text, /FAIL {2}src\/parser\.test\.ts > parser > rejects trailing commas/);
		assert.match(vitest.text, /Tests {2}1 failed \| 47 passed/);
		const mocha = run('mocha.txt');
		expectRule(mocha, 'mocha', 0.5);
		assert.match(mocha.text, /65 passing[\s\S]*2 failing/);
		assert.match(mocha.text, /TypeError: Cannot read properties of undefined/);
		assert.doesNotMatch(mocha.text, /✔ parses case/);
	});

	it('npm test picks the runner from the output', () => {
		const r = engine.apply('npm test', readFixture('mocha.txt'));
		assert.strictEqual(r.rule, 'npm-test');
		assert.match(r.text, /65 passing/);
		assert.doesNotMatch(r.text, /✔ parses case/);
	});
});
