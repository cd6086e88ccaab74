import * as assert from 'assert';
import * as fc from 'fast-check';
import type { ChatModel, ModelEvent } from '../../../../../src/core/llm/chatModel';
import type { AgentEvent } from '../../../../../src/core/agent/events';
import { MAX_ANSWER_CHARS } from '../../../../../src/core/agent/loop/callBounds';
import { runModelStep } from '../../../../../src/core/agent/loop/modelStep';

/** A model that hands over the pieces as given: a reader that fell behind hands over many chunks as one. */
function scripted(events: ModelEvent[]): ChatModel {
	return {
		id: 'scripted',
		async *stream() {
			yield* events;
		},
	};
}

async function step(events: ModelEvent[]) {
	let shown = 0;
	const output = await runModelStep({
		turnId: 't',
		step: 0,
		model: scripted(events),
		tools: [],
		messages: [],
		signal: new AbortController().signal,
		emit: (event: AgentEvent) => {
			if (event.type === 'textDelta' || event.type === 'reasoningDelta') shown += event.text.length;
		},
		uniqueId: (preferred, fallback) => preferred ?? fallback,
		onPartialText: () => undefined,
	});
	return { output, shown };
}

describe('an answer past the bound, however the stream cuts it', () => {
	it('never shows or keeps more than the bound, and says it stopped the answer', async () => {
		const notice = 'Keel stopped this answer';
		await fc.assert(
			fc.asyncProperty(
				// Pieces from one character to several megabytes, text and reasoning mixed.
				fc.array(
					fc.record({
						kind: fc.constantFrom('text', 'reasoning' as const),
						size: fc.integer({ min: 1, max: 3 * 1024 * 1024 }),
					}),
					{
						minLength: 1,
						maxLength: 6,
					},
				),
				async pieces => {
					const events: ModelEvent[] = pieces.map(p =>
						p.kind === 'text'
							? { type: 'text', text: 'a'.repeat(p.size) }
							: { type: 'reasoning', text: 'r'.repeat(p.size), field: 'reasoning_content' },
					);
					const total = pieces.reduce((n, p) => n + p.size, 0);
					const { output, shown } = await step(events);
					const kept =
						output.text.replace(/\n\n\[Keel stopped[^\]]*\]$/, '').length + output.reasoning.length;
					assert.ok(kept <= MAX_ANSWER_CHARS, `kept ${kept} of ${total}`);
					assert.strictEqual(output.text.includes(notice), total > MAX_ANSWER_CHARS);
					assert.ok(shown <= MAX_ANSWER_CHARS + 400, `showed ${shown}`);
					if (total <= MAX_ANSWER_CHARS) assert.strictEqual(kept, total);
				},
			),
			{ numRuns: 40 },
		);
	});
});
