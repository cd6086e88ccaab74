import type { McpServerConfig } from '../../core/tools/sources/mcpConfig';
import type { McpConsentView } from '../../shared/protocol';
import type { IDisposable } from '../../core/util/lifecycle';
import type { WebviewChannel } from '../chat/webviewChannel';

/**
 * The in-chat cards asking to start a workspace's MCP server. An ask waits until the user
 * answers on its card (the chat may be opened later: the card is there then); asking again
 * for a server whose card is still open returns the same answer. Nothing here remembers a
 * yes: McpConsent does, keyed by the server's fingerprint.
 */
export class McpConsentPrompts implements IDisposable {
	private readonly _cards: McpConsentView[] = [];
	private readonly _waiting = new Map<
		string,
		{ server: string; answer: Promise<boolean>; resolve: (allow: boolean) => void }
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

	ask(server: McpServerConfig, source: string, interactive: boolean): Promise<boolean> {
		const open = [...this._waiting.values()].find(w => w.server === server.name);
		if (open) {
			return open.answer;
		}
		const id = `mcp-consent-${++this._serial}`;
		// The executor runs at once, so `resolve` is the promise's own before anything can answer.
		let resolve: (allow: boolean) => void = () => undefined;
		const answer = new Promise<boolean>(settle => (resolve = settle));
		this._waiting.set(id, { server: server.name, answer, resolve });
		this._cards.push({ id, server: server.name, source, runs: describeRun(server), state: 'pending' });
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

/** What starting the server does, as the user would type it. */
export function describeRun(server: McpServerConfig): string {
	if (server.type !== 'stdio') {
		return `connect to ${server.url}`;
	}
	const quote = (part: string) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`);
	return [server.command ?? '', ...(server.args ?? [])].map(quote).join(' ');
}
