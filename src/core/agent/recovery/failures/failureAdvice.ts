import type { Classification } from './failureTable';
import type { RecoverySettings } from '../recoverySettings';

/**
 * What to do about a failure that retrying cannot fix, said after the server's own words:
 * a quota or balance, memory the model does not fit in, a wait longer than Keel waits.
 */
export function stopAdvice(c: Classification, settings: RecoverySettings, now: number): string | undefined {
	switch (c.failureClass) {
		case 'billing':
			return `This is a billing or balance problem, not a rate limit, so Keel does not retry it: top up the account or change the plan, or choose another model.${c.retryAfterMs !== undefined ? ` The server says it resets ${resetTime(c.retryAfterMs, now)}.` : ''}`;
		case 'outOfMemory':
			return `The model does not fit in the memory the server has, so Keel does not retry it: choose a smaller model or quantization, or lower the context size (keel.model.contextWindow = ${settings.contextWindow}; Ollama num_ctx, llama.cpp --ctx-size).`;
		case 'waitTooLong':
			return `The server asks to wait until ${resetTime(c.retryAfterMs ?? 0, now)}, longer than Keel waits in a turn (keel.recovery.retryAfterCapSeconds): send the message again then, or choose another model.`;
		// Retried, compacted, reflected or stopped with words of their own: nothing to add here.
		case 'transient':
		case 'stream':
		case 'format':
		case 'permanent':
		case 'contextOverflow':
		case 'outputBudget':
		case 'toolsUnsupported':
		case 'toolSchema':
		case 'reasoningRefused':
		case 'unknown':
		case 'cancelled':
			return undefined;
	}
}

/** "14:05 (in about 7 h)": the local time and how far off it is. */
function resetTime(waitMs: number, now: number): string {
	const at = new Date(now + waitMs);
	const clock = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
	const hours = waitMs / 3_600_000;
	const span =
		hours >= 24
			? `${Math.round(hours / 24)} d`
			: hours >= 1
				? `${Math.round(hours)} h`
				: `${Math.max(1, Math.round(waitMs / 60_000))} min`;
	return `${hours >= 20 ? `${at.toISOString().slice(0, 10)} ` : ''}${clock} (in about ${span})`;
}
