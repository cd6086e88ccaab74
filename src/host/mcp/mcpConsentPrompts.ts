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
		// Answered, the card leaves the composer's area; the answer stays in the conversation.
		this._cards.splice(this._cards.indexOf(card), 1);
		this._send();
		this._say(
			allow
				? `Allowed the MCP server ${card.server} to start (${card.runs}).`
				: `Denied the MCP server ${card.server}: it does not start. "Keel: MCP Servers" → Start asks again.`,
		);
		waiting.resolve(allow);
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
