import type { ToolResultData } from '../../llm/canonical';
import { redactSecrets } from '../../gate/redact/redact';
import type { AgentEvent, ToolCallState } from '../events';
import {
	classifyToolFailure,
	describeFailure,
	formatToolError,
	INFRASTRUCTURE,
	type ToolErrorCategory,
} from '../recovery/toolErrors';
import { retriedBySystem } from '../recovery/toolRetry';
import type { SessionToolState } from '../toolPolicy/toolPolicy';
import type { StepCall } from './modelStep';
import { cardArguments } from './callBounds';

/** How a call ended, as the card and the model will know it. */
export interface CallEnd {
	ok: boolean;
	output: string;
	status: ToolCallState['status'];
	/** 'unknownTool' | 'invalidArguments' | 'denied' | 'blocked' | 'cancelled' | 'error' | … */
	errorKind?: string;
	/** The tool's result envelope (status, exitCode, timedOut, refused …), which classifies a failure. */
	fields?: Record<string, unknown>;
}

/**
 * One call's card, from the first update to its result: every change is sent whole as
 * `toolCallUpdated`, and `finish` turns the end into the result the model reads (redacted,
 * a failure classified into a [tool_error] block, counted by the session's tool policy).
 */
export class ToolCard {
	readonly state: ToolCallState;

	constructor(
		private readonly _call: StepCall,
		private readonly _turnId: string,
		private readonly _emit: (event: AgentEvent) => void,
		private readonly _policy: SessionToolState | undefined,
	) {
		this.state = {
			id: _call.id,
			name: _call.name,
			title: _call.name,
			argumentsText: cardArguments(_call.rawArguments),
			status: 'running',
		};
	}

	update(patch: Partial<ToolCallState>): void {
		Object.assign(this.state, patch);
		this._emit({ type: 'toolCallUpdated', turnId: this._turnId, call: { ...this.state } });
	}

	finish(end: CallEnd): ToolResultData {
		const { ok, status, errorKind, fields } = end;
		const name = this._call.name;
		// Every output the card shows is redacted, whichever tool (or tool source) produced it. A
		// result is bounded by its shaping; a failure's own words (a server's message) are bounded here.
		let output = redactSecrets(ok ? end.output : boundedText(end.output)).text;
		// The card says the failure once, in the user's words; the model reads the [tool_error] block.
		const shown = output;
		let category: ToolErrorCategory | undefined;
		let retryable: boolean | undefined;
		if (!ok) {
			category = classifyToolFailure({ errorKind, message: output, fields });
			// Failures get the [tool_error] block; the user's own decisions keep their plain words.
			if (status === 'failed') {
				const policy = this._policy;
				const info = describeFailure(category, policy ? policy.qualityAttemptLeft(name, category) : true);
				// Only reads and fetches are retried by the system; a command or a write is not run twice.
				if (INFRASTRUCTURE.has(category)) {
					info.retryable = retriedBySystem(this.state.effect, category);
				}
				retryable = info.retryable;
				output = formatToolError(info, output);
			}
		}
		const blockedAt = this._policy?.record(name, ok, category);
		this.update({ status, output: shown, progress: undefined, errorCategory: category });
		if (blockedAt !== undefined) {
			this._emit({
				type: 'notice',
				turnId: this._turnId,
				level: 'warning',
				code: 'toolBlocked',
				text: `${name} failed in ${Math.round(blockedAt * 100)}% of its recent calls and is blocked for this chat: it is no longer offered to the model. Unblock it with "Keel: Unblock Tools".`,
			});
		}
		return {
			toolCallId: this._call.id,
			name,
			output,
			ok,
			errorKind,
			...(category ? { errorCategory: category, retryable } : {}),
		};
	}

	/** A failure the model reads as a [tool_error] block. */
	fail(output: string, errorKind: string, fields?: Record<string, unknown>): ToolResultData {
		return this.finish({ ok: false, output, status: 'failed', errorKind, fields });
	}
}

/** An error message a server can make megabytes long: its start and its end. */
const MAX_CARD_OUTPUT = 256 * 1024;

function boundedText(text: string): string {
	if (text.length <= MAX_CARD_OUTPUT) return text;
	const half = MAX_CARD_OUTPUT / 2;
	return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters omitted …]\n${text.slice(-half)}`;
}
