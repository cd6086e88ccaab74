import { memo } from 'preact/compat';
import { useState } from 'preact/hooks';
import type { ToolCallView } from '../../shared/views';
import { ActionButtons } from '../content/actionButtons';
import { focusComposer } from '../composer/composerFocus';
import { DiffView, ruleText } from './diffView';
import { KeelText } from '../content/keelText';
import { plainText } from '../../shared/keelText';
import { CardBadges, FilteredLines, UnfilteredOutput } from './toolCardMeta';
import { ToolOutput, countLines } from './toolOutput';
import { post } from '../state/vscodeApi';

const STATUS_LABEL: Record<ToolCallView['status'], string> = {
	streaming: 'preparing…',
	awaitingApproval: 'awaiting approval',
	running: 'running…',
	succeeded: 'done',
	failed: 'failed',
	denied: 'denied',
	cancelled: 'cancelled',
	interrupted: 'interrupted',
};

/** One tool call: what it will do, its arguments (live while streaming), status, result, decision. */
export const ToolCard = memo(function ToolCard({ call }: { call: ToolCallView }) {
	const awaiting = call.status === 'awaitingApproval';
	return (
		<div
			class={`tool-card status-${call.status}`}
			role="group"
			aria-label={`${plainText(call.title || call.name)}: ${STATUS_LABEL[call.status]}`}
			data-testid="tool-card"
			data-tool-call-id={call.id}
			data-tool-name={call.name}
			data-status={call.status}
		>
			<div class="tool-header">
				<span class="tool-title" data-testid="tool-title">
					<KeelText text={call.title || call.name} />
				</span>
				<CardBadges call={call} />
				<span class={`tool-status status-${call.status}`} data-testid="tool-status">
					{STATUS_LABEL[call.status]}
				</span>
			</div>
			<details class="tool-args" open={call.status === 'streaming' || awaiting}>
				<summary>{call.name} arguments</summary>
				<pre data-testid="tool-arguments">{call.argumentsText}</pre>
			</details>
			{call.policyReason && (awaiting || call.status === 'denied') && (
				<div class="tool-policy" data-testid="tool-policy">
					<KeelText text={call.policyReason} />
				</div>
			)}
			{call.caution && (awaiting || call.status === 'running') && (
				<div class="tool-caution" data-testid="tool-caution" role="note">
					<KeelText text={call.caution.text} />
					<ActionButtons
						actions={
							call.caution.setting
								? [{ action: 'openSetting', label: 'Open Setting', setting: call.caution.setting }]
								: undefined
						}
					/>
				</div>
			)}
			<DiffView call={call} />
			{awaiting && <ApprovalActions call={call} />}
			<ToolResult call={call} />
		</div>
	);
});

/**
 * Allow once, Always allow (when a rule can be as narrow as the call), Deny with an optional
 * reason. The card's buttons go with the decision, so the keyboard returns to the composer.
 */
function ApprovalActions({ call }: { call: ToolCallView }) {
	const [reason, setReason] = useState('');
	const decide = (approved: boolean, always?: boolean) => {
		post({
			type: 'decideToolCall',
			toolCallId: call.id,
			approved,
			reason: approved || !reason.trim() ? undefined : reason.trim(),
			...(always ? { always: true } : {}),
		});
		focusComposer();
	};
	return (
		<div class="tool-actions">
			<button data-testid="tool-approve" class="primary" onClick={() => decide(true)}>
				Allow once
			</button>
			{call.suggestedRule && (
				<button
					data-testid="tool-always-allow"
					class="secondary"
					title={`Adds "allow ${ruleText(call.suggestedRule)}" to this workspace's keel.permissions.rules`}
					onClick={() => decide(true, true)}
				>
					Always allow {ruleText(call.suggestedRule)}
				</button>
			)}
			<button data-testid="tool-deny" class="secondary" onClick={() => decide(false)}>
				Deny
			</button>
			<input
				data-testid="tool-deny-reason"
				class="deny-reason"
				aria-label="Reason for denying (optional, sent to the model)"
				placeholder="Reason (optional, sent to the model)"
				value={reason}
				onInput={e => setReason((e.target as HTMLInputElement).value)}
				onKeyDown={e => {
					// Enter in the reason denies with it, as a user typing a reason means to.
					if (e.key === 'Enter') {
						e.preventDefault();
						decide(false);
					}
				}}
			/>
		</div>
	);
}

/** The result, or the live output while it runs; open while it runs and when it failed. */
function ToolResult({ call }: { call: ToolCallView }) {
	const output = call.output ?? call.progress;
	if (output === undefined) {
		return null;
	}
	const lines = countLines(output);
	return (
		<details
			class="tool-output"
			data-testid="tool-output"
			open={call.status === 'running' || call.status === 'failed'}
		>
			<summary>
				{call.output !== undefined ? 'Result' : 'Output so far'} (
				{call.filtered ? <FilteredLines call={call} /> : `${lines} line${lines === 1 ? '' : 's'}`})
				{call.redactions ? (
					<span class="tool-redacted" data-testid="tool-redacted">
						{' '}
						· {call.redactions} secret{call.redactions === 1 ? '' : 's'} redacted
					</span>
				) : null}
			</summary>
			{call.rawOutputRef && call.output !== undefined ? (
				<UnfilteredOutput call={call} filtered={output} />
			) : (
				<ToolOutput text={output} />
			)}
		</details>
	);
}
