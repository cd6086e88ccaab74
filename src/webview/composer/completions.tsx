import { useEffect, useRef, useState } from 'preact/hooks';
import type { CompletionView } from '../../shared/protocol';
import { useEverydayState } from '../state/useEverydayState';
import { post } from '../state/vscodeApi';
import type { CompletionTrigger } from './composerText';

export { completionTrigger } from './composerText';

let nextRequest = 0;

/** Asks the host for the trigger's candidates; a reply to an older request is ignored. */
export function useCompletions(trigger: CompletionTrigger | undefined) {
	const state = useEverydayState();
	const request = useRef(-1);
	const [selected, setSelected] = useState(0);
	const [dismissed, setDismissed] = useState(false);
	const key = trigger ? `${trigger.kind}:${trigger.start}:${trigger.query}` : '';
	useEffect(() => {
		setSelected(0);
		setDismissed(false);
		if (trigger) {
			request.current = ++nextRequest;
			post({ type: 'complete', requestId: request.current, kind: trigger.kind, query: trigger.query });
		} else {
			request.current = -1;
		}
	}, [key]);
	const items = trigger && state.completions.requestId === request.current ? state.completions.items : [];
	return {
		open: !!trigger && !dismissed && items.length > 0,
		items,
		selected: Math.min(selected, Math.max(0, items.length - 1)),
		move: (delta: number) => setSelected(index => (index + delta + items.length) % items.length),
		close: () => setDismissed(true),
	};
}

export function CompletionList({
	items,
	selected,
	kind,
	onPick,
}: {
	items: CompletionView[];
	selected: number;
	kind: 'slash' | 'mention';
	onPick(index: number): void;
}) {
	const list = useRef<HTMLUListElement>(null);
	useEffect(() => {
		list.current?.children[selected]?.scrollIntoView({ block: 'nearest' });
	}, [selected]);
	return (
		<ul
			id="keel-completions"
			class="completions"
			role="listbox"
			ref={list}
			data-testid={kind === 'slash' ? 'slash-completions' : 'mention-picker'}
			aria-label={kind === 'slash' ? 'Commands' : 'Add context'}
		>
			{items.map((item, index) => (
				<li
					key={`${item.kind}:${item.value}`}
					id={`keel-completion-${index}`}
					role="option"
					aria-selected={index === selected}
					class={index === selected ? 'selected' : ''}
					data-testid="completion-item"
					data-value={item.value}
					// mousedown, not click: the box keeps focus and the caret.
					onMouseDown={e => {
						e.preventDefault();
						onPick(index);
					}}
				>
					<span class="completion-label">{item.label}</span>
					{item.description && <span class="completion-description">{item.description}</span>}
					{kind === 'mention' && item.kind && <span class="completion-kind">{item.kind}</span>}
				</li>
			))}
		</ul>
	);
}
