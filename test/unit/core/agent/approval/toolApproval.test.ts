import * as assert from 'assert';
import type { ApprovalSettings } from '../../../../../src/core/agent/approval/approvalPolicy';
import type { AgentEvent } from '../../../../../src/core/agent/events';
import type { PermissionRule } from '../../../../../src/core/gate/rules/permissions';
import { runToolCall } from '../../../../../src/core/agent/loop/toolExecution';
import { defaultToolDeps } from '../../../../../src/core/tools/toolDeps';
import { createToolset } from '../../../../../src/core/tools/toolset';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { InMemoryWorkspace } from '../../../../fakes/inMemoryWorkspace';
import { modeDenyRules, PLAN } from '../../../../../src/core/modes/modes';
import { mergeRules } from '../../../../../src/core/gate/rules/permissionsMerge';

function setup(
	decision: { approved: boolean; reason?: string; always?: boolean },
	settings: Partial<ApprovalSettings> = {},
) {
	const workspace = new InMemoryWorkspace({ 'src/a.ts': 'one\ntwo\n' });
	const saved: PermissionRule[] = [];
	const events: AgentEvent[] = [];
	const requests: string[] = [];
	const run = (name: string, args: unknown) =>
		runToolCall(
			{ id: `c${events.length}`, name, rawArguments: JSON.stringify(args) },
			{
				turnId: 't',
				workspace,
				signal: new AbortController().signal,
				emit: e => events.push(e),
				registry: new ToolRegistry(createToolset(defaultToolDeps())),
				approvals: { request: async call => (requests.push(call.title), decision) },
				approvalSettings: {
					autoApprove: { read: true },
					persistRule: async rule => void saved.push(rule),
					...settings,
				},
			},
		);
	return { workspace, saved, events, requests, run };
}

describe('tool approval flow', () => {
	it('the card waiting for approval carries the diff and the "Always allow" rule', async () => {
		const { run, events } = setup({ approved: false });
		await run('edit_file', { path: 'src/a.ts', old_string: 'two', new_string: 'TWO' });
		const waiting = events.find(e => e.type === 'toolCallUpdated' && e.call.status === 'awaitingApproval');
		assert.ok(waiting && waiting.type === 'toolCallUpdated');
		assert.match(waiting.call.diffs![0].unified, /-two\n\+TWO/);
		assert.deepStrictEqual(waiting.call.suggestedRule, { tool: 'edit_file', match: 'src/a.ts', action: 'allow' });
	});

	it('"Always allow" runs the call, saves the rule and says so; the saved rule then allows without asking', async () => {
		const first = setup({ approved: true, always: true });
		const result = await first.run('write_file', { path: 'src/b.ts', content: 'x' });
		assert.ok(result.ok);
		assert.deepStrictEqual(first.saved, [{ tool: 'write_file', match: 'src/b.ts', action: 'allow' }]);
		assert.ok(first.events.some(e => e.type === 'notice' && e.code === 'ruleAdded'));
		const second = setup({ approved: false }, { rules: first.saved });
		assert.ok((await second.run('write_file', { path: 'src/b.ts', content: 'y' })).ok);
		assert.strictEqual(second.requests.length, 0);
	});

	it('a deny with a reason reaches the model and nothing is written', async () => {
		const { run, workspace } = setup({ approved: false, reason: 'use the helper in utils' });
		const result = await run('write_file', { path: 'src/a.ts', content: 'gone' });
		assert.match(result.output, /denied this call; it did not run\. Reason: use the helper in utils/);
		assert.strictEqual(Buffer.from(workspace.files.get('src/a.ts')!).toString(), 'one\ntwo\n');
	});

	it('a refused path fails before any approval is asked', async () => {
		const { run, requests } = setup({ approved: true });
		const result = await run('write_file', { path: '../x', content: 'x' });
		assert.match(result.output, /leaves the workspace/);
		assert.strictEqual(requests.length, 0);
	});

	/** The card as it was left when the call ended. */
	const lastCard = (events: AgentEvent[]) => {
		const updates = events.flatMap(e => (e.type === 'toolCallUpdated' ? [e.call] : []));
		return updates[updates.length - 1];
	};

	it('a write refused by a mode says the mode refused it and how to switch, not a rule the user never wrote', async () => {
		const tools = createToolset(defaultToolDeps());
		const { run, events } = setup({ approved: true }, { rules: modeDenyRules(PLAN, tools) });
		const result = await run('write_file', { path: 'src/b.ts', content: 'x' });
		const card = lastCard(events);
		assert.strictEqual(card.status, 'denied');
		assert.match(card.policyReason ?? '', /^Plan mode allows only read-only tools\. Switch to Act mode \(\/act/);
		assert.doesNotMatch(card.policyReason ?? '', /permission rule/);
		assert.match(result.output, /Plan mode allows only read-only tools/);
	});

	it("a user's rule that refuses names the settings it is written in", async () => {
		const rules = mergeRules({ workspaceValue: [{ tool: 'write_file', action: 'deny' }] }, true);
		const { run, events } = setup({ approved: true }, { rules });
		await run('write_file', { path: 'src/b.ts', content: 'x' });
		assert.strictEqual(
			lastCard(events).policyReason,
			"refused by the permission rule deny write_file (keel.permissions.rules in this workspace's settings)",
		);
	});

	it("an edit whose text is not in the file fails with one reason, as the model's mistake, not a policy", async () => {
		const { run, events } = setup({ approved: true });
		const result = await run('edit_file', { path: 'src/a.ts', old_string: 'three', new_string: '3' });
		const card = lastCard(events);
		assert.strictEqual(card.status, 'failed');
		assert.strictEqual(card.errorCategory, 'invalid_parameters');
		assert.strictEqual(
			card.output,
			'old_string was not found in src/a.ts. Read the file again and copy the text exactly (without line numbers).',
		);
		assert.match(result.output, /^\[tool_error\]\ncategory: invalid_parameters\n/);
		assert.doesNotMatch(result.output, /not allowed/);
	});

	it('a call the user denied no longer says it needs approval', async () => {
		const { run, events } = setup({ approved: false });
		await run('write_file', { path: 'src/b.ts', content: 'x' });
		assert.strictEqual(lastCard(events).policyReason, 'You denied it.');
	});
});
