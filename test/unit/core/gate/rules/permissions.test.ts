import * as assert from 'assert';
import * as z from 'zod';
import {
	evaluatePermissions,
	matchUrlRule,
	toolOffered,
	type PermissionRule,
} from '../../../../../src/core/gate/rules/permissions';
import { loadBashParser } from '../../../../../src/core/shell/bashParser';
import { defineTool, ok } from '../../../../../src/core/tools/defineTool';

const tool = (name: string, effect: 'read' | 'write' | 'exec' | 'network', kind: 'path' | 'command' | 'url') =>
	defineTool({
		name,
		description: '',
		input: z.object({ v: z.string() }),
		effect,
		subjects: i => [{ kind, values: [i.v] }],
		describe: () => name,
		execute: async () => ok(''),
	});
const write = tool('write_file', 'write', 'path');
const run = tool('run_command', 'exec', 'command');
const fetchTool = tool('fetch', 'network', 'url');
const decide = (
	t: ReturnType<typeof tool>,
	v: string,
	rules: PermissionRule[],
	extra: Partial<Parameters<typeof evaluatePermissions>[2]> = {},
) => evaluatePermissions(t, { v }, { rules, autoApprove: false, trusted: true, ...extra });

describe('permissions', () => {
	before(() => loadBashParser());
	it('precedence: deny beats ask beats allow beats the auto-approve default', () => {
		const rules: PermissionRule[] = [
			{ tool: 'write_file', match: 'src/**', action: 'allow' },
			{ tool: 'write_file', match: 'src/gen/**', action: 'ask' },
			{ tool: 'write_file', match: 'src/gen/secret*', action: 'deny' },
		];
		assert.strictEqual(decide(write, 'src/a.ts', rules).verdict, 'allow');
		assert.strictEqual(decide(write, 'src/gen/x.ts', rules).verdict, 'ask');
		assert.strictEqual(decide(write, 'src/gen/secret.ts', rules).verdict, 'deny');
		assert.strictEqual(decide(write, 'docs/a.md', rules).verdict, 'ask');
		assert.strictEqual(decide(write, 'docs/a.md', rules, { autoApprove: true }).verdict, 'allow');
	});

	it('deny matches ignoring case; allow only exactly', () => {
		assert.strictEqual(
			decide(write, 'SRC/A.ts', [{ tool: 'write_file', match: 'src/**', action: 'deny' }]).verdict,
			'deny',
		);
		assert.strictEqual(
			decide(write, 'SRC/A.ts', [{ tool: 'write_file', match: 'src/**', action: 'allow' }]).verdict,
			'ask',
		);
	});

	it('protected paths ask even when a rule or auto-approve allows, and get no "Always allow"', () => {
		const verdict = decide(write, '.vscode/settings.json', [{ tool: '*', action: 'allow' }], {
			autoApprove: true,
			prepared: { protectedReasons: ['.vscode/settings.json: editor settings'] },
		});
		assert.strictEqual(verdict.verdict, 'ask');
		assert.strictEqual(verdict.suggestedRule, undefined);
	});

	it('a command line is allowed only when every command of it is', () => {
		const rules: PermissionRule[] = [
			{ tool: 'run_command', match: 'npm test*', action: 'allow' },
			{ tool: 'run_command', match: 'git status', action: 'allow' },
		];
		assert.strictEqual(decide(run, 'git status && npm test', rules).verdict, 'allow');
		assert.strictEqual(decide(run, 'git status && npm publish', rules).verdict, 'ask');
		assert.strictEqual(
			decide(run, 'npm test > .vscode/tasks.json', [{ tool: 'run_command', match: 'npm test*', action: 'allow' }])
				.verdict,
			'ask',
		);
	});

	it("a file an allowed program writes by its own option is covered by the command's allow; deny and ask rules still see it", () => {
		const rules: PermissionRule[] = [
			{ tool: 'run_command', match: 'sort *', action: 'allow' },
			{ tool: 'run_command', match: 'echo *', action: 'allow' },
			{ tool: '*', match: 'locked/**', action: 'deny' },
			{ tool: '*', match: 'review/**', action: 'ask' },
		];
		for (const line of ['sort -o out.txt a.txt', 'sort --output=out.txt a.txt', 'sort -oout.txt a.txt']) {
			assert.strictEqual(decide(run, line, rules).verdict, 'allow', line);
		}
		assert.strictEqual(decide(run, 'sort -o locked/x a.txt', rules).verdict, 'deny');
		assert.strictEqual(decide(run, 'sort --output review/x a.txt', rules).verdict, 'ask');
		// A redirection is the shell's write, not the program's: the allow on echo does not cover it.
		assert.strictEqual(decide(run, 'echo x > out.txt', rules).verdict, 'ask');
		// The canonical path prepare found is covered the same way, only when it was written by an argument.
		assert.strictEqual(
			decide(run, 'sort -o out.txt a.txt', rules, {
				prepared: { canonicalPaths: ['out.txt'], coveredByCommand: ['out.txt'] },
			}).verdict,
			'allow',
		);
		assert.strictEqual(
			decide(run, 'sort -o out.txt a.txt', rules, { prepared: { canonicalPaths: ['out.txt'] } }).verdict,
			'ask',
		);
	});

	it('"Always allow" suggests the exact subject, escaped', () => {
		assert.deepStrictEqual(decide(write, 'src/[id].ts', []).suggestedRule, {
			tool: 'write_file',
			match: 'src/\\[id\\].ts',
			action: 'allow',
		});
	});

	it('URL rules: * stays inside a segment, so a look-alike host does not match', () => {
		assert.ok(matchUrlRule('https://docs.python.org/**', 'https://docs.python.org/3/library/os.html'));
		assert.ok(!matchUrlRule('https://github.com/**', 'https://github.com.evil.com/x'));
		assert.ok(!matchUrlRule('https://*.github.com/**', 'https://evil.com/.github.com/x'));
		assert.strictEqual(
			decide(fetchTool, 'https://docs.python.org/3/', [
				{ tool: 'fetch', match: 'https://docs.python.org/**', action: 'allow' },
			]).verdict,
			'allow',
		);
	});

	it('untrusted: only read tools are offered and run; a bare deny hides a tool', () => {
		assert.strictEqual(decide(write, 'a', [], { trusted: false, autoApprove: true }).verdict, 'deny');
		assert.ok(!toolOffered(write, [], false));
		assert.ok(!toolOffered(run, [{ tool: 'run_command', action: 'deny' }], true));
		assert.ok(toolOffered(run, [{ tool: 'run_command', match: 'rm *', action: 'deny' }], true));
	});

	it('paths: deny or ask when the name or the canonical path matches; allow only when both do', () => {
		const canonical = (path: string) => ({ prepared: { canonicalPaths: [path] } });
		assert.strictEqual(
			decide(
				write,
				'src/pkg.json',
				[{ tool: 'write_file', match: 'src/**', action: 'allow' }],
				canonical('package.json'),
			).verdict,
			'ask',
		);
		assert.strictEqual(
			decide(write, 'src/a.ts', [{ tool: 'write_file', match: 'src/**', action: 'allow' }], canonical('src/a.ts'))
				.verdict,
			'allow',
		);
		assert.strictEqual(
			decide(
				write,
				'alias/x',
				[{ tool: 'write_file', match: 'scripts/**', action: 'deny' }],
				canonical('scripts/x'),
			).verdict,
			'deny',
		);
		assert.strictEqual(
			decide(write, 'x/../scripts/./x', [{ tool: 'write_file', match: 'scripts/**', action: 'deny' }]).verdict,
			'deny',
		);
	});

	it('commands: a deny refuses every spelling bash reduces to it; an unknown command name is refused under any deny', () => {
		const rules: PermissionRule[] = [{ tool: 'run_command', match: 'rm *', action: 'deny' }];
		for (const line of [
			'/bin/rm x',
			'\\rm x',
			"'rm' x",
			'r""m x',
			'FOO=1 rm x',
			'sudo rm x',
			'bash -c "rm x"',
			'echo ${x:-$(rm x)}',
			'$CMD x',
			'eval "$X"',
		]) {
			assert.strictEqual(decide(run, line, rules).verdict, 'deny', line);
		}
		assert.strictEqual(decide(run, 'ls x', rules).verdict, 'ask');
	});

	it('"Always allow" on a command saves it with its * escaped, and nothing for several commands', () => {
		assert.deepStrictEqual(decide(run, 'echo "a*b"', []).suggestedRule, {
			tool: 'run_command',
			match: 'echo a\\*b',
			action: 'allow',
		});
		assert.strictEqual(decide(run, 'git status; npm test', []).suggestedRule, undefined);
		assert.strictEqual(decide(run, 'ls *.ts', []).suggestedRule, undefined);
	});
});
