/**
 * The host side of the webview bench: the real projection and channel turn agent events into
 * the messages the webview receives, exactly as in the extension.
 */
import type { AgentEvent } from '../../src/core/agent/events';
import { ChatView } from '../../src/host/view/chatView';
import { WebviewChannel } from '../../src/host/view/webviewChannel';
import { PROTOCOL_VERSION, type HostToWebview } from '../../src/shared/protocol';

export interface BenchHost {
	/** What `ready` is answered with, serialised as it crosses to the webview. */
	snapshot(): { json: string; buildMs: number };
	/** The messages one batch of events produces, coalesced as the channel does per flush. */
	feed(events: AgentEvent[]): HostToWebview[];
}

export function createBenchHost(history: AgentEvent[]): BenchHost {
	const view = new ChatView('bench', 'qwen3:8b', 'http://127.0.0.1:11434/v1');
	for (const event of history) {
		view.apply(event);
	}
	let posted: HostToWebview[] = [];
	const channel = new WebviewChannel(1_000_000);
	channel.open(
		message => posted.push(JSON.parse(JSON.stringify(message))),
		PROTOCOL_VERSION,
		() => ({ type: 'didSnapshot', state: view.page() }),
	);
	return {
		snapshot() {
			const start = performance.now();
			channel.reset({ type: 'didSnapshot', state: view.page() });
			const json = JSON.stringify(posted.pop());
			return { json, buildMs: performance.now() - start };
		},
		feed(events) {
			posted = [];
			for (const event of events) {
				view.apply(event).forEach(update => channel.push(update));
			}
			channel.flush();
			return posted;
		},
	};
}
