import * as assert from 'assert';
import { ChatView } from '../../../../src/host/view/chatView';

describe('ChatView — recovery events', () => {
	it("marks a failed attempt's text as retracted and starts a new bubble for the retry", () => {
		const model = new ChatView('s', 'm');
		model.apply({ type: 'turnStarted', turnId: 't', prompt: 'hi' });
		model.apply({ type: 'textDelta', turnId: 't', text: 'Half an' });
		const updates = model.apply({ type: 'textRetracted', turnId: 't', reason: 'retry' });
		assert.deepStrictEqual(
			updates.map(u => u.type),
			['didUpsertItem'],
		);
		model.apply({ type: 'textDelta', turnId: 't', text: 'Whole answer' });
		const assistants = model.view.items.filter(i => i.kind === 'assistant');
		assert.deepStrictEqual(
			assistants.map(i => i.kind === 'assistant' && [i.text, i.retracted ?? null]),
			[
				['Half an', 'retry'],
				['Whole answer', null],
			],
		);
	});

	it('ignores a retraction when nothing was streamed', () => {
		const model = new ChatView('s', 'm');
		model.apply({ type: 'turnStarted', turnId: 't', prompt: 'hi' });
		assert.deepStrictEqual(model.apply({ type: 'textRetracted', turnId: 't', reason: 'retry' }), []);
	});

	it('shows the step-cap question and then the decision', () => {
		const model = new ChatView('s', 'm');
		model.apply({ type: 'turnStarted', turnId: 't', prompt: 'hi' });
		model.apply({ type: 'continueRequested', turnId: 't', id: 'c1', text: 'Continue?' });
		assert.deepStrictEqual(
			model.view.items.find(i => i.kind === 'continue'),
			{ kind: 'continue', id: 'c1', text: 'Continue?', state: 'pending' },
		);
		model.apply({ type: 'continueDecided', turnId: 't', id: 'c1', proceed: false });
		assert.strictEqual(
			model.view.items.find(i => i.kind === 'continue')?.kind === 'continue' &&
				(model.view.items.find(i => i.kind === 'continue') as { state: string }).state,
			'stopped',
		);
	});
});
