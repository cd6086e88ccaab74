import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { PROTOCOL_VERSION, parseHostMessage, parseProtocolRefusal } from '../shared/protocol';
import { ChatList } from './chatList';
import { Composer } from './composer';
import { Header } from './header';
import { McpConsentCards } from './mcpConsent';
import { ProtocolRefusalBanner } from './protocolRefusal';
import { ChatStore } from './store';
import { cacheView, cachedView, post } from './vscodeApi';

const store = new ChatStore();
const cached = cachedView();
if (cached) {
	store.restore(cached);
}

function App() {
	const [, setTick] = useState(0);
	const [refusal, setRefusal] = useState<string>();
	const rerender = useCallback(() => setTick(tick => tick + 1), []);
	useEffect(() => {
		// One repaint per frame however many notifications arrived in it.
		let frame: number | undefined;
		const unsubscribe = store.subscribe(() => {
			frame ??= requestAnimationFrame(() => {
				frame = undefined;
				rerender();
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
			if (result === 'gap') {
				post({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
			} else if (result === 'applied') {
				cacheView(() => ({ ...store.header!, items: store.items, olderCount: store.olderCount }));
			}
		};
		// Escape stops a running turn from anywhere in the chat.
		const onKeyDown = (event: KeyboardEvent) => {
			if (event.key === 'Escape' && store.header?.busy && !event.defaultPrevented) {
				post({ type: 'cancelTurn' });
			}
		};
		window.addEventListener('message', onMessage);
		window.addEventListener('keydown', onKeyDown);
		post({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
		return () => {
			unsubscribe();
			window.removeEventListener('message', onMessage);
			window.removeEventListener('keydown', onKeyDown);
		};
	}, []);
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
				<div class="empty" data-testid="empty-state">
					<p>
						Ask Keel about your workspace. Reads run on their own; anything that changes files asks you
						first.
					</p>
					<p>
						Model: <strong data-testid="empty-model">{header.modelLabel || 'not set'}</strong>
						{header.endpoint ? (
							<>
								{' '}
								at <code data-testid="empty-endpoint">{header.endpoint}</code>
							</>
						) : null}
						. Change it with <em>Keel: Select Model</em> or the <code>keel.model.*</code> settings.
					</p>
					<p>
						<button
							class="secondary"
							data-testid="empty-check-model"
							onClick={() => post({ type: 'checkModel' })}
						>
							Check this model
						</button>{' '}
						runs a few minutes of real tasks and says how well it works with Keel, and with which settings.
					</p>
				</div>
			) : (
				<ChatList store={store} structure={store.structure} version={store.version} />
			)}
			{header?.error && (
				<div class="error-banner" data-testid="error-banner" data-code={header.error.code} role="alert">
					{header.error.message}
				</div>
			)}
			<McpConsentCards />
			<Composer busy={header?.busy ?? false} ready={store.loaded} lastPrompt={lastPrompt} />
		</div>
	);
}

render(<App />, document.getElementById('root')!);
