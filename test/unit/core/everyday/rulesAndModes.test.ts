import * as assert from 'assert';
import { buildSystemPrompt } from '../../../../src/core/agent/loop/systemPrompt';
import { isToolOffered, decidePermission } from '../../../../src/core/agent/approval/approvalPolicy';
import { describeChanges } from '../../../../src/core/checkpoints/checkpoints';
import { modeDenyRules, parseCustomModes, PLAN, ACT, findMode, BUILT_IN_MODES } from '../../../../src/core/modes/modes';
import { loadRules, nearestRules, rulesPromptSection, rulesSummary } from '../../../../src/core/rules/projectRules';
import { createToolset } from '../../../../src/core/tools/toolset';
import { defaultToolDeps } from '../../../../src/core/tools/toolDeps';
import { InMemoryWorkspace } from '../../../fakes/inMemoryWorkspace';
import { Gate } from '../../../../src/core/gate/gate';
import { defaultPathPolicy } from '../../../../src/core/gate/paths/pathPolicy';

describe('project rules', () => {
	const workspace = () =>
		new InMemoryWorkspace({
			'AGENTS.md': '# Root rules\nUse pnpm.\n',
			'src/api/AGENTS.md': 'API handlers return Result.\n',
			'src/AGENTS.md': 'Tabs in src.\n',
			'.keel/rules/style.md': 'No default exports.\n',
			'.keel/rules/empty.md': '   \n',
			'docs/readme.md': 'not a rule',
		});

	it('orders root, .keel/rules, then sub-folders shallow to deep, and skips empty files', async () => {
		const rules = await loadRules(workspace(), 10_000, new Gate({ policy: () => defaultPathPolicy }));
		assert.deepStrictEqual(
			rules.applied.map(r => [r.path, r.scope]),
			[
				['AGENTS.md', ''],
				['.keel/rules/style.md', ''],
				['src/AGENTS.md', 'src'],
				['src/api/AGENTS.md', 'src/api'],
			],
		);
		assert.strictEqual(
			rules.tokens,
			rules.applied.reduce((n, r) => n + r.tokens, 0),
		);
	});

	it('keeps within the token budget, skipping whole files that do not fit, and says so', async () => {
		const rules = await loadRules(workspace(), 12, new Gate({ policy: () => defaultPathPolicy }));
		assert.deepStrictEqual(
			rules.applied.map(r => r.path),
			['AGENTS.md', '.keel/rules/style.md'],
		);
		assert.deepStrictEqual(
			rules.skipped.map(s => s.path),
			['src/AGENTS.md', 'src/api/AGENTS.md'],
		);
		assert.match(
			rulesSummary(rules, true),
			/^Rules: AGENTS\.md \(6 tokens\), \.keel\/rules\/style\.md \(5 tokens\)\. Skipped: src\/AGENTS\.md \(3 tokens, over the 12-token budget/,
		);
	});

	it('an untrusted workspace lists its rules as not applied', async () => {
		const rules = await loadRules(workspace(), 10_000, new Gate({ policy: () => defaultPathPolicy }));
		assert.match(rulesSummary(rules, false), /^Rules found but not applied: AGENTS\.md, .*not trusted/);
	});

	it('the nearest AGENTS.md applies to a file, and the prompt says where each applies', async () => {
		const rules = await loadRules(workspace(), 10_000, new Gate({ policy: () => defaultPathPolicy }));
		assert.strictEqual(nearestRules(rules.applied, 'src/api/users.ts')!.path, 'src/api/AGENTS.md');
		assert.strictEqual(nearestRules(rules.applied, 'src/app.ts')!.path, 'src/AGENTS.md');
		assert.strictEqual(nearestRules(rules.applied, 'srcx/app.ts')!.path, 'AGENTS.md');
		const prompt = buildSystemPrompt('ws', {
			rules: rulesPromptSection(rules),
			modeInstructions: PLAN.instructions,
		});
		assert.match(
			prompt,
			/## Rules from src\/api\/AGENTS\.md \(for files under src\/api\/\)\nAPI handlers return Result\./,
		);
		assert.ok(prompt.indexOf('Plan mode') > prompt.indexOf('Use pnpm'), 'the mode comes last');
		assert.strictEqual(buildSystemPrompt('ws'), buildSystemPrompt('ws', { rules: '' }));
	});
});

describe('modes', () => {
	const tools = createToolset(defaultToolDeps());

	it('Plan hides and refuses every tool that is not read-only; Act keeps all', () => {
		const settings = { autoApprove: { read: true, write: true, exec: true }, rules: modeDenyRules(PLAN, tools) };
		const offered = tools.filter(tool => isToolOffered(tool, settings)).map(tool => tool.name);
		assert.ok(offered.includes('read_file') && offered.includes('grep'));
		assert.ok(!offered.includes('write_file') && !offered.includes('delete_path'));
		const write = tools.find(tool => tool.name === 'write_file')!;
		assert.strictEqual(decidePermission(write, { path: 'a', content: 'b' }, settings).verdict, 'deny');
		assert.deepStrictEqual(modeDenyRules(ACT, tools), []);
	});

	it('reads custom modes and reports bad entries with what to fix', () => {
		const { modes, errors } = parseCustomModes([
			{ name: 'Review', instructions: ' Review only. ', tools: ['read_file'] },
			{ name: 'Docs writer', tools: 'all' },
			{ name: 'plan' },
			{ instructions: 'no name' },
			{ name: 'Bad', tools: 3 },
		]);
		assert.deepStrictEqual(
			modes.map(m => [m.id, m.name, m.tools, m.instructions]),
			[
				['review', 'Review', ['read_file'], 'Review only.'],
				['docs-writer', 'Docs writer', 'all', undefined],
			],
		);
		assert.deepStrictEqual(errors, [
			'keel.modes[2]: a mode named "plan" already exists; pick another name.',
			'keel.modes[3] needs a "name" (text).',
			'keel.modes[4].tools must be "all", "read" or a list of tool names (e.g. ["read_file", "grep"]).',
		]);
		assert.strictEqual(findMode([...BUILT_IN_MODES, ...modes], 'Docs Writer')!.id, 'docs-writer');
		assert.deepStrictEqual(parseCustomModes('x').errors.length, 1);
	});
});

describe('checkpoint change lines', () => {
	it('says how many files a turn changed and which', () => {
		assert.strictEqual(
			describeChanges(
				[
					{ path: 'a.ts', status: 'modified' },
					{ path: 'b.ts', status: 'added' },
					{ path: 'c.ts', status: 'deleted' },
				],
				[],
			),
			'3 files changed: a.ts, b.ts (new), c.ts (deleted).',
		);
		assert.strictEqual(describeChanges([], ['big.bin']), 'No files changed (not in the checkpoint: big.bin).');
	});
});
