import { useEffect, useState } from 'preact/hooks';
import type { WaitingView } from '../../shared/views';

/** A quick first token is not worth a line: the wait shows once it is this long. */
const SHOW_AFTER_MS = 1500;

/**
 * While a request waits for its first token: how far the server is through the prompt where
 * it says (llama.cpp's progress: tokens processed of the total, and how many came from its
 * cache), else how long it has been. Ticks every second on this page's clock.
 */
export function WaitingLine({ waiting, since }: { waiting: WaitingView; since: number }) {
	const [now, setNow] = useState(Date.now());
	useEffect(() => {
		const timer = setInterval(() => setNow(Date.now()), 1000);
		return () => clearInterval(timer);
	}, []);
	const elapsed = Math.max(waiting.elapsedMs, now - since);
	if (elapsed < SHOW_AFTER_MS && waiting.total === undefined) {
		return null;
	}
	const text = waitingText(waiting, elapsed);
	return (
		<div class="waiting-line" data-testid="prefill-progress" role="status" aria-live="polite">
			{waiting.total !== undefined && waiting.processed !== undefined && (
				<meter min={0} max={waiting.total || 1} value={waiting.processed} aria-hidden="true" />
			)}
			<span>{text}</span>
		</div>
	);
}

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
