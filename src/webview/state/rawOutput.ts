import type { HostToWebview } from '../../shared/protocol';

/** What "Show unfiltered" has loaded of one card's raw output. */
export interface RawOutput {
	text: string;
	total: number;
	nextOffset?: number;
	error?: string;
	loading: boolean;
}

/**
 * Raw outputs live beside the store, not in the card's view: they are the webview's own
 * request, never part of the host's projection, and a snapshot must not drop them.
 */
const outputs = new Map<string, RawOutput>();
const listeners = new Map<string, Set<() => void>>();

export function requestedRawOutput(toolCallId: string): void {
	const current = outputs.get(toolCallId);
	set(toolCallId, {
		text: current?.text ?? '',
		total: current?.total ?? 0,
		nextOffset: current?.nextOffset,
		loading: true,
	});
}

/** Applies the host's answer: the first page replaces, later pages append. */
export function applyRawOutput(message: Extract<HostToWebview, { type: 'didRawOutput' }>): void {
	const current = outputs.get(message.toolCallId);
	const text = message.offset > 0 && current ? current.text + message.text : message.text;
	set(message.toolCallId, {
		text,
		total: message.total,
		nextOffset: message.nextOffset,
		error: message.error,
		loading: false,
	});
}

export function rawOutput(toolCallId: string): RawOutput | undefined {
	return outputs.get(toolCallId);
}

/** Calls `listener` when the card's raw output changes; returns the unsubscribe. */
export function onRawOutput(toolCallId: string, listener: () => void): () => void {
	let own = listeners.get(toolCallId);
	if (!own) {
		listeners.set(toolCallId, (own = new Set()));
	}
	own.add(listener);
	return () => own!.delete(listener);
}

function set(toolCallId: string, value: RawOutput): void {
	outputs.set(toolCallId, value);
	listeners.get(toolCallId)?.forEach(listener => listener());
}
