import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { PROTOCOL_VERSION, parseHostMessage, parseProtocolRefusal } from '../shared/protocol';
import type { ErrorView } from '../shared/views';
import { ActionButtons } from './content/actionButtons';
import { ChatList } from './chatList/chatList';
import { Composer } from './composer/composer';
import { EmptyState } from './chatList/emptyState';
import { Header } from './chatList/header';
import { KeelText } from './content/keelText';
import { McpConsentCards } from './cards/mcpConsent';
import { ProtocolRefusalBanner } from './chatList/protocolRefusal';
import { WaitingLine } from './chatList/waitingLine';
import { ChatStore } from './state/store';
import { cacheView, cachedView, post } from './state/vscodeApi';

const store = new ChatStore();
const cached = cachedView();
if (cached) {
	store.restore(cached);
}

function App() {
	const refusal = useHostMessages();
	const lastPrompt = useCallback(() => {
		for (let i = store.items.length - 1; i >= 0; i--) {
			const item = store.items[i];
			if (item.kind === 'user') {
				return item.text;
			}
		}
		return undefined;
	}, []);

	if (refusal) {
		return (
			<div class="app">
				<ProtocolRefusalBanner message={refusal} />
			</div>
		);
	}
	const header = store.header;
	const empty = header && store.items.length === 0 && store.olderCount === 0;
	return (
		<div class="app">
			<Header modelLabel={header?.modelLabel ?? ''} usage={header?.usage} ready={store.loaded} />
			{empty ? (
				<EmptyState header={header} />
			) : (
				<ChatList store={store} structure={store.structure} version={store.version} />
			)}
			{header?.busy && header.waiting && store.waitingSince !== undefined && (
				<WaitingLine waiting={header.waiting} since={store.waitingSince} />
			)}
			{header?.error && <ErrorBanner error={header.error} />}
			<McpConsentCards />
			<Composer busy={header?.busy ?? false} ready={store.loaded} lastPrompt={lastPrompt} />
		</div>
	);
}

/** The last turn failed: why, in Keel's words, with the way out (Retry, Select Model …). */
function ErrorBanner({ error }: { error: ErrorView }) {
	return (
		<div class="error-banner" data-testid="error-banner" data-code={error.code} role="alert">
			<KeelText text={error.message} />
			<ActionButtons actions={error.actions} />
		</div>
	);
}

/**
 * Applies the host's messages to the store and repaints once per frame; asks for a snapshot on
 * a gap; Escape stops a running turn from anywhere in the chat. Returns the protocol refusal, if any.
 */
function useHostMessages(): string | undefined {
	const [, setTick] = useState(0);
	const [refusal, setRefusal] = useState<string>();
	useEffect(() => {
		let frame: number | undefined;
		const unsubscribe = store.subscribe(() => {
			frame ??= requestAnimationFrame(() => {
				frame = undefined;
				setTick(tick => tick + 1);
			});
		});
		const onMessage = (event: MessageEvent) => {
			const refused = parseProtocolRefusal(event.data);
			if (refused) {
				setRefusal(refused.message);
				return;
			}
			const message = parseHostMessage(event.data);
			if (!message) {
				return; // Version skew or garbage: drop it, as the host does.
			}
			const result = store.apply(message);
			if (message.type === 'didSnapshot') {
				// Where the time to a reopened chat goes, for npm run bench (a mark costs nothing).
				performance.mark('keel-snapshot');
				// The repaint is queued for this frame; once it is on screen the host may read the rest.
				requestAnimationFrame(() => setTimeout(() => post({ type: 'drawn' })));
			}
			if (result === 'gap') {
				post({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
			} else if (result === 'applied') {
				cacheView(() => ({ ...store.header!, items: store.items, olderCount: store.olderCount }));
			}
		};
		const onKeyDown = (event: KeyboardEvent) => {
			if (event.key === 'Escape' && store.header?.busy && !event.defaultPrevented) {
				post({ type: 'cancelTurn' });
			}
		};
		window.addEventListener('message', onMessage);
		window.addEventListener('keydown', onKeyDown);
		performance.mark('keel-ready');
		post({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
		return () => {
			unsubscribe();
			window.removeEventListener('message', onMessage);
			window.removeEventListener('keydown', onKeyDown);
		};
	}, []);
	return refusal;
}

render(<App />, document.getElementById('root')!);
