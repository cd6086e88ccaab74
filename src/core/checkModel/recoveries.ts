import type { AgentEvent } from '../agent/events';
import type { NoticeCode } from '../agent/noticeCodes';
import type { CanonicalMessage } from '../llm/canonical';
import type { RecoveryClass, ToolCallMode } from './types';

/** What each class means to a user reading the report. */
export const RECOVERY_LABELS: Record<RecoveryClass, string> = {
	textCall: 'call written as text, recovered',
	jsonRepair: 'malformed arguments, repaired',
	nameMatch: 'tool name misspelt, matched',
	gluedCalls: 'calls glued together, split',
	hiddenCall: 'call inside the reasoning or Harmony channel, recovered',
	serverParse: 'server could not parse the call, model corrected',
	invalidCall: 'arguments did not fit the tool, error sent back',
	cutCall: 'call cut off at the output limit',
	emptyAnswer: 'empty or unusable answer, asked again',
	loop: 'repeated the same call, warned',
	degenerate: 'repeated itself, stopped',
	transport: 'server busy or unreachable, retried',
	stream: 'stream broke or stalled, replayed',
	textModeSwitch: 'server refused native calls, switched to text',
	context: 'context full, compacted',
};

/** Classes where the model got a call wrong (the rest are the server, the transport or the answer). */
export const BROKEN_CALL_CLASSES: ReadonlySet<RecoveryClass> = new Set<RecoveryClass>([
	'textCall',
	'jsonRepair',
	'nameMatch',
	'gluedCalls',
	'hiddenCall',
	'serverParse',
	'invalidCall',
	'cutCall',
]);

const BY_CODE: Partial<Record<NoticeCode, RecoveryClass>> = {
	reflection: 'serverParse',
	recoveredFromError: 'serverParse',
	truncatedCall: 'cutCall',
	reask: 'emptyAnswer',
	loopWarning: 'loop',
	loopStopped: 'loop',
	degenerate: 'degenerate',
	transportRetry: 'transport',
	streamRetry: 'stream',
	textMode: 'textModeSwitch',
	compacted: 'context',
	contextOverflow: 'context',
};

/** A `repair` notice says which repair it was; the sentences are the loop's own (callRepair.ts, stepReview.ts). */
function repairClass(text: string, mode: ToolCallMode): RecoveryClass | undefined {
	if (/written as text/.test(text)) {
		// In text mode a call written as text is the format asked for, not a recovery.
		return mode === 'text' ? undefined : 'textCall';
	}
	if (/Harmony|in its reasoning/.test(text)) {
		return 'hiddenCall';
	}
	if (/glued together/.test(text)) {
		return 'gluedCalls';
	}
	if (/Matched tool name/.test(text)) {
		return 'nameMatch';
	}
	return /Repaired malformed arguments/.test(text) ? 'jsonRepair' : undefined;
}

/**
 * What Keel stepped in for during one turn, by class: the loop's notices, plus every call that
 * failed because the model wrote it wrong (its error went back to the model as a [tool_error]).
 */
export function classifyRecoveries(
	events: readonly AgentEvent[],
	messages: readonly CanonicalMessage[],
	mode: ToolCallMode,
): Partial<Record<RecoveryClass, number>> {
	const counts: Partial<Record<RecoveryClass, number>> = {};
	const add = (key: RecoveryClass | undefined) => key && (counts[key] = (counts[key] ?? 0) + 1);
	for (const event of events) {
		if (event.type === 'notice') {
			add(event.code === 'repair' ? repairClass(event.text, mode) : BY_CODE[event.code]);
		}
	}
	for (const message of messages) {
		if (
			message.kind === 'tool_result' &&
			(message.data.errorKind === 'invalidArguments' || message.data.errorKind === 'unknownTool')
		) {
			add('invalidCall');
		}
	}
	return counts;
}

export function brokenCalls(counts: Partial<Record<RecoveryClass, number>>): number {
	return Object.entries(counts).reduce(
		(sum, [key, n]) => sum + (BROKEN_CALL_CLASSES.has(key as RecoveryClass) ? (n ?? 0) : 0),
		0,
	);
}

export function addCounts(
	into: Partial<Record<RecoveryClass, number>>,
	from: Partial<Record<RecoveryClass, number>>,
): Partial<Record<RecoveryClass, number>> {
	for (const [key, n] of Object.entries(from) as Array<[RecoveryClass, number]>) {
		into[key] = (into[key] ?? 0) + n;
	}
	return into;
}
