import * as assert from 'assert';
import { mcpConsentState } from '../../../../src/webview/state/mcpConsentState';
import { ChatStore } from '../../../../src/webview/state/store';

describe('webview: MCP consent cards', () => {
	it("didSetMcpConsents replaces the cards and tells the listeners, beside the conversation's items", () => {
		const store = new ChatStore();
		store.apply({
			type: 'didSnapshot',
			version: 1,
			state: { sessionId: 's', busy: false, items: [], olderCount: 0, modelLabel: 'm' },
		});
		let told = 0;
		const unsubscribe = mcpConsentState.subscribe(() => told++);
		const card = {
			id: 'mcp-consent-1',
			server: 'shop',
			source: '.vscode/mcp.json',
			runs: 'node server.js',
			state: 'pending' as const,
		};
		assert.strictEqual(store.apply({ type: 'didSetMcpConsents', version: 2, consents: [card] }), 'applied');
		assert.deepStrictEqual(mcpConsentState.consents, [card]);
		assert.deepStrictEqual(store.items, [], 'a consent card is not a chat item');
		store.apply({ type: 'didSetMcpConsents', version: 3, consents: [] });
		assert.deepStrictEqual(mcpConsentState.consents, []);
		assert.strictEqual(told, 2);
		unsubscribe();
	});
});
