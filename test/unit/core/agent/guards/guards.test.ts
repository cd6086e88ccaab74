import * as assert from 'assert';
import fc from 'fast-check';
import {
	compactToolOutputs,
	estimateTokens,
	LoopGuard,
	promptWasCut,
	looksDegenerate,
	looksTruncated,
} from '../../../../../src/core/agent/guards/guards';
import type { CanonicalMessage } from '../../../../../src/core/llm/canonical';

describe('LoopGuard', () => {
	it('warns on the same call with the same output 3 times, then stops on the next loop', () => {
		const guard = new LoopGuard(3);
		assert.deepStrictEqual(
			[1, 2, 3].map(() => guard.observe('read_file', '{"path":"a"}', 'same')),
			['ok', 'ok', 'warn'],
		);
		assert.deepStrictEqual(
			[1, 2, 3].map(() => guard.observe('read_file', '{ "path": "a" }', 'same')),
			['ok', 'ok', 'stop'],
		);
	});

	it('does not count the same call with a new output (polling) as a loop', () => {
		const guard = new LoopGuard(3);
		assert.deepStrictEqual(
			['1', '2', '3', '4'].map(out => guard.observe('read_file', '{"path":"log"}', out)),
			['ok', 'ok', 'ok', 'ok'],
		);
	});

	it('catches an A-B-A-B cycle', () => {
		const guard = new LoopGuard(3);
		const verdicts = ['a', 'b', 'a', 'b'].map(p =>
			guard.observe('read_file', JSON.stringify({ path: p }), `content ${p}`),
		);
		assert.deepStrictEqual(verdicts, ['ok', 'ok', 'ok', 'warn']);
	});
});

describe('context budget', () => {
	const result = (id: string, size: number): CanonicalMessage => ({
		kind: 'tool_result',
		content: 'x'.repeat(size),
		data: { toolCallId: id, name: 'read_file', output: 'x'.repeat(size), ok: true },
	});

	it('compacts the oldest tool outputs first and keeps the recent ones', () => {
		const messages: CanonicalMessage[] = [
			{ kind: 'system', content: 'sys' },
			result('1', 8000),
			result('2', 8000),
			result('3', 8000),
			result('4', 8000),
		];
		const before = estimateTokens(messages, []);
		const compacted = compactToolOutputs(messages, [], 5000);
		assert.ok(compacted.estimate < before);
		assert.strictEqual(compacted.compacted, 2);
		assert.match(compacted.messages[1].content, /removed to save context/);
		assert.strictEqual(compacted.messages[4].content.length, 8000);
		assert.strictEqual(messages[1].content.length, 8000, 'history untouched');
	});

	it('flags a prompt token count far below the estimate as truncation', () => {
		assert.strictEqual(looksTruncated(4000, 2048), true);
		assert.strictEqual(looksTruncated(4000, 3900), false);
		assert.strictEqual(looksTruncated(4000, undefined), false);
		assert.strictEqual(looksTruncated(500, 100), false);
		assert.strictEqual(looksTruncated(1800, 107), false, 'a small count is a different tokenizer, not a cut');
	});

	it('holds a server that counts only what it evaluated to the new part: near it is the cache, under it or far past it a cut', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 2000, max: 60_000 }),
				fc.double({ min: 0.001, max: 1, noNaN: true }),
				fc.double({ min: 0, max: 40, noNaN: true }),
				(estimate, newShare, readShare) => {
					const newTokens = Math.max(1, Math.round(estimate * newShare));
					const read = Math.round(newTokens * readShare);
					const cut = promptWasCut(estimate, read, newTokens);
					// Never more than the plain check says.
					assert.ok(!cut || looksTruncated(estimate, read));
					if (!looksTruncated(estimate, read)) return;
					// The plain check stands when nothing was cached.
					if (newTokens >= estimate) return assert.strictEqual(cut, true);
					// A count near the new part is the cache at work; under it, or far past it, a cut.
					const nearNew = read >= newTokens * 0.6 && read <= newTokens * 1.5 + 256;
					assert.strictEqual(cut, !nearNew);
				},
			),
		);
		// A warm Ollama cache: 20,000 sent, 3,000 new, 2,900 read → the cache; 1,100 read → cut.
		assert.strictEqual(promptWasCut(20_000, 2900, 3000), false);
		assert.strictEqual(promptWasCut(20_000, 4096, 9000), true, 'a 4k window cutting a 9k new part');
		// A long system prompt cut to a 2k window while only a tool result was new: the cache did not hold.
		assert.strictEqual(promptWasCut(8500, 2048, 60), true);
	});
});

describe('looksDegenerate', () => {
	it('spots one phrase repeated instead of an answer (cline#944)', () => {
		assert.strictEqual(
			looksDegenerate('<thinking about the user-providualize ' + 'the user-providualize '.repeat(40)),
			true,
		);
	});

	it('leaves ordinary long answers and tables alone', () => {
		const prose = Array.from(
			{ length: 30 },
			(_, i) => `Line ${i}: the function at src/file${i}.ts handles case ${i * 7}.`,
		).join('\n');
		assert.strictEqual(looksDegenerate(prose), false);
		assert.strictEqual(looksDegenerate('| a | b |\n' + '|---|---|\n'.repeat(3) + 'short'), false);
	});
});

describe('looksDegenerate and layout', () => {
	it('a phrase repeating is degenerate; a rule of "=" or a list of zeros is not', () => {
		assert.strictEqual(looksDegenerate('Sure. ' + 'the user-providualize '.repeat(30)), true);
		assert.strictEqual(looksDegenerate('Table:\n' + '='.repeat(400)), false);
		assert.strictEqual(looksDegenerate('[' + '0, '.repeat(200) + '0]'), false);
	});
});
