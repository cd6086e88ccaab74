import * as assert from 'assert';
import * as fc from 'fast-check';
import { cutNewestResults, keepWhole, withCuts } from '../../../../../src/core/agent/guards/resultCuts';
import { InMemoryOutputStore } from '../../../../../src/core/tools/outputStore';
import { estimateTokens } from '../../../../../src/core/agent/guards/guards';
import type { CanonicalMessage } from '../../../../../src/core/llm/canonical';

function history(outputs: string[]): CanonicalMessage[] {
	const out: CanonicalMessage[] = [
		{ kind: 'system', content: 'sys' },
		{ kind: 'user', content: 'go' },
	];
	outputs.forEach((output, i) => {
		const id = `c${i}`;
		out.push({
			kind: 'tool_call',
			content: '',
			data: { id, name: 'read_file', rawArguments: '{}', arguments: {} },
		});
		out.push({
			kind: 'tool_result',
			content: output,
			data: { toolCallId: id, name: 'read_file', output, ok: true },
		});
	});
	return out;
}

const results = (messages: CanonicalMessage[]) => messages.filter(m => m.kind === 'tool_result').map(m => m.content);

describe('the newest large tool result cut to fit a refused request', () => {
	it('fits the budget, newest first, keeping start and end and saying how to read the rest', () => {
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 10, max: 60_000 }), { minLength: 1, maxLength: 5 }),
				fc.integer({ min: 3000, max: 20_000 }),
				(sizes, budget) => {
					const outputs = sizes.map((n, i) => `START${i} ${'x'.repeat(n)} END${i}`);
					const messages = history(outputs);
					const cut = cutNewestResults(messages, [], budget);
					const after = results(cut.messages);
					// Newest first: an older result is cut only if every newer large one was.
					const cutAt = after.map((text, i) => text !== outputs[i]);
					cutAt.forEach((wasCut, i) => {
						if (wasCut) {
							assert.ok(after[i].startsWith(`START${i}`) && after[i].endsWith(`END${i}`));
							assert.match(after[i], /left out so the request fits.*narrower part/);
							for (let j = i + 1; j < outputs.length; j++) {
								assert.ok(cutAt[j] || outputs[j].length <= 2000, `newer ${j} before older ${i}`);
							}
						}
					});
					const large = outputs.filter(o => o.length > 2000).length;
					if (cut.cuts.size < large) {
						assert.ok(estimateTokens(cut.messages, []) <= budget + 10, 'stopped as soon as it fit');
					}
				},
			),
			{ numRuns: 200 },
		);
	});

	it('a result whose whole text is in the output store points at it', () => {
		const output = `head\n${'y'.repeat(50_000)}\n[… 9 characters omitted. Full output stored as out_ab12: call read_output with {"ref":"out_ab12","offset":N} to read any part.]\ntail`;
		const cut = cutNewestResults(history([output]), [], 2000);
		assert.match(results(cut.messages)[0], /read_output \{"ref":"out_ab12","offset":N\}/);
	});

	it('a result not in the output store yet is kept whole there, under the reference the model is given', async () => {
		const outputs = new InMemoryOutputStore();
		const output = `first line\n${'v'.repeat(60_000)}\nlast line`;
		const cut = cutNewestResults(history([output]), [], 2000, keepWhole(outputs, 's1'));
		const ref = /read_output \{"ref":"(out_[\w-]+)","offset":N\}/.exec(results(cut.messages)[0])?.[1];
		assert.ok(ref, results(cut.messages)[0].slice(-400));
		assert.strictEqual(await outputs.get('s1', ref), output);
		assert.strictEqual(await outputs.get('other', ref), undefined);
		// Sent the same way again: the same reference, nothing stored twice.
		assert.deepStrictEqual(results(withCuts(history([output]), cut.cuts)), results(cut.messages));
	});

	it('later requests send the same cut, so each request still extends the one before', () => {
		const messages = history(['z'.repeat(80_000), 'w'.repeat(90_000)]);
		const first = cutNewestResults(messages, [], 5000);
		const again = withCuts(messages, first.cuts);
		assert.deepStrictEqual(results(again), results(first.messages));
		assert.strictEqual(results(withCuts(messages, new Map())).join(''), results(messages).join(''));
	});
});
