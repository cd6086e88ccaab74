import { memo } from 'preact/compat';
import { useEffect, useRef, useState } from 'preact/hooks';
import { CompletionList, completionTrigger, useCompletions } from './completions';
import { useEverydayState } from './useEverydayState';
import { ImageChips, imageFiles, pendingFromHost, usePendingImages } from './imageAttach';
import { MentionChips } from './mentionChips';
import { ModeControl } from './modeControl';
import { post } from './vscodeApi';

/**
 * The prompt box. Its text lives here, not in the component that draws the conversation, so
 * a key press repaints this box and nothing else. It sends through the host's command path:
 * `/plan`, `/new`, prompt files and `@`-mentions are resolved there.
 */
export const Composer = memo(function Composer({
	busy,
	ready,
	lastPrompt,
}: {
	busy: boolean;
	ready: boolean;
	lastPrompt: () => string | undefined;
}) {
	const [text, setText] = useState('');
	const [caret, setCaret] = useState(0);
	const composing = useRef(false);
	const input = useRef<HTMLTextAreaElement>(null);
	const state = useEverydayState();
	const trigger = completionTrigger(text, caret);
	const completions = useCompletions(trigger);
	const pending = usePendingImages();

	// A rewound turn's prompt comes back here to edit and resend.
	useEffect(() => {
		if (state.fill.serial > 0) {
			setText(state.fill.text);
			setCaret(state.fill.text.length);
			if (state.fill.images) {
				// A send refused for its images: they come back to fix and send again.
				pending.set(state.fill.images.map(pendingFromHost));
			}
			input.current?.focus();
		}
	}, [state.fill.serial]);

	// Files dropped from the Explorer come back from the host as mentions, added at the end.
	useEffect(() => {
		if (state.added.serial > 0 && state.added.values.length) {
			setText(current => {
				const joined = `${current}${current && !/\s$/.test(current) ? ' ' : ''}${state.added.values.map(v => `@${v}`).join(' ')} `;
				setCaret(joined.length);
				return joined;
			});
			input.current?.focus();
		}
	}, [state.added.serial]);

	const update = (value: string, at = value.length) => {
		setText(value);
		setCaret(at);
	};
	const send = () => {
		const prompt = text.trim();
		if (!prompt || busy || !ready) {
			return;
		}
		const images = pending.images.map(({ name, data }) => ({ name, data }));
		post(images.length ? { type: 'submit', text: prompt, images } : { type: 'submit', text: prompt });
		update('');
		pending.set([]);
	};
	const onPaste = (e: ClipboardEvent) => {
		const files = imageFiles(e.clipboardData);
		if (files.length) {
			// Text in the same paste still goes in the box; only the image is taken here.
			if (!e.clipboardData?.getData('text/plain')) {
				e.preventDefault();
			}
			void pending.add(files);
		}
	};
	const onDragOver = (e: DragEvent) => {
		e.preventDefault();
		if (e.dataTransfer) {
			e.dataTransfer.dropEffect = 'copy';
		}
	};
	const onDrop = (e: DragEvent) => {
		e.preventDefault();
		const files = imageFiles(e.dataTransfer);
		if (files.length) {
			void pending.add(files);
			return;
		}
		// From VS Code's Explorer (Shift held while dropping into a webview): a list of URIs.
		const list =
			e.dataTransfer?.getData('application/vnd.code.uri-list') || e.dataTransfer?.getData('text/uri-list') || '';
		const uris = list
			.split(/\r?\n/)
			.map(line => line.trim())
			.filter(line => line && !line.startsWith('#'));
		if (uris.length) {
			post({ type: 'dropUris', uris: uris.slice(0, 50) });
		}
	};
	const accept = (index: number) => {
		const item = completions.items[index];
		if (!item || !trigger) {
			return;
		}
		const inserted = trigger.kind === 'slash' ? `/${item.value} ` : `@${item.value} `;
		const next = text.slice(0, trigger.start) + inserted + text.slice(caret);
		update(next, trigger.start + inserted.length);
		completions.close();
		requestAnimationFrame(() => {
			input.current?.focus();
			input.current?.setSelectionRange(trigger.start + inserted.length, trigger.start + inserted.length);
		});
	};
	const onKeyDown = (e: KeyboardEvent) => {
		// During an IME composition Enter picks the candidate; it must not send.
		if (e.isComposing || composing.current || e.keyCode === 229) {
			return;
		}
		if (completions.open) {
			if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
				e.preventDefault();
				completions.move(e.key === 'ArrowDown' ? 1 : -1);
				return;
			}
			// Enter on a command typed out in full sends it; otherwise it picks, as Tab does.
			const typedOut =
				trigger?.kind === 'slash' && completions.items[completions.selected]?.value === trigger.query;
			if ((e.key === 'Enter' && !typedOut) || e.key === 'Tab') {
				e.preventDefault();
				accept(completions.selected);
				return;
			}
			if (e.key === 'Escape') {
				// Closes the list only; the chat-wide Escape (stop the turn) skips a prevented event.
				e.preventDefault();
				completions.close();
				return;
			}
		}
		if (e.key === 'Enter' && !e.shiftKey) {
			e.preventDefault();
			send();
		} else if (e.key === 'ArrowUp' && text === '') {
			const last = lastPrompt();
			if (last) {
				e.preventDefault();
				update(last);
			}
		}
	};
	const onInput = (e: Event) => {
		const area = e.target as HTMLTextAreaElement;
		update(area.value, area.selectionStart ?? area.value.length);
	};
	return (
		<div class="composer-box" data-testid="composer" onDragOver={onDragOver} onDrop={onDrop}>
			{completions.open && (
				<CompletionList
					items={completions.items}
					selected={completions.selected}
					kind={trigger?.kind ?? 'slash'}
					onPick={accept}
				/>
			)}
			<ImageChips images={pending.images} error={pending.error} onRemove={pending.remove} />
			<MentionChips text={text} onRemove={token => update(text.replace(token, '').replace(/ {2,}/g, ' '))} />
			<div class="composer">
				<label for="keel-prompt" class="visually-hidden">
					Message Keel
				</label>
				<textarea
					id="keel-prompt"
					ref={input}
					data-testid="prompt-input"
					placeholder="Ask Keel… (Enter to send, / for commands, @ for context, ↑ for the last prompt)"
					value={text}
					aria-expanded={completions.open}
					aria-controls="keel-completions"
					aria-autocomplete="list"
					aria-activedescendant={completions.open ? `keel-completion-${completions.selected}` : undefined}
					onInput={onInput}
					onClick={e => setCaret((e.target as HTMLTextAreaElement).selectionStart ?? text.length)}
					onCompositionStart={() => (composing.current = true)}
					onCompositionEnd={() => (composing.current = false)}
					onKeyDown={onKeyDown}
					onPaste={onPaste}
				/>
				<div class="composer-actions">
					<ModeControl disabled={!ready} />
					{busy ? (
						<button
							data-testid="stop"
							class="secondary"
							aria-label="Stop the running turn (Escape)"
							title="Stop (Escape)"
							onClick={() => post({ type: 'cancelTurn' })}
						>
							Stop
						</button>
					) : (
						<button
							data-testid="send"
							class="primary"
							aria-label="Send"
							onClick={send}
							disabled={!text.trim() || !ready}
						>
							Send
						</button>
					)}
				</div>
			</div>
		</div>
	);
});
