import * as assert from 'assert';
import * as z from 'zod';
import { evaluatePermissions, matchUrlRule, toolOffered, type PermissionRule } from '../../../../src/core/agent/permissions';
import { loadBashParser } from '../../../../src/core/tools/bashParser';
import { defineTool, ok } from '../../../../src/core/tools/defineTool';

const tool = (name: string, effect: 'read' | 'write' | 'exec' | 'network', kind: 'path' | 'command' | 'url') =>
	defineTool({ name, description: '', input: z.object({ v: z.string() }), effect, subjects: i => [{ kind, values: [i.v] }], describe: () => name, execute: async () => ok('') });
const write = tool('write_file', 'write', 'path');
const run = tool('run_command', 'exec', 'command');
const fetchTool = tool('fetch', 'network', 'url');
const decide = (t: ReturnType<typeof tool>, v: string, rules: PermissionRule[], extra: Partial<Parameters<typeof evaluatePermissions>[2]> = {}) =>
	evaluatePermissions(t, { v }, { rules, autoApprove: false, trusted: true, ...extra });

describe('permissions', () => {
	before(() => loadBashParser());
	it('precedence: deny beats ask beats allow beats the auto-approve default', () => {
		const rules: PermissionRule[] = [{ tool: 'write_file', match: 'src/**', action: 'allow' }, { tool: 'write_file', match: 'src/gen/**', action: 'ask' }, { tool: 'write_file', match: 'src/gen/secret*', action: 'deny' }];
		assert.strictEqual(decide(write, 'src/a.ts', rules).verdict, 'allow');
		assert.strictEqual(decide(write, 'src/gen/x.ts', rules).verdict, 'ask');
		assert.strictEqual(decide(write, 'src/gen/secret.ts', rules).verdict, 'deny');
		assert.strictEqual(decide(write, 'docs/a.md', rules).verdict, 'ask');
		assert.strictEqual(decide(write, 'docs/a.md', rules, { autoApprove: true }).verdict, 'allow');
	});

	it('deny matches ignoring case; allow only exactly', () => {
		assert.strictEqual(decide(write, 'SRC/A.ts', [{ tool: 'write_file', match: 'src/**', action: 'deny' }]).verdict, 'deny');
		assert.strictEqual(decide(write, 'SRC/A.ts', [{ tool: 'write_file', match: 'src/**', action: 'allow' }]).verdict, 'ask');
	});

	it('protected paths ask even when a rule or auto-approve allows, and get no "Always allow"', () => {
		const verdict = decide(write, '.vscode/settings.json', [{ tool: '*', action: 'allow' }], { autoApprove: true, prepared: { protectedReasons: ['.vscode/settings.json: editor settings'] } });
		assert.strictEqual(verdict.verdict, 'ask');
		assert.strictEqual(verdict.suggestedRule, undefined);
	});

	it('a command line is allowed only when every command of it is', () => {
		const rules: PermissionRule[] = [{ tool: 'run_command', match: 'npm test*', action: 'allow' }, { tool: 'run_command', match: 'git status', action: 'allow' }];
		assert.strictEqual(decide(run, 'git status && npm test', rules).verdict, 'allow');
		assert.strictEqual(decide(run, 'git status && npm publish', rules).verdict, 'ask');
		assert.strictEqual(decide(run, 'npm test > .vscode/tasks.json', [{ tool: 'run_command', match: 'npm test*', action: 'allow' }]).verdict, 'ask');
	});

	it('"Always allow" suggests the exact subject, escaped', () => {
		assert.deepStrictEqual(decide(write, 'src/[id].ts', []).suggestedRule, { tool: 'write_file', match: 'src/\\[id\\].ts', action: 'allow' });
	});

	it('URL rules: * stays inside a segment, so a look-alike host does not match', () => {
		assert.ok(matchUrlRule('https://docs.python.org/**', 'https://docs.python.org/3/library/os.html'));
		assert.ok(!matchUrlRule('https://github.com/**', 'https://github.com.evil.com/x'));
		assert.ok(!matchUrlRule('https://*.github.com/**', 'https://evil.com/.github.com/x'));
		assert.strictEqual(decide(fetchTool, 'https://docs.python.org/3/', [{ tool: 'fetch', match: 'https://docs.python.org/**', action: 'allow' }]).verdict, 'allow');
	});

	it('untrusted: only read tools are offered and run; a bare deny hides a tool', () => {
		assert.strictEqual(decide(write, 'a', [], { trusted: false, autoApprove: true }).verdict, 'deny');
		assert.ok(!toolOffered(write, [], false));
		assert.ok(!toolOffered(run, [{ tool: 'run_command', action: 'deny' }], true));
		assert.ok(toolOffered(run, [{ tool: 'run_command', match: 'rm *', action: 'deny' }], true));
	});
});
