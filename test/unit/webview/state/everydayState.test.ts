import * as assert from 'assert';
import { everydayState } from '../../../../src/webview/state/everydayState';
import { ChatStore } from '../../../../src/webview/state/store';

describe('webview everyday state', () => {
	it('takes the mode, turn controls, completions and a refill from the host, and a snapshot drops the old controls', () => {
		const store = new ChatStore();
		store.apply({
			type: 'didSnapshot',
			version: 1,
			state: {
				sessionId: 's',
				busy: false,
				items: [{ kind: 'user', id: 'u', text: 'hi' }],
				olderCount: 0,
				modelLabel: 'm',
			},
		});
		let changes = 0;
		const unsubscribe = everydayState.subscribe(() => changes++);
		store.apply({
			type: 'didSetMode',
			version: 2,
			mode: { id: 'plan', name: 'Plan' },
			modes: [
				{ id: 'act', name: 'Act' },
				{ id: 'plan', name: 'Plan' },
			],
		});
		store.apply({ type: 'didSetTurns', version: 3, turns: [{ itemId: 'u', turnId: 't1', filesChanged: 2 }] });
		store.apply({ type: 'didComplete', version: 4, requestId: 9, items: [{ value: 'plan', label: '/plan' }] });
		store.apply({ type: 'didFillComposer', version: 5, text: 'hi' });
		assert.strictEqual(everydayState.mode?.id, 'plan');
		assert.strictEqual(everydayState.turns.get('u')?.filesChanged, 2);
		assert.deepStrictEqual(
			[everydayState.completions.requestId, everydayState.completions.items[0].value],
			[9, 'plan'],
		);
		assert.strictEqual(everydayState.fill.text, 'hi');
		assert.strictEqual(changes, 4, 'each change tells the controls to repaint');
		const serial = everydayState.serial;
		store.apply({ type: 'didSetTurns', version: 6, turns: [] });
		assert.strictEqual(
			everydayState.serial,
			serial + 1,
			'a control that subscribes late can tell it missed a change',
		);

		store.apply({
			type: 'didSnapshot',
			version: 7,
			state: { sessionId: 's', busy: false, items: [], olderCount: 0, modelLabel: 'm' },
		});
		assert.strictEqual(everydayState.turns.size, 0, 'a rewound or new chat shows no stale controls');
		assert.strictEqual(everydayState.mode?.id, 'plan', 'the mode stays until the host sends the new one');
		unsubscribe();
	});
});
