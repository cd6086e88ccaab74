// The MCP surfaces the security tier attacks, named once: how a server's start is planned
// (what the card shows, what consent is kept for), how tool lists are pinned, how tools are
// named, how consent cards are asked. The attacks in mcp.test.ts only use these.
import { WebviewChannel } from '../../../src/host/view/webviewChannel';
import { McpConsentPrompts } from '../../../src/host/mcp/mcpConsentPrompts';
import type { McpServerConfig } from '../../../src/core/tools/sources/mcpConfig';
import { planLaunch, withInputs, type LaunchContext } from '../../../src/core/tools/sources/mcpLaunch';
import { changedSince, duplicateNames, pinHashes } from '../../../src/core/tools/sources/mcpPins';
import { mcpToolName } from '../../../src/core/tools/sources/mcpTools';

export interface PlannedStart {
	/** Consent is kept for this key; a start whose key differs asks again. */
	consentKey: string;
	card: string;
	config: McpServerConfig;
	env: Record<string, string>;
}

export async function planStart(server: McpServerConfig, context: LaunchContext): Promise<PlannedStart> {
	const plan = await planLaunch(server, context);
	const started = await withInputs(plan, async id => `answer-${id}`);
	return {
		consentKey: `${plan.identity}#${plan.fingerprint}`,
		card: plan.lines.join('\n'),
		config: started.config,
		env: started.env,
	};
}

export function toolsChanged(before: Array<{ name: string }>, after: Array<{ name: string }>): string[] {
	return [...new Set([...changedSince(pinHashes(before), pinHashes(after)), ...duplicateNames(after)])];
}

export function toolName(server: string, tool: string, identity: string, unique: boolean): string {
	return mcpToolName(server, tool, identity, unique);
}

/** Asks two cards, answers the first with Allow; resolves what the second one got (or 'pending'). */
export async function secondCardAnswer(
	first: { identity: string; consentKey: string; server: string; card: string },
	second: { identity: string; consentKey: string; server: string; card: string },
): Promise<boolean | 'pending'> {
	const prompts = new McpConsentPrompts(new WebviewChannel());
	const ask = (c: typeof first) =>
		prompts.ask({ key: c.consentKey, server: c.server, source: '.vscode/mcp.json', runs: c.card }, false);
	const a = ask(first);
	const b = ask(second);
	prompts.decide(prompts.cards[0].id, true);
	await a;
	return Promise.race([b, new Promise<'pending'>(resolve => setTimeout(() => resolve('pending'), 50))]);
}
