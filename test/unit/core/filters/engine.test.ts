import * as assert from 'assert';
import { commandForMatching } from '../../../../src/core/filters/commandMatch';
import { describeFilter, FilterEngine } from '../../../../src/core/filters/engine';
import { parseRuleFile } from '../../../../src/core/filters/ruleFile';
import { scanForCredentials } from '../../../../src/core/filters/securityScan';

const passing = ['  ✔ a', '  ✔ b', '  ✔ c', '', '  3 passing (1s)'].join('\n');

describe('filter engine', () => {
	it('matches compound lines on their last command, without pipes and redirections', () => {
		assert.strictEqual(
			commandForMatching('cd /Users/me/project && cargo clippy --workspace -- -D warnings 2>&1'),
			'cargo clippy --workspace -- -D warnings',
		);
		assert.strictEqual(commandForMatching('cd app; npm test 2>&1 | tail -80'), 'npm test');
		assert.strictEqual(commandForMatching('echo "a && b" > out.txt'), 'echo "a && b"');
		assert.strictEqual(commandForMatching('CI=1 npx mocha'), 'npx mocha');
		assert.strictEqual(
			new FilterEngine().ruleFor('cd /Users/me/project && cargo clippy --workspace -- -D warnings 2>&1')?.name,
			'cargo-clippy',
		);
		assert.strictEqual(new FilterEngine().ruleFor('makepkg'), undefined, 'prefix rules match whole words');
	});

	it('reports "N → M lines (P% filtered, confidence)"', () => {
		const result = new FilterEngine().apply('npx mocha', passing);
		assert.strictEqual(describeFilter(result), '5 → 1 lines (80% filtered, full)');
	});

	it('a workspace rule overrides a built-in of the same name; a user toggle switches one off', () => {
		const workspace = parseRuleFile(
			JSON.stringify({
				rules: [
					{
						name: 'mocha',
						match: { prefix: 'mocha' },
						strategy: { type: 'keep_matching', patterns: ['passing'] },
					},
				],
			}),
			'workspace',
		);
		const user = parseRuleFile(JSON.stringify({ rules: [{ name: 'git-status', enabled: false }] }), 'user');
		const engine = new FilterEngine([workspace.entries, user.entries]);
		assert.strictEqual(engine.apply('npx mocha', passing).text, '  3 passing (1s)');
		assert.strictEqual(engine.ruleFor('git status'), undefined);
	});

	it('keel.filters.disabledRules and the master switch', () => {
		assert.strictEqual(
			new FilterEngine([], { enabled: true, disabledRules: ['mocha'] }).ruleFor('mocha'),
			undefined,
		);
		const off = new FilterEngine([], { enabled: false, disabledRules: [] }).apply(
			'npx mocha',
			`\u001b[1m${passing}`,
		);
		assert.strictEqual(off.text, `\u001b[1m${passing}`);
	});

	it('invalid rules are skipped with a reason, the valid ones in the file still load', () => {
		const parsed = parseRuleFile(
			JSON.stringify({
				rules: [
					{ name: 'ok', match: { prefix: 'foo' }, strategy: { type: 'truncate', maxLines: 5 } },
					{ name: 'two-matches', match: { prefix: 'a', exact: 'b' }, strategy: { type: 'dedup' } },
					{ name: 'long', match: { regex: 'a'.repeat(600) }, strategy: { type: 'dedup' } },
					{ name: 'bad-regex', match: { prefix: 'x' }, strategy: { type: 'strip_noise', patterns: ['('] } },
				],
			}),
			'filters.json',
		);
		assert.deepStrictEqual(
			parsed.entries.map(e => e.name),
			['ok'],
		);
		assert.strictEqual(parsed.warnings.length, 3);
		assert.match(parsed.warnings.join('\n'), /"long" skipped .*512 characters/);
		assert.match(parsed.warnings.join('\n'), /"bad-regex" skipped .*not a valid regular expression/);
		assert.match(parseRuleFile('x'.repeat(1024 * 1024 + 1), 'big.json').warnings[0], /larger than 1 MiB/);
	});

	it('a stage that would remove everything is undone and reported as fallback', () => {
		const engine = new FilterEngine([
			[{ name: 'all', match: { prefix: 'x' }, strategy: { type: 'strip_noise', patterns: ['.'] } }],
		]);
		const result = engine.apply('x', 'one\ntwo');
		assert.strictEqual(result.text, 'one\ntwo');
		assert.strictEqual(result.confidence, 'fallback');
	});

	it('test output without a summary line is left whole (fallback)', () => {
		const result = new FilterEngine().apply(
			'npx jest',
			'Error: Cannot find module jest-environment-jsdom\n    at resolve (x.js:1:1)',
		);
		assert.strictEqual(result.confidence, 'fallback');
		assert.match(result.text, /Cannot find module/);
	});

	it('the security scan reads the raw output, extra patterns included', async () => {
		const raw = 'ok\nAWS_SECRET_ACCESS_KEY=abcdefghijklmnop1234\nINTERNAL-TOKEN-42424242';
		assert.ok((await scanForCredentials(raw)).length >= 1);
		assert.ok((await scanForCredentials(raw, ['INTERNAL-TOKEN-\\d{8}'])).includes('custom pattern'));
	});
});
