import { useEffect } from 'preact/hooks';
import { useEverydayState } from '../state/useEverydayState';
import { completeMentions } from './composerText';
import { post } from '../state/vscodeApi';

const requested = new Set<string>();

/**
 * One chip per mention in the box, with what it costs in tokens (the host resolves it as
 * sending will, so a denied file shows why instead of a cost). The content goes with the
 * prompt when it is sent; × takes the mention out of the text.
 */
export function MentionChips({ text, onRemove }: { text: string; onRemove(token: string): void }) {
	const { mentionCosts } = useEverydayState();
	const mentions = completeMentions(text);
	useEffect(() => {
		for (const { value } of mentions) {
			if (!requested.has(value)) {
				requested.add(value);
				post({ type: 'measureMention', value });
			}
		}
	}, [mentions.map(m => m.value).join('\n')]);
	if (mentions.length === 0) {
		return null;
	}
	return (
		<div class="mention-chips" aria-label="Attached context">
			{mentions.map(({ token, value }) => {
				const cost = mentionCosts.get(value);
				return (
					<span
						key={value}
						class={`mention-chip${cost?.error ? ' refused' : ''}`}
						data-testid="mention-chip"
						data-value={value}
						data-tokens={cost?.tokens}
						title={cost?.error ?? `${cost?.label ?? value}: attached when you send`}
					>
						<span class="mention-label">@{value}</span>
						<span class="mention-cost" data-testid="mention-cost">
							{cost ? (cost.error ? 'not attached' : `${cost.tokens.toLocaleString()} tokens`) : '…'}
						</span>
						<button
							class="link mention-remove"
							aria-label={`Remove @${value}`}
							onClick={() => onRemove(token)}
						>
							×
						</button>
					</span>
				);
			})}
		</div>
	);
}
