import { memo } from 'preact/compat';
import { useState } from 'preact/hooks';
import type { ChatItem } from '../shared/views';
import { formatSize } from './imageAttach';
import { MarkdownView, flashCopied } from './markdownView';
import { ToolCard } from './toolCard';
import { TurnControls } from './turnControls';
import { post } from './vscodeApi';

/** One item; memoised, so an update re-renders only the item it changed (items are replaced, never mutated). */
export const ChatItemView = memo(function ChatItemView({ item }: { item: ChatItem }) {
	switch (item.kind) {
		case 'user':
			return (
				<div class="user-turn">
					<div class="message user" data-testid="message-user">
						{item.text}
					</div>
					{item.images?.length ? (
						<div class="message-images">
							{item.images.map(image => (
								<span class="image-chip" data-testid="message-image" data-name={image.name}>
									🖼 {image.name} ({formatSize(image.bytes)})
								</span>
							))}
						</div>
					) : null}
					<TurnControls itemId={item.id} />
				</div>
			);
		case 'assistant':
			if (item.retracted) {
				// A failed attempt's text (retried) or a call written as text (run as a card): folded, so nothing reads twice.
				return (
					<details
						class="message assistant retracted"
						data-testid="message-retracted"
						data-reason={item.retracted}
					>
						<summary>
							{item.retracted === 'retry'
								? 'Partial answer from a failed attempt (retried)'
								: 'Tool call written as text (run below)'}
						</summary>
						<pre>{item.text}</pre>
					</details>
				);
			}
			return (
				<div class="answer">
					<div
						class={`message assistant${item.streaming ? ' streaming' : ''}`}
						data-testid="message-assistant"
						data-streaming={String(item.streaming)}
					>
						<MarkdownView id={item.id} text={item.text} streaming={item.streaming} />
					</div>
					{!item.streaming && (
						<button
							class="link copy-answer"
							data-testid="copy-answer"
							data-label="Copy answer"
							aria-label="Copy answer"
							title="Copy answer"
							onClick={e => {
								post({ type: 'copyText', text: item.text });
								flashCopied(e.currentTarget);
							}}
						/>
					)}
				</div>
			);
		case 'thinking':
			return (
				<details class="thinking" data-testid="thinking" data-streaming={String(item.streaming)}>
					<summary>
						{item.streaming ? 'Thinking…' : `Thought (${item.text.length.toLocaleString()} characters)`}
					</summary>
					<pre>{item.text}</pre>
				</details>
			);
		case 'tool':
			return <ToolCard call={item.call} />;
		case 'notice':
			return (
				<div class={`notice level-${item.level}`} data-testid="notice" data-code={item.code}>
					{item.text}
				</div>
			);
		case 'continue':
			return (
				<div
					class={`continue-prompt state-${item.state}`}
					data-testid="continue-prompt"
					data-state={item.state}
				>
					<span>{item.text}</span>
					{item.state === 'pending' ? (
						<span class="continue-actions">
							<button
								class="primary"
								data-testid="continue-turn"
								onClick={() => post({ type: 'decideContinue', id: item.id, proceed: true })}
							>
								Continue
							</button>
							<button
								class="secondary"
								data-testid="stop-turn"
								onClick={() => post({ type: 'decideContinue', id: item.id, proceed: false })}
							>
								Stop
							</button>
						</span>
					) : (
						<span class="continue-state">{item.state === 'continued' ? 'Continued' : 'Stopped'}</span>
					)}
				</div>
			);
	}
});

/** Expanded groups stay expanded when their row scrolls out of view and back. */
const expandedGroups = new Set<string>();

/** "Read 6 files": identical finished cards folded into one line that expands to the cards. */
export const CardGroup = memo(
	function CardGroup({ groupKey, label, items }: { groupKey: string; label: string; items: ChatItem[] }) {
		const [open, setOpen] = useState(expandedGroups.has(groupKey));
		const toggle = () => {
			open ? expandedGroups.delete(groupKey) : expandedGroups.add(groupKey);
			setOpen(!open);
		};
		return (
			<div class="card-group" data-testid="card-group" data-count={items.length} data-expanded={String(open)}>
				<button class="card-group-toggle" aria-expanded={open} onClick={toggle} data-testid="card-group-toggle">
					<span class="codicon-like" aria-hidden="true">
						{open ? '▾' : '▸'}
					</span>{' '}
					{label}
				</button>
				{open && items.map(item => <ChatItemView key={item.id} item={item} />)}
			</div>
		);
	},
	(a, b) =>
		a.groupKey === b.groupKey &&
		a.label === b.label &&
		a.items.length === b.items.length &&
		a.items.every((item, i) => item === b.items[i]),
);
