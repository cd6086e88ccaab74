/**
 * A tool that keeps failing in a session is taken away from the model: the last
 * `windowSize` outcomes of each tool are kept, and past `failureThreshold` (share of
 * failures, at least `minCalls` calls) the tool is blocked until the user unblocks it.
 * User decisions (denials, Stop) are not failures of the tool.
 */
export interface AnomalySettings {
	enabled: boolean;
	windowSize: number;
	failureThreshold: number;
	/** Fewer calls than this never block: one failure of one call is not a pattern. */
	minCalls: number;
}

export const defaultAnomalySettings: AnomalySettings = {
	enabled: true,
	windowSize: 20,
	failureThreshold: 0.7,
	minCalls: 5,
};

export class AnomalyGuard {
	private readonly _windows = new Map<string, boolean[]>();
	private readonly _blocked = new Map<string, number>();

	/** Returns the failure rate when this outcome blocks the tool, otherwise undefined. */
	record(tool: string, failed: boolean, settings: AnomalySettings): number | undefined {
		if (!settings.enabled || this._blocked.has(tool)) {
			return undefined;
		}
		const window = this._windows.get(tool) ?? [];
		window.push(failed);
		while (window.length > Math.max(1, settings.windowSize)) {
			window.shift();
		}
		this._windows.set(tool, window);
		const rate = window.filter(Boolean).length / window.length;
		if (window.length >= settings.minCalls && rate >= settings.failureThreshold) {
			this._blocked.set(tool, rate);
			return rate;
		}
		return undefined;
	}

	isBlocked(tool: string): boolean {
		return this._blocked.has(tool);
	}

	blocked(): string[] {
		return [...this._blocked.keys()];
	}

	/** Unblocks one tool (or all) and forgets its history, so it starts with a clean window. */
	unblock(tool?: string): string[] {
		const names = tool ? [tool].filter(t => this._blocked.has(t)) : this.blocked();
		for (const name of names) {
			this._blocked.delete(name);
			this._windows.delete(name);
		}
		return names;
	}
}
