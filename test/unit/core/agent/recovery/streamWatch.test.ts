// A watched stream: before the first token it waits as long as the server answers its liveness
// question, and fails at once when the server stops answering; after the first token, silence
// is a broken stream. Real timers with short settings: waits, not verdicts on time.
import * as assert from 'assert';
import { watchStream } from '../../../../../src/core/agent/recovery/failures/streamWatch';
import { AgentError } from '../../../../../src/core/errors';
import type { ChatModel, ModelEvent, ModelServer } from '../../../../../src/core/llm/chatModel';

const sleep = (ms: number, signal?: AbortSignal) =>
	new Promise<void>((resolve, reject) => {
		const timer = setTimeout(resolve, ms);
		signal?.addEventListener('abort', () => {
			clearTimeout(timer);
			reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
		});
	});

/** A model that is silent for `silentMs`, then sends `events` with `gapMs` between them. */
function slowModel(
	silentMs: number,
	events: ModelEvent[],
	server?: ModelServer,
	gapMs = 0,
): ChatModel & { asked: number } {
	const model = {
		id: 'slow',
		server,
		asked: 0,
		async *stream(request: { signal?: AbortSignal }) {
			model.asked++;
			await sleep(silentMs, request.signal);
			for (const event of events) {
				if (gapMs) await sleep(gapMs, request.signal);
				yield event;
			}
		},
	};
	return model as unknown as ChatModel & { asked: number };
}

function fakeServer(alive: () => boolean): ModelServer & { probes: number } {
	const s = {
		probes: 0,
		describe: async () => ({}),
		alive: async () => {
			s.probes++;
			return alive();
		},
		unreachable: (seconds: number) =>
			new AgentError('modelUnreachable', `No model server answered (silent ${seconds} s).`),
	};
	return s;
}

async function drain(model: ChatModel): Promise<ModelEvent[]> {
	const out: ModelEvent[] = [];
	for await (const event of model.stream({ messages: [], tools: [] })) out.push(event);
	return out;
}

const answer: ModelEvent[] = [
	{ type: 'text', text: 'hi' },
	{ type: 'finish', reason: 'stop' },
];

describe('a watched model stream', () => {
	it('waits out a silent prefill three times the idle timeout while the server answers', async () => {
		const server = fakeServer(() => true);
		const events = await drain(watchStream(slowModel(600, answer, server), { idleMs: 200, probeMs: 50 }));
		assert.deepStrictEqual(events, answer);
		assert.ok(server.probes >= 3, `the server was asked while it worked (${server.probes} times)`);
	});

	it('fails with the server’s advice once the server stops answering, before the prefill would end', async () => {
		let up = true;
		const server = fakeServer(() => up);
		setTimeout(() => (up = false), 150);
		await assert.rejects(
			drain(watchStream(slowModel(5_000, answer, server), { idleMs: 200, probeMs: 50 })),
			(error: AgentError) => {
				assert.strictEqual(error.code, 'modelUnreachable');
				assert.match(error.message, /No model server answered/);
				return true;
			},
		);
	});

	it('after the first token, silence past the idle timeout is a broken stream', async () => {
		const server = fakeServer(() => true);
		const events: ModelEvent[] = [
			{ type: 'text', text: 'a' },
			{ type: 'text', text: 'b' },
		];
		// First token at once, then a gap longer than idle before the second.
		const gappy: ChatModel = {
			id: 'gappy',
			server,
			async *stream(request) {
				yield events[0];
				await sleep(600, request.signal);
				yield events[1];
			},
		};
		await assert.rejects(drain(watchStream(gappy, { idleMs: 200, probeMs: 50 })), (error: AgentError) => {
			assert.strictEqual(error.code, 'modelStream');
			assert.match(error.message, /The model sent nothing for/);
			return true;
		});
	});

	it('a server alive but silent past keel.model.requestTimeoutSeconds: the turn stops, nothing sent again', async () => {
		const server = fakeServer(() => true);
		const model = slowModel(5_000, answer, server);
		await assert.rejects(
			drain(watchStream(model, { idleMs: 200, probeMs: 50, firstTokenMs: 400 })),
			(error: AgentError) => {
				assert.strictEqual(error.code, 'modelTimeout');
				assert.match(
					error.message,
					/No first token after \d+ s \(keel\.model\.requestTimeoutSeconds\), though the server kept answering/,
				);
				return true;
			},
		);
		assert.strictEqual(model.asked, 1);
	});

	it('a model with no server to ask keeps the idle timeout from the start', async () => {
		await assert.rejects(drain(watchStream(slowModel(600, answer), { idleMs: 200 })), (error: AgentError) => {
			assert.strictEqual(error.code, 'modelStream');
			return true;
		});
	});

	it('progress frames keep the wait going without asking the server', async () => {
		const server = fakeServer(() => false);
		const progress: ChatModel = {
			id: 'progress',
			server,
			async *stream(request) {
				for (let processed = 0; processed <= 1000; processed += 250) {
					yield { type: 'waiting', progress: { total: 1000, cached: 0, processed } };
					await sleep(40, request.signal);
				}
				yield* answer;
			},
		};
		const events = await drain(watchStream(progress, { idleMs: 100, probeMs: 60 }));
		assert.deepStrictEqual(events.slice(-2), answer);
		assert.strictEqual(server.probes, 0, 'no question while the server reports progress');
	});
});
