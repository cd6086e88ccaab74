import { PendingDecisions } from '../../util/pendingDecisions';
import type { IDisposable } from '../../util/lifecycle';

export interface ApprovalDecision {
	approved: boolean;
	/** The user's reason for a denial, passed on to the model. */
	reason?: string;
	/** "Always allow": also persist the suggested rule. Only meaningful with approved. */
	always?: boolean;
}

export interface ApprovalRequest {
	id: string;
	name: string;
	title: string;
}

/** The approval port as the loop sees it. */
export interface Approver {
	request(call: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

/**
 * Pending approvals keyed by the id the loop created. Fails closed (PendingDecisions): cancel,
 * dispose, an aborted turn or an unknown id all mean "not approved"; each id is decided once.
 */
export class ApprovalGate implements Approver, IDisposable {
	private readonly _pending = new PendingDecisions<ApprovalDecision>(reason => ({ approved: false, reason }));

	request(call: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
		return this._pending.wait(call.id, signal);
	}

	/** Returns false when the id is not pending (forged, replayed, or already decided). */
	decide(id: string, decision: ApprovalDecision): boolean {
		return this._pending.decide(id, normalizeDecision(decision));
	}

	pendingIds(): string[] {
		return this._pending.ids();
	}

	cancelAll(reason = 'cancelled'): void {
		this._pending.cancelAll(reason);
	}

	dispose(): void {
		this._pending.dispose();
	}
}

/** Only a literal `true` approves, and "always" only rides along with an approval. */
function normalizeDecision(decision: ApprovalDecision | undefined): ApprovalDecision {
	const approved = decision?.approved === true;
	return { approved, reason: decision?.reason, ...(approved && decision?.always === true ? { always: true } : {}) };
}

/** Wraps any approver so a thrown error or a malformed answer becomes a denial. */
export async function requestApprovalSafely(
	approver: Approver | undefined,
	call: ApprovalRequest,
	signal: AbortSignal,
): Promise<ApprovalDecision> {
	if (!approver) {
		return { approved: false, reason: `${call.name} needs approval but no approver is configured` };
	}
	try {
		return normalizeDecision(await approver.request(call, signal));
	} catch (error) {
		return { approved: false, reason: `approval failed: ${(error as Error)?.message ?? String(error)}` };
	}
}
