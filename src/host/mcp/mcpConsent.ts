import type * as vscode from 'vscode';
import type { McpLaunchPlan } from '../../core/tools/sources/mcpLaunch';
import { changedSince } from '../../core/tools/sources/mcpPins';
import type { McpConsentPrompts } from './mcpConsentPrompts';

/**
 * Starting a workspace's MCP server runs a program the repository chose, so it needs the
 * user's yes, given on a card that shows the launch plan (mcpLaunch.ts: the resolved program,
 * arguments, folder, environment, envFile, the variables it reads) and kept for that server
 * identity (where it is declared + its name) and that plan's fingerprint only: a changed
 * plan, the same name in another folder, or another card never inherits it. Kept in
 * workspaceState; "Revoke" in Keel: MCP Servers forgets it. The user's own servers
 * (keel.mcp.config, the user mcp.json) need no consent.
 */
export class McpConsent {
	constructor(
		private readonly _state: vscode.Memento,
		private readonly _prompts: Pick<McpConsentPrompts, 'ask'>,
	) {}

	private _key(plan: Pick<McpLaunchPlan, 'identity'>): string {
		return `keel.mcp.allowed:${plan.identity}`;
	}

	isAllowed(plan: McpLaunchPlan): boolean {
		return plan.config.scope === 'user' || this._state.get<string>(this._key(plan)) === plan.fingerprint;
	}

	async revoke(plan: Pick<McpLaunchPlan, 'identity'>): Promise<void> {
		await this._state.update(this._key(plan), undefined);
	}

	/** The yes on the card is for the plan the card showed, and only that one. */
	async ask(plan: McpLaunchPlan, source: string, interactive: boolean): Promise<boolean> {
		const runs = plan.lines[0] ?? '';
		const answer = await this._prompts.ask(
			{
				key: `${plan.identity}#${plan.fingerprint}`,
				server: plan.config.name,
				source,
				runs,
				details: plan.lines.slice(1),
			},
			interactive,
		);
		if (answer) {
			await this._state.update(this._key(plan), plan.fingerprint);
		}
		return answer;
	}

	private _pinKey(plan: McpLaunchPlan): string {
		return `keel.mcp.pinnedTools:${plan.identity}#${plan.fingerprint}`;
	}

	/** Tools new or changed since the pin; the first list seen is pinned as it is. */
	async changedTools(plan: McpLaunchPlan, hashes: Record<string, string>): Promise<string[]> {
		const pinned = this._state.get<Record<string, string>>(this._pinKey(plan));
		if (!pinned) {
			await this._state.update(this._pinKey(plan), hashes);
			return [];
		}
		return changedSince(pinned, hashes);
	}

	async pinTools(plan: McpLaunchPlan, hashes: Record<string, string>): Promise<void> {
		await this._state.update(this._pinKey(plan), hashes);
	}

	/** A changed definition is approved on a card in the chat, like the start itself. */
	askChangedTools(
		plan: McpLaunchPlan,
		source: string,
		changed: string[],
		hashes: Record<string, string>,
	): Promise<boolean> {
		return this._prompts.ask(
			{
				key: `${plan.identity}#tools#${changed.map(name => `${name}=${hashes[name]}`).join(',')}`,
				server: plan.config.name,
				source,
				runs: `changed its tools since you allowed it: ${changed.join(', ')}`,
				details: ['A changed description or schema can carry instructions to the model. Offer them?'],
				kind: 'tools',
			},
			true,
		);
	}
}
