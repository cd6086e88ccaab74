import type { PermissionVerdict } from '../../gate/rules/permissions';
import type { Workspace } from '../../ports';
import type { Preparation, ToolDefinition } from '../defineTool';
import type { ToolRegistry } from '../registry';

/** Keel's own tools lent to other agents carry this prefix (package.json languageModelTools). */
export const KEEL_LM_PREFIX = 'keel_';

/** A confirmation VS Code showed stays good this long for the call it was shown for. */
const CONFIRMATION_MS = 10 * 60_000;

/**
 * The loop's side of a lent call, passed in by the composition root (agent/approval/lentCalls.ts),
 * so the tools need nothing from the loop: Keel's verdict on a call (its permission rules and
 * approval settings), and a run through the same pipeline as a call in Keel's chat.
 */
export interface LentCallPipeline {
	verdict(tool: ToolDefinition, input: unknown, prepared: Preparation | undefined): PermissionVerdict;
	/** Runs the call; `approval` answers it when Keel's rules ask. Returns what the calling model reads. */
	run(
		call: { id: string; name: string; rawArguments: string },
		approval: { approved: boolean; reason?: string },
		signal: AbortSignal,
	): Promise<string>;
}

/**
 * Keel's read tools lent to other agents (VS Code's Language Model Tools). A lent call is a
 * call like any in Keel's chat: the registry's validation, the path policy and deny-read, the
 * user's permission rules, approval, redaction and output shaping (runToolCall). Approval is
 * VS Code's confirmation: when Keel's verdict is "ask", `prepare` gives VS Code the message to
 * confirm, and only a call confirmed that way runs; VS Code always calls `prepare` before it
 * asks and before `invoke`. A refusal is a result that says why, as in Keel's own loop.
 */
export class LentTools {
	private readonly _confirmed = new Map<string, number>();

	constructor(
		private readonly _registry: ToolRegistry,
		private readonly _workspace: Workspace,
		private readonly _pipeline: LentCallPipeline,
		private readonly _now: () => number = Date.now,
	) {}

	/** Before VS Code runs a call: the card title, and the confirmation to show when Keel's rules ask. */
	async prepare(
		lmName: string,
		input: unknown,
	): Promise<{ title: string; confirm?: { title: string; message: string } }> {
		const name = lentName(lmName);
		const parsed = this._registry.parse(name, JSON.stringify(input ?? {}));
		const title = this._registry.titleFor(name, JSON.stringify(input ?? {})) ?? `Keel: ${name}`;
		if (!parsed.ok || parsed.tool.effect !== 'read') {
			return { title };
		}
		let prepared: Preparation | undefined;
		try {
			prepared = await parsed.tool.prepare?.(parsed.input, {
				workspace: this._workspace,
				signal: new AbortController().signal,
				progress: () => undefined,
			});
		} catch {
			return { title }; // refused: invoke says why
		}
		const verdict = this._pipeline.verdict(parsed.tool, parsed.input, prepared);
		if (verdict.verdict !== 'ask') {
			return { title };
		}
		this._expire();
		this._confirmed.set(callKey(name, input), this._now() + CONFIRMATION_MS);
		return {
			title,
			confirm: {
				title: `Keel: ${prepared?.title ?? title}`,
				message: `Keel asks before this call: ${verdict.reason}.`,
			},
		};
	}

	/** Runs a lent call through the same pipeline as a call in Keel's chat; returns what the calling model reads. */
	async invoke(lmName: string, input: unknown, signal: AbortSignal): Promise<string> {
		const name = lentName(lmName);
		const tool = this._registry.get(name);
		if (!tool || tool.effect !== 'read') {
			return `${name} is not one of the read-only tools Keel lends.`;
		}
		const key = callKey(name, input);
		const confirmed = (this._confirmed.get(key) ?? 0) > this._now();
		this._confirmed.delete(key);
		return this._pipeline.run(
			{ id: `lent_${this._now().toString(36)}`, name, rawArguments: JSON.stringify(input ?? {}) },
			confirmed
				? { approved: true }
				: { approved: false, reason: "Keel's rules ask before this call and no confirmation was shown for it" },
			signal,
		);
	}

	private _expire(): void {
		const now = this._now();
		for (const [key, until] of this._confirmed) {
			if (until <= now) this._confirmed.delete(key);
		}
	}
}

function lentName(lmName: string): string {
	return lmName.startsWith(KEEL_LM_PREFIX) ? lmName.slice(KEEL_LM_PREFIX.length) : lmName;
}

function callKey(name: string, input: unknown): string {
	return `${name}\u0000${JSON.stringify(input ?? {})}`;
}
