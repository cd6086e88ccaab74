import type { McpConsentView } from '../../shared/protocol';

/**
 * Cards asking to start a workspace's MCP server, above the composer: starting one runs a
 * program the repository chose, so the user sees the command line and answers here. Kept
 * apart from the item store: they are not part of the conversation.
 */
class McpConsentState {
	consents: McpConsentView[] = [];
	private readonly _listeners = new Set<() => void>();

	set(consents: McpConsentView[]): void {
		this.consents = consents;
		this._listeners.forEach(listener => listener());
	}

	subscribe(listener: () => void): () => void {
		this._listeners.add(listener);
		return () => this._listeners.delete(listener);
	}
}

export const mcpConsentState = new McpConsentState();
