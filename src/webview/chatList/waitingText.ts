import type { WaitingView } from '../../shared/views';

/** The wait in words: the server's progress where it reports some, else the time waited. */
export function waitingText(waiting: WaitingView, elapsedMs: number): string {
	const time = elapsedText(elapsedMs);
	if (waiting.total !== undefined && waiting.processed !== undefined) {
		const cached = waiting.cached ? ` (${thousands(waiting.cached)} from its cache)` : '';
		return `The server is reading the prompt: ${thousands(waiting.processed)} of ${thousands(waiting.total)} tokens${cached} · ${time}`;
	}
	return `Waiting for the model's first token (the server is reading the prompt) · ${time}`;
}

function thousands(n: number): string {
	return Math.round(n).toLocaleString('en-US');
}

function elapsedText(ms: number): string {
	const s = Math.floor(ms / 1000);
	return s >= 120 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}
