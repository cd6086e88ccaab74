import * as assert from 'assert';
import * as fc from 'fast-check';
import { restoreMemory, snapshotMemory } from '../../../../../src/core/agent/memory/storedMemory';
import { SessionMemory } from '../../../../../src/core/agent/memory/sessionMemory';

describe('a session memory kept with the session', () => {
	it('reads back what was stored through JSON: stubs, cuts with their references, the reasoning policy', () => {
		fc.assert(
			fc.property(
				fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 6 }),
				fc.array(
					fc.tuple(
						fc.string({ minLength: 1, maxLength: 12 }),
						fc.nat(1_000_000),
						fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: undefined }),
					),
					{ maxLength: 6 },
				),
				fc.boolean(),
				(stubbed, cuts, sendReasoning) => {
					const memory = new SessionMemory();
					stubbed.forEach(id => memory.stubbed.add(id));
					for (const [id, keep, ref] of cuts)
						memory.cut.set(id, ref === undefined ? { keep } : { keep, ref });
					memory.sendReasoning = sendReasoning;
					const back = restoreMemory(JSON.parse(JSON.stringify(snapshotMemory(memory))));
					assert.deepStrictEqual([...back.stubbed], [...memory.stubbed]);
					assert.deepStrictEqual([...back.cut], [...memory.cut]);
					assert.strictEqual(back.sendReasoning, sendReasoning);
				},
			),
		);
	});

	it('reads a row stored before cuts had references (kept counts alone)', () => {
		const stored = { ...snapshotMemory(new SessionMemory()), cut: [['call_1', 4000]] };
		assert.deepStrictEqual([...restoreMemory(stored).cut], [['call_1', { keep: 4000 }]]);
	});
});
