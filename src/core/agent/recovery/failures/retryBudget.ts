import type { RecoverySettings } from '../recoverySettings';

/** One budget per user turn, shared by transport retries, stream retries and reflections. */
export class RetryBudget {
	private _used = 0;

	constructor(readonly max: number) {}

	get used(): number {
		return this._used;
	}

	take(): boolean {
		if (this._used >= this.max) {
			return false;
		}
		this._used++;
		return true;
	}

	/** "2/6": shown on every retry line so the user sees how much patience is left. */
	get label(): string {
		return `${this._used}/${this.max}`;
	}
}

/**
 * Exponential backoff with ±20 % jitter; a server's Retry-After wins but never beyond our cap,
 * so a "retry in 1 hour" cannot hold the turn.
 */
export function retryDelayMs(
	attempt: number,
	settings: Pick<RecoverySettings, 'backoffBaseMs' | 'backoffMaxMs' | 'retryAfterCapMs'>,
	retryAfterMs: number | undefined,
	random: () => number,
): number {
	if (retryAfterMs !== undefined) {
		return Math.min(retryAfterMs, settings.retryAfterCapMs);
	}
	const exponential = Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
	return Math.round(exponential * (0.8 + 0.4 * random()));
}
