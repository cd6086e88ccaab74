import * as assert from 'assert';
import { ApprovalGate, requestApprovalSafely } from '../../../../../src/core/agent/approval/approvalGate';

describe('ApprovalGate', () => {
	const call = { id: 'c1', name: 'write_file', title: 'Write a.txt' };

	it('resolves with the decision for a pending id, once', async () => {
		const gate = new ApprovalGate();
		const pending = gate.request(call, new AbortController().signal);
		assert.deepStrictEqual(gate.pendingIds(), ['c1']);
		assert.strictEqual(gate.decide('c1', { approved: true }), true);
		assert.strictEqual(gate.decide('c1', { approved: false }), false, 'a replayed decision is ignored');
		assert.deepStrictEqual(await pending, { approved: true, reason: undefined });
		assert.deepStrictEqual(gate.pendingIds(), []);
	});

	it('ignores decisions for ids it never created', () => {
		const gate = new ApprovalGate();
		assert.strictEqual(gate.decide('forged', { approved: true }), false);
	});

	it('treats a non-boolean approval as a denial', async () => {
		const gate = new ApprovalGate();
		const pending = gate.request(call, new AbortController().signal);
		gate.decide('c1', { approved: 'yes' as unknown as boolean });
		assert.strictEqual((await pending).approved, false);
	});

	it('denies everything pending on abort, cancelAll and dispose', async () => {
		const gate = new ApprovalGate();
		const abort = new AbortController();
		const a = gate.request({ ...call, id: 'a' }, abort.signal);
		const b = gate.request({ ...call, id: 'b' }, new AbortController().signal);
		abort.abort();
		assert.strictEqual((await a).approved, false);
		gate.dispose();
		assert.strictEqual((await b).approved, false);
		assert.strictEqual(
			(await gate.request({ ...call, id: 'c' }, new AbortController().signal)).approved,
			false,
			'a disposed gate approves nothing',
		);
	});

	it('fails closed when the approver is missing or throws', async () => {
		const signal = new AbortController().signal;
		assert.strictEqual((await requestApprovalSafely(undefined, call, signal)).approved, false);
		const throwing = {
			request: async () => {
				throw new Error('ui gone');
			},
		};
		const decision = await requestApprovalSafely(throwing, call, signal);
		assert.strictEqual(decision.approved, false);
		assert.match(decision.reason!, /ui gone/);
	});
});
