/**
 * The host side of the webview bench: the real projection and channel turn agent events into
 * the messages the webview receives, exactly as in the extension.
 */
import type { AgentEvent } from '../../src/core/agent/events';
import { SessionModel } from '../../src/core/session/sessionModel';
import type { HostToWebview } from '../../src/shared/protocol';

export interface BenchHost {
	/** What `ready` is answered with, serialised as it crosses to the webview. */
	snapshot(): { json: string; buildMs: number };
	/** The messages one batch of events produces, coalesced as the channel does per flush. */
	feed(events: AgentEvent[]): HostToWebview[];
}

export function createBenchHost(history: AgentEvent[]): BenchHost {
	const model = new SessionModel('bench', 'qwen3:8b');
	for (const event of history) {
		model.apply(event);
	}
	let version = 0;
	return {
		snapshot() {
			const start = performance.now();
			const json = JSON.stringify({ type: 'didSnapshot', version: ++version, state: structuredClone(model.view) });
			return { json, buildMs: performance.now() - start };
		},
		feed(events) {
			const out: HostToWebview[] = [];
			for (const update of events.flatMap(event => model.apply(event))) {
				const last = out[out.length - 1];
				if (update.type === 'didAppendText' && last?.type === 'didAppendText' && last.itemId === update.itemId) {
					last.text += update.text;
				} else {
					out.push({ ...structuredClone(update), version: ++version } as HostToWebview);
				}
			}
			return out;
		},
	};
}
