// What the user typed comes back exactly, with one chip per attached block, whatever the text
// and the attached content look like (fences, blank lines, lines that resemble headers).
import * as assert from 'assert';
import fc from 'fast-check';
import { splitAttachments } from '../../../../src/core/mentions/attachmentBlocks';
import { promptWithAttachments, type Attachment } from '../../../../src/core/mentions/mentions';
import { selectionPrompt } from '../../../../src/host/composer/selectionPrompt';

const textLine = fc.stringMatching(/^[ -~]{0,30}$/);
const text = fc
	.array(fc.oneof(textLine, fc.constant('```'), fc.constant('')), { minLength: 1, maxLength: 6 })
	.map(lines => lines.join('\n'));
const content = fc
	.array(
		fc.oneof(
			textLine,
			fc.constant('```'),
			fc.constant('````ts'),
			fc.constant(''),
			fc.constant('Attached file a.ts (3 tokens):'),
		),
		{ maxLength: 8 },
	)
	.map(lines => lines.join('\n'));
const attachment = fc.record({
	kind: fc.constantFrom('file', 'folder', 'selection', 'problems', 'terminal', 'url') as fc.Arbitrary<
		Attachment['kind']
	>,
	label: fc.stringMatching(/^[a-z][\w./-]{0,20}$/),
	content,
	tokens: fc.nat(5000),
	truncated: fc.boolean(),
});

describe('attachment blocks', () => {
	it('give back the typed text and one chip per attachment', () => {
		fc.assert(
			fc.property(text, fc.array(attachment, { minLength: 1, maxLength: 4 }), (typed, attachments) => {
				const words = typed.trim() || 'q';
				const split = splitAttachments(promptWithAttachments(words, attachments));
				assert.strictEqual(split.text, words);
				assert.deepStrictEqual(
					split.attachments.map(a => [a.kind, a.label]),
					attachments.map(a => [a.kind, a.label]),
				);
			}),
			{ numRuns: 500 },
		);
	});

	it('read "Ask About Selection" as a chip with the lines', () => {
		fc.assert(
			fc.property(textLine, content, fc.integer({ min: 1, max: 900 }), (question, code, first) => {
				const split = splitAttachments(selectionPrompt(question || 'Explain', 'src/app.ts', first, code, 'ts'));
				assert.strictEqual(split.text, question || 'Explain');
				assert.strictEqual(split.attachments.length, 1);
				assert.strictEqual(split.attachments[0].label, 'src/app.ts');
				assert.match(split.attachments[0].detail, new RegExp(`^lines ${first}–`));
			}),
		);
	});

	it('leave a prompt without blocks whole', () => {
		fc.assert(
			fc.property(text, typed =>
				assert.deepStrictEqual(splitAttachments(typed), { text: typed, attachments: [] }),
			),
		);
	});
});
