import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SessionStore } from '../../src/core/store/sessionStore';
import { startModelDouble, text, toolCalls, type ModelDouble, type RecordedRequest } from '../support/modelDouble';

const KILLS = Number(process.env.KEEL_CRASH_KILLS ?? 50);
const CHILD = path.join(__dirname, 'crash', 'crashChild.js');

interface Ack {
	session: string;
	seq: number;
	kind: string;
	callId: string;
}

/** Answers a user prompt with one or two calls, a tool result with slowly streamed text. */
function nextStep(counter: { n: number }) {
	return (request: RecordedRequest) => {
		const messages = request.body?.messages ?? [];
		const last = messages[messages.length - 1];
		if (last?.role === 'user') {
			const calls = Array.from({ length: 1 + (counter.n % 2) }, () => {
				const tag = `t${++counter.n}`;
				return { name: 'run_step', arguments: { tag }, id: `call_${tag}` };
			});
			return toolCalls(calls, { delayMs: 3 });
		}
		return text(`All steps are done and here is a longer answer number ${++counter.n} so it streams.`, {
			chunks: 12,
			delayMs: 10,
		});
	};
}

/** Runs the child until it has been up for `killAfterMs`, SIGKILLs it, returns what it acked. */
function runAndKill(db: string, double: ModelDouble, runsLog: string, fresh: boolean, killAfterMs: number) {
	return new Promise<{ acks: Ack[]; state: string; errors: string[] }>((resolve, reject) => {
		const child = spawn(process.execPath, [CHILD, db, double.openaiBaseUrl, runsLog, fresh ? '1' : '0'], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let buffer = '';
		let state = 'starting';
		let armed: NodeJS.Timeout | undefined;
		let killing = false;
		const acks: Ack[] = [];
		const errors: string[] = [];
		child.stdout.on('data', (chunk: Buffer) => {
			buffer += chunk.toString('utf8');
			let newline;
			// Only complete lines count: a torn last line was not an acknowledgement.
			while ((newline = buffer.indexOf('\n')) >= 0) {
				const line = buffer.slice(0, newline);
				buffer = buffer.slice(newline + 1);
				const [tag, ...rest] = line.split(' ');
				if (tag === 'ACK') {
					acks.push({ session: rest[0], seq: Number(rest[1]), kind: rest[2], callId: rest[3] });
					if (rest[2] === 'user' && state !== 'starting' && !killing) {
						killing = true;
						if (armed) {
							clearTimeout(armed);
						}
						setTimeout(() => child.kill('SIGKILL'), killAfterMs);
					}
				} else if (tag === 'STATE') {
					state = rest[0];
				} else if (tag === 'READY') {
					state = 'firstRequest';
					// Kill once the first turn is under way (its prompt is committed), at a random point in it.
					armed ??= setTimeout(() => child.kill('SIGKILL'), killAfterMs + 400);
				} else if (tag === 'ERROR' || tag === 'FAIL') {
					errors.push(line);
				}
			}
		});
		child.stderr.on('data', (chunk: Buffer) => errors.push(chunk.toString('utf8')));
		child.on('error', reject);
		child.on('exit', () => resolve({ acks, state, errors }));
	});
}

function checkStore(db: string, acked: Ack[], fresh: Ack[]): { staleLock: boolean; hotJournal: boolean } {
	// A kill inside a transaction leaves the VFS's lock directory behind; opening must clear it.
	const staleLock = fs.existsSync(`${db}.lock`);
	// A kill inside a commit leaves its journal; opening must roll the commit back from it.
	const hotJournal = fs.existsSync(`${db}-journal`);
	const store = SessionStore.open(db);
	try {
		// The rollback alone must leave a sound file: a repair would mean the kill damaged it.
		assert.strictEqual(store.repaired, undefined, `a kill left the database damaged: ${store.repaired}`);
		assert.strictEqual(store.integrityCheck(), 'ok');
		// A hot journal was played back and deleted. One can stay only if it never held anything:
		// empty or zeroed (killed as the commit began), which SQLite rightly ignores.
		const left = fs.existsSync(`${db}-journal`) ? fs.readFileSync(`${db}-journal`) : undefined;
		assert.ok(
			left === undefined || left.length === 0 || left[0] === 0,
			'a hot journal was left behind, not played back',
		);
		for (const meta of store.list()) {
			const events = store.events(meta.id);
			const seqs = events.map(e => e.seq);
			assert.strictEqual(new Set(seqs).size, seqs.length, `duplicate seq in ${meta.id}`);
			const calls = new Set<string>();
			const results = new Set<string>();
			for (const { message } of events) {
				if (message.kind === 'tool_call') {
					assert.ok(!calls.has(message.data.id), `tool call ${message.data.id} stored twice`);
					calls.add(message.data.id);
				} else if (message.kind === 'tool_result') {
					assert.ok(
						calls.has(message.data.toolCallId),
						`result for ${message.data.toolCallId} without its call before it`,
					);
					assert.ok(!results.has(message.data.toolCallId), `two results for ${message.data.toolCallId}`);
					results.add(message.data.toolCallId);
				}
			}
		}
		const bySession = new Map<string, Map<number, string>>();
		for (const ack of acked) {
			let events = bySession.get(ack.session);
			if (!events) {
				events = new Map(store.events(ack.session).map(e => [e.seq, e.message.kind]));
				bySession.set(ack.session, events);
			}
			assert.strictEqual(
				events.get(ack.seq),
				ack.kind,
				`acknowledged ${ack.kind} #${ack.seq} of ${ack.session} is missing`,
			);
		}
		// History search is kept by triggers in the same commits: it finds every prompt and answer
		// acknowledged in this run, in its session.
		for (const ack of fresh.filter(a => a.kind === 'user' || a.kind === 'assistant')) {
			const content = store.events(ack.session).find(e => e.seq === ack.seq)?.message.content ?? '';
			if (!/[\p{L}\p{N}]/u.test(content)) {
				continue; // Nothing to search for (an answer that was only tool calls).
			}
			assert.ok(
				store.search(content).some(hit => hit.sessionId === ack.session),
				`search does not find acknowledged ${ack.kind} #${ack.seq} of ${ack.session}: ${content}`,
			);
		}
		return { staleLock, hotJournal };
	} finally {
		store.close();
	}
}

describe('crash safety of the session store (SIGKILL at random points)', function () {
	// A fixed number of kills, each a child process started and killed: on a machine busy with the
	// other lane it takes three times as long as on a quiet one, and the bound only catches a hang.
	this.timeout(720_000);
	let double: ModelDouble;
	let dir: string;
	before(async () => {
		double = await startModelDouble({ models: ['crash-model'] });
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-crash-'));
	});
	after(async () => {
		await double?.close();
		fs.rmSync(dir, { recursive: true, force: true });
	});

	it(`loses no acknowledged event, never damages the file or its search index, never orphans a result, never duplicates or re-runs a call (${KILLS} kills)`, async () => {
		const db = path.join(dir, 'sessions.db');
		const runsLog = path.join(dir, 'runs.log');
		const counter = { n: 0 };
		const acked: Ack[] = [];
		const where: Record<string, number> = {};
		let started = 0;
		let staleLocks = 0;
		let hotJournals = 0;
		for (let kill = 0; kill < KILLS; kill++) {
			double.reset();
			double.script(...Array.from({ length: 400 }, () => nextStep(counter)));
			const run = await runAndKill(db, double, runsLog, kill % 15 === 0, Math.random() * 650);
			assert.deepStrictEqual(run.errors, [], `child failed: ${run.errors.join('\n')}`);
			started += run.state === 'starting' ? 0 : 1;
			where[run.state] = (where[run.state] ?? 0) + 1;
			acked.push(...run.acks);
			const check = checkStore(db, acked, run.acks);
			staleLocks += check.staleLock ? 1 : 0;
			hotJournals += check.hotJournal ? 1 : 0;
		}
		const tags = fs.readFileSync(runsLog, 'utf8').split('\n').filter(Boolean);
		assert.strictEqual(new Set(tags).size, tags.length, 'an approved call ran twice');
		const store = SessionStore.open(db);
		const sessions = store.list();
		const all = sessions.flatMap(s => store.load(s.id));
		store.close();
		const interrupted = all.filter(m => m.kind === 'tool_result' && m.data.errorKind === 'interrupted').length;
		const partial = all.filter(m => m.kind === 'assistant').length;
		console.log(
			`      crash test: ${KILLS} kills (${started} after startup) — where: ${JSON.stringify(where)}; ` +
				`${acked.length} acknowledged events all present; ${sessions.length} sessions, ${all.length} events; ` +
				`${tags.length} tool runs, none twice; ${staleLocks} stale locks cleared on reopen; ${hotJournals} journals found on reopen (hot ones played back); ${interrupted} interrupted calls answered on resume; ${partial} assistant messages`,
		);
		assert.ok(
			(where.stream ?? 0) + (where.callStream ?? 0) > 0 && (where.tool ?? 0) > 0,
			'kills landed both mid-stream and mid-tool',
		);
		assert.ok(interrupted > 0, 'some calls were interrupted and answered on resume');
	});
});
