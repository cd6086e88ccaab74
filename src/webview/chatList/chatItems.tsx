import { memo } from 'preact/compat';
import { useState } from 'preact/hooks';
import type { ChatItem } from '../../shared/views';
import { ActionButtons } from '../content/actionButtons';
import { focusComposer } from '../composer/composerFocus';
import { formatSize } from '../composer/imageAttach';
import { KeelText } from '../content/keelText';
import { MarkdownView, flashCopied } from '../content/markdownView';
import { ToolCard } from '../cards/toolCard';
import { TurnControls } from './turnControls';
import { post } from '../state/vscodeApi';

type Item<K extends ChatItem['kind']> = Extract<ChatItem, { kind: K }>;

/** One item; memoised, so an update re-renders only the item it changed (items are replaced, never mutated). */
export const ChatItemView = memo(function ChatItemView({ item }: { item: ChatItem }) {
	switch (item.kind) {
		case 'user':
			return <UserMessage item={item} />;
		case 'assistant':
			return item.retracted ? <RetractedAnswer item={item} /> : <Answer item={item} />;
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
					<KeelText text={item.text} />
					<ActionButtons actions={item.actions} />
				</div>
			);
		case 'continue':
			return <ContinuePrompt item={item} />;
	}
});

/** What the user typed, with a chip per image and per file, selection or output Keel attached to it. */
function UserMessage({ item }: { item: Item<'user'> }) {
	const chips = [
		...(item.attachments ?? []).map(a => ({
			key: `a:${a.label}`,
			name: a.label,
			text: `${a.label} · ${a.detail}`,
			kind: a.kind,
		})),
		...(item.images ?? []).map(i => ({
			key: `i:${i.name}`,
			name: i.name,
			text: `🖼 ${i.name} (${formatSize(i.bytes)})`,
			kind: 'image',
		})),
	];
	return (
		<div class="user-turn">
			<div class="message user" data-testid="message-user">
				{item.text}
			</div>
			{chips.length ? (
				<div class="message-images">
					{chips.map(chip => (
						<span
							key={chip.key}
							class="image-chip"
							data-testid={chip.kind === 'image' ? 'message-image' : 'message-attachment'}
							data-kind={chip.kind}
							data-name={chip.name}
						>
							{chip.text}
						</span>
					))}
				</div>
			) : null}
			<TurnControls itemId={item.id} />
		</div>
	);
}

/** A failed attempt's text (retried) or a call written as text (run as a card): folded, so nothing reads twice. */
function RetractedAnswer({ item }: { item: Item<'assistant'> }) {
	return (
		<details class="message assistant retracted" data-testid="message-retracted" data-reason={item.retracted}>
			<summary>
				{item.retracted === 'retry'
					? 'Partial answer from a failed attempt (retried)'
					: 'Tool call written as text (run below)'}
			</summary>
			<pre>{item.text}</pre>
		</details>
	);
}

function Answer({ item }: { item: Item<'assistant'> }) {
	return (
		<div class="answer">
			<div
				class={`message assistant${item.streaming ? ' streaming' : ''}`}
				data-testid="message-assistant"
				data-streaming={String(item.streaming)}
				data-stopped={item.stopped ? 'true' : undefined}
			>
				<MarkdownView id={item.id} text={item.text} streaming={item.streaming} />
			</div>
			{item.stopped && (
				<div class="answer-stopped" data-testid="answer-stopped">
					Stopped: this answer may be incomplete.
				</div>
			)}
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
}

/** The step cap or a loop asks whether the turn goes on; after the answer, the keyboard is back in the composer. */
function ContinuePrompt({ item }: { item: Item<'continue'> }) {
	const decide = (proceed: boolean) => {
		post({ type: 'decideContinue', id: item.id, proceed });
		focusComposer();
	};
	return (
		<div class={`continue-prompt state-${item.state}`} data-testid="continue-prompt" data-state={item.state}>
			<span>
				<KeelText text={item.text} />
			</span>
			{item.state === 'pending' ? (
				<span class="continue-actions">
					<button class="primary" data-testid="continue-turn" onClick={() => decide(true)}>
						Continue
					</button>
					<button class="secondary" data-testid="stop-turn" onClick={() => decide(false)}>
						Stop
					</button>
				</span>
			) : (
				<span class="continue-state">{item.state === 'continued' ? 'Continued' : 'Stopped'}</span>
			)}
		</div>
	);
}

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
					<KeelText text={label} />
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
