// Keel's own sentences mark commands and settings with backticks; wherever they are shown the
// marks are rendered (code spans) or turned into quotes (plain-text surfaces), never shown raw.
import * as assert from 'assert';
import fc from 'fast-check';
import { codeSpans, plainText } from '../../../src/shared/keelText';

const words = fc.stringMatching(/^[^`]{1,20}$/);
// A code span as Keel writes one: a name or a command, no space at its edges.
const code = fc.stringMatching(/^[^`\s]([^`]{0,18}[^`\s])?$/);
const segments = fc
	.array(
		fc.oneof(
			words.map(text => ({ text, code: false })),
			code.map(text => ({ text, code: true })),
		),
		{
			minLength: 1,
			maxLength: 6,
		},
	)
	// Two spans are never written back to back (Markdown would read ``…`` as one span).
	.map(parts => parts.flatMap((p, i) => (p.code && parts[i - 1]?.code ? [{ text: ' ', code: false }, p] : [p])));

describe("Keel's text", () => {
	it('splits into the code spans it was written with, and plain text loses every backtick', () => {
		fc.assert(
			fc.property(segments, parts => {
				const written = parts.map(p => (p.code ? `\`${p.text}\`` : p.text)).join('');
				const spans = codeSpans(written);
				assert.strictEqual(spans.map(s => s.text).join(''), parts.map(p => p.text).join(''));
				assert.strictEqual(spans.filter(s => s.code).length, parts.filter(p => p.code).length);
				assert.doesNotMatch(plainText(written), /`/);
			}),
		);
	});

	it('reads a real message as it should', () => {
		assert.strictEqual(
			plainText('No model server answered — start Ollama with `ollama serve`, or change keel.model.baseUrl.'),
			"No model server answered — start Ollama with 'ollama serve', or change keel.model.baseUrl.",
		);
	});
});
