import * as assert from 'assert';
import { ReasoningSplitter, type Segment } from '../../../../../src/core/llm/stream/reasoningSplitter';

/** Feeds the text in pieces of `size` characters and joins what each channel got. */
function split(text: string, size: number) {
	const splitter = new ReasoningSplitter();
	const segments: Segment[] = [];
	for (let i = 0; i < text.length; i += size) {
		segments.push(...splitter.push(text.slice(i, i + size)));
	}
	segments.push(...splitter.end());
	let answer = '';
	let reasoning = '';
	for (const s of segments) {
		if (s.kind === 'text') {
			answer += s.text;
		} else if (s.kind === 'reasoning') {
			reasoning += s.text;
		} else {
			reasoning += answer;
			answer = '';
		}
	}
	return { answer, reasoning, calls: splitter.harmonyCalls };
}

describe('ReasoningSplitter', () => {
	for (const size of [1, 3, 7, 1000]) {
		it(`<think>…</think> stays out of the answer, tags torn across chunks of ${size}`, () => {
			const r = split('<think>I should greet.</think>Hello <b>there</b>!', size);
			assert.strictEqual(r.reasoning, 'I should greet.');
			assert.strictEqual(r.answer, 'Hello <b>there</b>!');
		});
		it(`Harmony analysis/final channels and a call, in chunks of ${size}`, () => {
			const r = split(
				'<|channel|>analysis<|message|>Need the file.<|end|><|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"a"}<|call|>junk after',
				size,
			);
			assert.strictEqual(r.reasoning, 'Need the file.');
			assert.strictEqual(r.answer, '');
			assert.deepStrictEqual(r.calls, [{ name: 'functions.read_file', rawArguments: '{"path":"a"}' }]);
			const f = split(
				'<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>final<|message|>The answer is 4.<|return|>',
				size,
			);
			assert.deepStrictEqual([f.reasoning, f.answer], ['Think.', 'The answer is 4.']);
		});
	}

	it('a closing </think> without an opening one turns the text before it into reasoning (Qwen3 templates)', () => {
		const r = split('The user wants a haiku.</think>Autumn moonlight', 4);
		assert.deepStrictEqual([r.reasoning, r.answer], ['The user wants a haiku.', 'Autumn moonlight']);
	});
});
