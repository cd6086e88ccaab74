import { codeSpans } from '../../shared/keelText';

/** One of Keel's own sentences, its `code` spans drawn as code (see src/shared/keelText.ts). */
export function KeelText({ text }: { text: string }) {
	return (
		<>
			{codeSpans(text).map((span, index) =>
				span.code ? <code key={index}>{span.text}</code> : <span key={index}>{span.text}</span>,
			)}
		</>
	);
}
