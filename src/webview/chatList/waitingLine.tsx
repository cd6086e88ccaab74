import { useEffect, useState } from 'preact/hooks';
import type { WaitingView } from '../../shared/views';
import { waitingText } from './waitingText';

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
