import type { McpConsentView } from '../../shared/protocol';
import type { IDisposable } from '../../core/util/lifecycle';
import type { WebviewChannel } from '../view/webviewChannel';

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
		/** The answer as a line in the conversation, where it stays once the card has gone. */
		private readonly _say: (text: string) => void = () => undefined,
	) {
		this._listener = _channel.onDidReset(() => this._send());
	}

	/** Brings the chat, and with it the waiting cards, into view. */
	reveal(): void {
		this._onShow();
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
		// Answered, the card leaves the composer's area; the answer stays in the conversation.
		this._cards.splice(this._cards.indexOf(card), 1);
		this._send();
		this._say(answerLine(card, allow));
		waiting.resolve(allow);
	}

	private _send(): void {
		this._channel.push({ type: 'didSetMcpConsents', consents: this._cards.map(c => ({ ...c })) });
		this._channel.flush();
	}
}

/** What the conversation keeps of an answered card. */
function answerLine(card: McpConsentView, allow: boolean): string {
	if (card.kind === 'tools') {
		return allow
			? `Allowed the new or changed tools of the MCP server ${card.server}.`
			: `Kept the new or changed tools of the MCP server ${card.server} off; the rest of its tools stay on.`;
	}
	return allow
		? `Allowed the MCP server ${card.server} to start (${card.runs}).`
		: `Denied the MCP server ${card.server}: it does not start. "Keel: MCP Servers" → Start asks again.`;
}
