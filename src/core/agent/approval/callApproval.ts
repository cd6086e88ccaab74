import type { ToolResultData } from '../../llm/canonical';
import type { Preparation, ToolDefinition } from '../../tools/defineTool';
import type { NoticeLevel } from '../events';
import type { ToolCard } from '../loop/toolCard';
import type { NoticeCode } from '../noticeCodes';
import { requestApprovalSafely, type Approver } from './approvalGate';
import { decidePermission, type ApprovalSettings } from './approvalPolicy';
import { describeRule } from '../../gate/rules/permissions';

/** One parsed call waiting for its permission: what will run, on what, and whom to ask. */
export interface CallToApprove {
	id: string;
	tool: ToolDefinition;
	input: unknown;
	/** What `prepare` found (canonical paths, the diff): the decision is taken on it. */
	prepared: Preparation | undefined;
	settings: ApprovalSettings;
	approvals: Approver | undefined;
	signal: AbortSignal;
	card: ToolCard;
	notice(level: NoticeLevel, code: NoticeCode, text: string): void;
}

/**
 * Decides a call before it runs: allowed, refused by a rule, or asked. Asking waits for the
 * user (Stop, no answer and an error all mean no) and saves an "Always allow" rule when the
 * user chose one. Returns the result that ends the call, or undefined when it may run.
 */
export async function approveCall(call: CallToApprove): Promise<ToolResultData | undefined> {
	const { tool, card, settings } = call;
	const permission = decidePermission(tool, call.input, settings, call.prepared);
	card.state.policyReason = permission.verdict === 'allow' ? undefined : (permission.cardReason ?? permission.reason);
	if (permission.verdict === 'deny') {
		return card.finish({
			ok: false,
			output: `${tool.name} is not allowed: ${permission.reason}. Do not call it again; find another way or ask the user.`,
			status: 'denied',
			errorKind: 'denied',
		});
	}
	if (permission.verdict === 'allow') {
		return undefined;
	}
	const suggested =
		settings.persistRule && permission.suggestedRule
			? { ...permission.suggestedRule, action: 'allow' as const }
			: undefined;
	// Register the pending approval before the card says so: a UI that answers straight
	// from the event must find the id already waiting.
	const pending = requestApprovalSafely(
		call.approvals,
		{ id: call.id, name: tool.name, title: card.state.title },
		call.signal,
	);
	card.update({ status: 'awaitingApproval', suggestedRule: suggested });
	const decision = await pending;
	// "needs approval" stops being true once answered: the line says the answer instead.
	card.state.policyReason = undefined;
	if (call.signal.aborted) {
		return card.finish({
			ok: false,
			output: 'The user stopped the turn before this call ran.',
			status: 'cancelled',
			errorKind: 'cancelled',
		});
	}
	if (!decision.approved) {
		const why = decision.reason ? ` Reason: ${decision.reason.trim().replace(/([^.!?])$/, '$1.')}` : '';
		card.state.policyReason = decision.reason ? `You denied it: ${decision.reason.trim()}` : 'You denied it.';
		return card.finish({
			ok: false,
			output: `The user denied this call; it did not run.${why} Do not retry it unchanged.`,
			status: 'denied',
			errorKind: 'denied',
		});
	}
	if (decision.always && suggested && settings.persistRule) {
		// A failure to save the rule must not undo the approval the user just gave.
		await settings.persistRule(suggested).then(
			() =>
				call.notice(
					'info',
					'ruleAdded',
					`Added the permission rule "${describeRule(suggested)}" to keel.permissions.rules (keel.permissions.alwaysAllowScope says which settings).`,
				),
			error => call.notice('warning', 'ruleNotSaved', `Could not save the rule: ${(error as Error).message}`),
		);
	}
	return undefined;
}
