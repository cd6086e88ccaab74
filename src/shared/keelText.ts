/**
 * Keel's own sentences (notices, errors, refusals, questions) mark commands and setting names
 * with backticks, as the Markdown they are written in. Wherever they are shown they are
 * rendered, never shown raw: the chat draws the spans as code (KeelText), and surfaces that
 * show plain text only (VS Code notifications, quick picks) get `plainText`.
 */
export interface TextSpan {
	text: string;
	code: boolean;
}

/** Inline code spans (`…`, also ``…`` around a backtick) and the text between them. */
export function codeSpans(text: string): TextSpan[] {
	const spans: TextSpan[] = [];
	const pattern = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
	let last = 0;
	for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
		if (match.index > last) {
			spans.push({ text: text.slice(last, match.index), code: false });
		}
		spans.push({ text: match[2].trim() || match[2], code: true });
		last = match.index + match[0].length;
	}
	if (last < text.length) {
		spans.push({ text: text.slice(last), code: false });
	}
	return spans;
}

/** The same sentence for a surface without Markdown: a code span keeps its words, in quotes. */
export function plainText(text: string): string {
	return codeSpans(text)
		.map(span => (span.code ? `'${span.text}'` : span.text))
		.join('');
}
