import type { ChatModel, ModelEvent } from '../../../llm/chatModel';
import { AgentError } from '../../../errors';
import { anySignal } from '../../../util/abort';
import type { RecoverySettings } from '../recoverySettings';

/** One budget per user turn, shared by transport retries, stream retries and reflections. */
export class RetryBudget {
	private _used = 0;

	constructor(readonly max: number) {}

	get used(): number {
		return this._used;
	}

	take(): boolean {
		if (this._used >= this.max) {
			return false;
		}
		this._used++;
		return true;
	}

	/** "2/6": shown on every retry line so the user sees how much patience is left. */
	get label(): string {
		return `${this._used}/${this.max}`;
	}
}

/**
 * Exponential backoff with ±20 % jitter; a server's Retry-After wins but never beyond our cap,
 * so a "retry in 1 hour" cannot hold the turn.
 */
export function retryDelayMs(
	attempt: number,
	settings: Pick<RecoverySettings, 'backoffBaseMs' | 'backoffMaxMs' | 'retryAfterCapMs'>,
	retryAfterMs: number | undefined,
	random: () => number,
): number {
	if (retryAfterMs !== undefined) {
		return Math.min(retryAfterMs, settings.retryAfterCapMs);
	}
	const exponential = Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
	return Math.round(exponential * (0.8 + 0.4 * random()));
}

/**
 * A stream that goes silent is as broken as one that drops. Wraps a model so that no event
 * for `idleMs` aborts the request and throws a stream error (classified as R2, retried).
 */
export function withIdleTimeout(model: ChatModel, idleMs: number): ChatModel {
	return {
		id: model.id,
		forcing: model.forcing,
		async *stream(request) {
			// A timer we re-arm on every event, so not AbortSignal.timeout: it aborts `silence`.
			const silence = new AbortController();
			const outer = request.signal;
			let idle = false;
			let timer: NodeJS.Timeout | undefined;
			const arm = () => {
				clearTimeout(timer);
				timer = setTimeout(() => {
					idle = true;
					silence.abort();
				}, idleMs);
			};
			try {
				arm();
				const signal = anySignal(outer, silence.signal);
				const iterator = model.stream({ ...request, signal })[Symbol.asyncIterator]();
				for (;;) {
					let next: IteratorResult<ModelEvent>;
					try {
						next = await iterator.next();
					} catch (error) {
						if (idle && !outer?.aborted) {
							throw new AgentError(
								'modelStream',
								`The model sent nothing for ${Math.round(idleMs / 1000)} s (keel.recovery.streamIdleTimeoutSeconds).`,
								{ cause: error },
							);
						}
						throw error;
					}
					// openai-node ends a stream quietly when it is aborted, so what it yields after
					// our idle abort is a truncated response, never a complete one.
					if (idle && !outer?.aborted) {
						throw new AgentError(
							'modelStream',
							`The model sent nothing for ${Math.round(idleMs / 1000)} s (keel.recovery.streamIdleTimeoutSeconds).`,
						);
					}
					if (next.done) {
						return;
					}
					arm();
					yield next.value;
				}
			} finally {
				clearTimeout(timer);
			}
		},
	};
}
