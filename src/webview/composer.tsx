import { memo } from 'preact/compat';
import { useRef, useState } from 'preact/hooks';
import { post } from './vscodeApi';

/**
 * The prompt box. Its text lives here, not in the component that draws the conversation, so
 * a key press repaints this box and nothing else.
 */
export const Composer = memo(function Composer({ busy, ready, lastPrompt }: { busy: boolean; ready: boolean; lastPrompt: () => string | undefined }) {
	const [text, setText] = useState('');
	const composing = useRef(false);
	const send = () => {
		const prompt = text.trim();
		if (!prompt || busy || !ready) {
			return;
		}
		post({ type: 'sendPrompt', text: prompt });
		setText('');
	};
	const onKeyDown = (e: KeyboardEvent) => {
		// During an IME composition Enter picks the candidate; it must not send.
		if (e.isComposing || composing.current || e.keyCode === 229) {
			return;
		}
		if (e.key === 'Enter' && !e.shiftKey) {
			e.preventDefault();
			send();
		} else if (e.key === 'ArrowUp' && text === '') {
			const last = lastPrompt();
			if (last) {
				e.preventDefault();
				setText(last);
			}
		}
	};
	return (
		<div class="composer">
			<label for="keel-prompt" class="visually-hidden">Message Keel</label>
			<textarea
				id="keel-prompt"
				data-testid="prompt-input"
				placeholder="Ask Keel… (Enter to send, Shift+Enter for a new line, ↑ for the last prompt)"
				value={text}
				onInput={e => setText((e.target as HTMLTextAreaElement).value)}
				onCompositionStart={() => (composing.current = true)}
				onCompositionEnd={() => (composing.current = false)}
				onKeyDown={onKeyDown}
			/>
			{busy ? (
				<button data-testid="stop" class="secondary" aria-label="Stop the running turn (Escape)" title="Stop (Escape)" onClick={() => post({ type: 'cancelTurn' })}>Stop</button>
			) : (
				<button data-testid="send" class="primary" aria-label="Send" onClick={send} disabled={!text.trim() || !ready}>Send</button>
			)}
		</div>
	);
});
