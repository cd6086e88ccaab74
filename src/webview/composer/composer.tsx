import { memo } from 'preact/compat';
import { useEffect, useRef, useState } from 'preact/hooks';
import { CompletionList, completionTrigger, useCompletions } from './completions';
import { composerDropHandlers } from './composerDrop';
import { focusComposer } from './composerFocus';
import { composerKeyDown } from './composerKeys';
import { useEverydayState } from '../state/useEverydayState';
import { ImageChips, pendingFromHost, usePendingImages } from './imageAttach';
import { MentionChips } from './mentionChips';
import { ModeControl } from './modeControl';
import { post } from '../state/vscodeApi';

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
	const trigger = completionTrigger(text, caret);
	const completions = useCompletions(trigger);
	const pending = usePendingImages();
	const update = (value: string, at = value.length) => {
		setText(value);
		setCaret(at);
	};
	useHostFills(update, setText, setCaret, pending, input);
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
	const accept = (index: number) => acceptCompletion(index, { completions, trigger, text, caret, update, input });
	const onKeyDown = composerKeyDown({
		text,
		trigger,
		completions,
		composing: composing.current,
		accept,
		send,
		recall: lastPrompt,
		update,
	});
	const drop = composerDropHandlers(pending);
	return (
		<div class="composer-box" data-testid="composer" onDragOver={drop.onDragOver} onDrop={drop.onDrop}>
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
				<PromptInput
					input={input}
					text={text}
					completions={completions}
					onText={update}
					onCaret={setCaret}
					composing={composing}
					onKeyDown={onKeyDown}
					onPaste={drop.onPaste}
				/>
				<ComposerActions busy={busy} ready={ready} canSend={!!text.trim()} send={send} />
			</div>
		</div>
	);
});

/** A picked command or mention replaces what was typed after its `/` or `@`; the caret goes after it. */
function acceptCompletion(
	index: number,
	box: {
		completions: ReturnType<typeof useCompletions>;
		trigger: ReturnType<typeof completionTrigger>;
		text: string;
		caret: number;
		update(value: string, at?: number): void;
		input: { current: HTMLTextAreaElement | null };
	},
): void {
	const { completions, trigger, text, input } = box;
	const item = completions.items[index];
	if (!item || !trigger) {
		return;
	}
	const inserted = trigger.kind === 'slash' ? `/${item.value} ` : `@${item.value} `;
	const at = trigger.start + inserted.length;
	box.update(text.slice(0, trigger.start) + inserted + text.slice(box.caret), at);
	completions.close();
	requestAnimationFrame(() => {
		input.current?.focus();
		input.current?.setSelectionRange(at, at);
	});
}

/** The text box itself, with what screen readers need to follow the completion list. */
function PromptInput(props: {
	input: { current: HTMLTextAreaElement | null };
	text: string;
	completions: ReturnType<typeof useCompletions>;
	onText(value: string, at: number): void;
	onCaret(at: number): void;
	composing: { current: boolean };
	onKeyDown(e: KeyboardEvent): void;
	onPaste(e: ClipboardEvent): void;
}) {
	const { completions, composing } = props;
	return (
		<textarea
			id="keel-prompt"
			ref={props.input}
			data-testid="prompt-input"
			placeholder="Ask Keel… (Enter to send, / for commands, @ for context, ↑ for the last prompt)"
			value={props.text}
			aria-expanded={completions.open}
			aria-controls="keel-completions"
			aria-autocomplete="list"
			aria-activedescendant={completions.open ? `keel-completion-${completions.selected}` : undefined}
			onInput={e => {
				const area = e.target as HTMLTextAreaElement;
				props.onText(area.value, area.selectionStart ?? area.value.length);
			}}
			onClick={e => props.onCaret((e.target as HTMLTextAreaElement).selectionStart ?? props.text.length)}
			onCompositionStart={() => (composing.current = true)}
			onCompositionEnd={() => (composing.current = false)}
			onKeyDown={props.onKeyDown}
			onPaste={props.onPaste}
		/>
	);
}

/** The mode, and Send or (while a turn runs) Stop; after Stop the keyboard stays in the composer. */
function ComposerActions({
	busy,
	ready,
	canSend,
	send,
}: {
	busy: boolean;
	ready: boolean;
	canSend: boolean;
	send(): void;
}) {
	return (
		<div class="composer-actions">
			<ModeControl disabled={!ready} />
			{busy ? (
				<button
					data-testid="stop"
					class="secondary"
					aria-label="Stop the running turn (Escape)"
					title="Stop (Escape)"
					onClick={() => {
						post({ type: 'cancelTurn' });
						focusComposer();
					}}
				>
					Stop
				</button>
			) : (
				<button
					data-testid="send"
					class="primary"
					aria-label="Send"
					onClick={send}
					disabled={!canSend || !ready}
				>
					Send
				</button>
			)}
		</div>
	);
}

/** Text the host puts in the box: a rewound turn's prompt (with refused images), mentions of dropped files. */
function useHostFills(
	update: (value: string, at?: number) => void,
	setText: (change: (current: string) => string) => void,
	setCaret: (at: number) => void,
	pending: ReturnType<typeof usePendingImages>,
	input: { current: HTMLTextAreaElement | null },
): void {
	const state = useEverydayState();
	useEffect(() => {
		if (state.fill.serial > 0) {
			update(state.fill.text);
			if (state.fill.images) {
				// A send refused for its images: they come back to fix and send again.
				pending.set(state.fill.images.map(pendingFromHost));
			}
			input.current?.focus();
		}
	}, [state.fill.serial]);
	useEffect(() => {
		if (state.focus > 0) {
			focusComposer();
		}
	}, [state.focus]);
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
}
