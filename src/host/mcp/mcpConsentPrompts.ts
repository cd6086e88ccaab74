import type { McpConsentView } from '../../shared/protocol';
import type { IDisposable } from '../../core/util/lifecycle';
import type { WebviewChannel } from '../chat/webviewChannel';

/** What a card asks: `key` names exactly what a yes is for (a server's plan, a set of changed tools). */
export interface ConsentRequest {
	key: string;
	server: string;
	source: string;
	runs: string;
	details?: string[];
	kind?: 'start' | 'tools';
}

/**
 * The in-chat cards asking to start a workspace's MCP server, or to offer tools it changed.
 * An ask waits until the user answers on its card (the chat may be opened later: the card is
 * there then); asking again for the very same thing (same key) while its card is open
 * returns that card's answer, anything else gets a card of its own. Nothing here remembers
 * a yes: McpConsent does.
 */
export class McpConsentPrompts implements IDisposable {
	private readonly _cards: McpConsentView[] = [];
	private readonly _waiting = new Map<
		string,
		{ key: string; answer: Promise<boolean>; resolve: (allow: boolean) => void }
	>();
	private _serial = 0;
	private readonly _listener: IDisposable;

	/**
	 * The cards are sent with each snapshot (a new webview, a new chat) and on every change;
	 * `onShow` brings the chat forward when the user asked for the start themselves.
	 */
	constructor(
		private readonly _channel: WebviewChannel,
		private readonly _onShow: () => void = () => undefined,
	) {
		this._listener = _channel.onDidReset(() => {
			this._dropAnswered();
			this._send();
		});
	}

	dispose(): void {
		this._listener.dispose();
	}

	get cards(): readonly McpConsentView[] {
		return this._cards;
	}

	ask(request: ConsentRequest, interactive: boolean): Promise<boolean> {
		const open = [...this._waiting.values()].find(w => w.key === request.key);
		if (open) {
			return open.answer;
		}
		const id = `mcp-consent-${++this._serial}`;
		// The executor runs at once, so `resolve` is the promise's own before anything can answer.
		let resolve: (allow: boolean) => void = () => undefined;
		const answer = new Promise<boolean>(settle => (resolve = settle));
		this._waiting.set(id, { key: request.key, answer, resolve });
		this._cards.push({
			id,
			server: request.server,
			source: request.source,
			runs: request.runs,
			...(request.details?.length ? { details: request.details } : {}),
			...(request.kind === 'tools' ? { kind: 'tools' as const } : {}),
			state: 'pending',
		});
		this._send();
		if (interactive) {
			this._onShow();
		}
		return answer;
	}

	/** The user's click; an unknown or already answered id is ignored. */
	decide(id: string, allow: boolean): void {
		const waiting = this._waiting.get(id);
		const card = this._cards.find(c => c.id === id);
		if (!waiting || !card) {
			return;
		}
		this._waiting.delete(id);
		card.state = allow ? 'allowed' : 'denied';
		this._send();
		waiting.resolve(allow);
	}

	/** An answered card shows its answer (Allowed / Denied) until the chat resets. */
	private _dropAnswered(): void {
		for (let i = this._cards.length - 1; i >= 0; i--) {
			if (this._cards[i].state !== 'pending') {
				this._cards.splice(i, 1);
			}
		}
	}

	private _send(): void {
		this._channel.push({ type: 'didSetMcpConsents', consents: this._cards.map(c => ({ ...c })) });
		this._channel.flush();
	}
}
