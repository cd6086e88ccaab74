import type { ChatModel, ModelEvent } from '../../../llm/chatModel';
import { AgentError } from '../../../errors';
import { anySignal } from '../../../util/abort';

export interface StreamWatch {
	/** Silence allowed once output has begun (a token of text, reasoning or a call): then the stream is broken. */
	idleMs: number;
	/** Before output: how long a silence lasts before Keel asks the server whether it is still there. */
	probeMs?: number;
	/** How long that question may take before the server counts as gone. */
	probeTimeoutMs?: number;
	/** The longest wait for a first token from a server that is alive (keel.model.requestTimeoutSeconds). */
	firstTokenMs?: number;
}

/**
 * A server that keeps answering the liveness question but shows no progress and sends no first
 * token is given keel.model.requestTimeoutSeconds; sent again, the request would be read from
 * the start, so the turn stops and says so instead.
 */
function tooLong(waited: number, limit: number | undefined): AgentError | undefined {
	if (limit === undefined || waited < limit) {
		return undefined;
	}
	return new AgentError(
		'modelTimeout',
		`No first token after ${Math.round(waited / 1000)} s (keel.model.requestTimeoutSeconds), though the server kept answering: it may still be reading a very long prompt, or be stuck. Keel did not send it again (that would start the reading over). Raise keel.model.requestTimeoutSeconds for prompts this long, or start a new chat.`,
	);
}

/** Silence after the first token: the stream broke (R2 sends it again). */
function brokenStream(idleMs: number): AgentError {
	return new AgentError(
		'modelStream',
		`The model sent nothing for ${Math.round(idleMs / 1000)} s (keel.recovery.streamIdleTimeoutSeconds).`,
	);
}

/** Events that are output: once one arrived, silence means a broken stream. */
function isOutput(event: ModelEvent): boolean {
	return event.type !== 'waiting';
}

/**
 * A model whose stream is watched. Before the first token a local server may read the prompt
 * for minutes, silently: the request waits as long as the server shows it is alive (progress
 * frames, pings, or a liveness question it answers every `probeMs` of silence), so a long
 * prefill is never cut and never sent again. A server that stops answering that question is
 * gone: the request fails at once with the server's own advice. Once output has begun, `idleMs`
 * of silence aborts it as a broken stream (R2 replays it). A model with no server to ask (VS
 * Code's) keeps the idle timeout from the start.
 */
export function watchStream(model: ChatModel, watch: StreamWatch): ChatModel {
	const server = model.server;
	const probeMs = watch.probeMs ?? Math.max(250, Math.min(15_000, Math.floor(watch.idleMs / 4)));
	const probeTimeoutMs = watch.probeTimeoutMs ?? Math.min(10_000, Math.max(1000, Math.floor(watch.idleMs / 2)));
	return {
		id: model.id,
		server,
		forcing: model.forcing,
		async *stream(request) {
			const silence = new AbortController();
			const outer = request.signal;
			let verdict: AgentError | undefined;
			let started = false;
			const sentAt = Date.now();
			let silentSince = sentAt;
			let timer: NodeJS.Timeout | undefined;
			// Each event re-arms; a probe that answers after a newer event arrived is ignored.
			let generation = 0;
			const stop = (error: AgentError) => {
				verdict ??= error;
				silence.abort();
			};
			const arm = () => {
				clearTimeout(timer);
				const mine = ++generation;
				if (started || !server) {
					timer = setTimeout(() => stop(brokenStream(watch.idleMs)), watch.idleMs);
					return;
				}
				timer = setTimeout(() => {
					void server.alive(anySignal(outer, AbortSignal.timeout(probeTimeoutMs))).then(alive => {
						if (mine !== generation || outer?.aborted) {
							return;
						}
						const waited = Date.now() - sentAt;
						const verdictNow = alive
							? tooLong(waited, watch.firstTokenMs)
							: server.unreachable(Math.round((Date.now() - silentSince) / 1000));
						if (verdictNow) {
							stop(verdictNow);
						} else {
							arm();
						}
					});
				}, probeMs);
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
						if (verdict && !outer?.aborted) {
							throw new AgentError(verdict.code, verdict.message, { ...verdict.details, cause: error });
						}
						throw error;
					}
					// openai-node ends a stream quietly when it is aborted, so what it yields after
					// our abort is a truncated response, never a complete one.
					if (verdict && !outer?.aborted) {
						throw verdict;
					}
					if (next.done) {
						return;
					}
					started ||= isOutput(next.value);
					silentSince = Date.now();
					arm();
					yield next.value;
				}
			} finally {
				generation++;
				clearTimeout(timer);
			}
		},
	};
}
