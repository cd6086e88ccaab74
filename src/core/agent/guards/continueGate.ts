import { PendingDecisions } from '../../util/pendingDecisions';
import type { IDisposable } from '../../util/lifecycle';

export interface ContinueRequest {
	id: string;
	text: string;
}

/** The step-cap decision port: "Continue" runs another batch of steps, anything else stops. */
export interface ContinueDecider {
	request(request: ContinueRequest, signal: AbortSignal): Promise<boolean>;
}

/**
 * Pending "Continue / Stop" questions keyed by id. Fails closed like the approval gate
 * (PendingDecisions): cancel, dispose, an aborted turn or an unknown id all mean Stop.
 */
export class ContinueGate implements ContinueDecider, IDisposable {
	private readonly _pending = new PendingDecisions<boolean>(() => false);

	request(request: ContinueRequest, signal: AbortSignal): Promise<boolean> {
		return this._pending.wait(request.id, signal);
	}

	decide(id: string, proceed: boolean): boolean {
		return this._pending.decide(id, proceed === true);
	}

	pendingIds(): string[] {
		return this._pending.ids();
	}

	cancelAll(): void {
		this._pending.cancelAll();
	}

	dispose(): void {
		this._pending.dispose();
	}
}

export async function askToContinue(
	decider: ContinueDecider | undefined,
	request: ContinueRequest,
	signal: AbortSignal,
): Promise<boolean> {
	if (!decider) {
		return false;
	}
	try {
		return (await decider.request(request, signal)) === true;
	} catch {
		return false;
	}
}
