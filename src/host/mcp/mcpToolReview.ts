import type { McpLaunchPlan } from '../../core/tools/sources/mcpLaunch';
import { duplicateNames, pinHashes } from '../../core/tools/sources/mcpPins';
import type { McpConsent } from './mcpConsent';
import { consentSource, type McpServerEntry } from './mcpServers';

export interface ReviewedServer {
	entry: McpServerEntry;
	plan?: McpLaunchPlan;
	/** Tools not offered: new or changed since the pin, or listed twice. */
	heldBack?: Set<string>;
	error?: string;
}

/**
 * A server's tool list against its pins (rug pulls): new or changed definitions stay off
 * until the user approves them on a card in the chat; a name listed twice is never offered
 * (which definition would the model get?). The approval pins exactly the list the card was
 * about, and only while the server still runs from the same plan.
 */
export async function reviewTools(
	server: ReviewedServer,
	tools: ReadonlyArray<{ name: string }>,
	consent: McpConsent,
	hooks: { current(): boolean; sync(): void; changed(): void; warn(line: string): void },
): Promise<void> {
	const plan = server.plan;
	if (!plan) {
		return;
	}
	const hashes = pinHashes(tools);
	const changed = await consent.changedTools(plan, hashes);
	server.heldBack = new Set([...changed, ...duplicateNames(tools)]);
	hooks.sync();
	if (changed.length === 0) {
		return;
	}
	hooks.warn(`MCP ${server.entry.config.name}: tools new or changed since allowed, held back: ${changed.join(', ')}`);
	server.error = `Tools new or changed since you allowed this server are held back: ${changed.join(', ')}`;
	hooks.changed();
	if (await consent.askChangedTools(plan, consentSource(server.entry), changed, hashes)) {
		if (!hooks.current() || server.plan !== plan) {
			return;
		}
		await consent.pinTools(plan, hashes);
		server.heldBack = new Set(duplicateNames(tools));
		server.error = undefined;
		hooks.sync();
		hooks.changed();
	}
}
