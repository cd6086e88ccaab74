// Two VS Code windows on one workspace share one session database: each window's extension host
// is a process of its own (test/integration/crash/windowChild.ts stands for one). They write at
// once, open while another writes or holds a transaction, and die in the middle of a commit; no
// acknowledged message may be lost, no file damaged, no window stuck behind a dead one's lock.
import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SessionStore } from '../../src/core/store/sessionStore';

const CHILD = path.join(__dirname, 'crash', 'windowChild.js');

interface Ack {
	session: string;
	seq: number;
	kind: string;
	word: string;
}

/** One window: its output lines as they come, its acknowledgements, how it ended. */
class Window {
	readonly lines: string[] = [];
	readonly acks: Ack[] = [];
	readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
	private readonly _child: ChildProcess;
	private _buffer = '';
	private _waiters: Array<() => void> = [];

	constructor(...args: string[]) {
		this._child = spawn(process.execPath, [CHILD, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
		this._child.stdout!.on('data', (chunk: Buffer) => this._take(chunk.toString('utf8')));
		this._child.stderr!.on('data', (chunk: Buffer) => this.lines.push(`STDERR ${chunk.toString('utf8')}`));
		this.exited = new Promise(resolve => this._child.on('exit', (code, signal) => resolve({ code, signal })));
	}

	get errors(): string[] {
		return this.lines.filter(line => line.startsWith('ERROR') || line.startsWith('STDERR'));
	}

	/** Resolves when a line starting with `prefix` has been printed; rejects if the window ends first. */
	async waitFor(prefix: string, timeoutMs = 60_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (!this.lines.some(line => line.startsWith(prefix))) {
			if (Date.now() > deadline || this._child.exitCode !== null || this._child.signalCode !== null) {
				throw new Error(`window never printed ${prefix}: ${this.lines.slice(-5).join(' | ')}`);
			}
			await new Promise<void>(resolve => {
				this._waiters.push(resolve);
				setTimeout(resolve, 50);
			});
		}
	}

	send(line: string): void {
		this._child.stdin!.write(`${line}\n`);
	}

	kill(): void {
		this._child.kill('SIGKILL');
	}

	private _take(text: string): void {
		this._buffer += text;
		let newline;
		// Only complete lines count: a torn last line was not an acknowledgement.
		while ((newline = this._buffer.indexOf('\n')) >= 0) {
			const line = this._buffer.slice(0, newline);
			this._buffer = this._buffer.slice(newline + 1);
			this.lines.push(line);
			const [tag, session, seq, kind, word] = line.split(' ');
			if (tag === 'ACK') {
				this.acks.push({ session, seq: Number(seq), kind, word });
			}
		}
		this._waiters.splice(0).forEach(wake => wake());
	}
}

/** Every acknowledged message is in the file, once, in its place, and search finds it; the file is sound. */
function assertAllKept(db: string, acks: Ack[]): void {
	const store = SessionStore.open(db);
	try {
		assert.strictEqual(store.integrityCheck(), 'ok');
		const sessions = new Map<string, Map<number, { kind: string; text: string }>>();
		for (const ack of acks) {
			let events = sessions.get(ack.session);
			if (!events) {
				const stored = store.events(ack.session);
				assert.strictEqual(
					new Set(stored.map(e => e.seq)).size,
					stored.length,
					`duplicate seq in ${ack.session}`,
				);
				events = new Map(stored.map(e => [e.seq, { kind: e.message.kind, text: e.message.content }]));
				sessions.set(ack.session, events);
			}
			const event = events.get(ack.seq);
			assert.strictEqual(
				event?.kind,
				ack.kind,
				`acknowledged ${ack.kind} #${ack.seq} of ${ack.session} is missing`,
			);
			assert.ok(event.text.includes(ack.word), `#${ack.seq} of ${ack.session} holds another message`);
		}
		for (const ack of acks.filter(a => a.kind === 'user' || a.kind === 'assistant').slice(0, 40)) {
			assert.ok(
				store.search(ack.word).some(hit => hit.sessionId === ack.session),
				`search does not find ${ack.word}`,
			);
		}
	} finally {
		store.close();
	}
	assert.strictEqual(fs.existsSync(`${db}.lock`), false, 'no lock is left once every window is closed');
}

describe('two windows, one session store (real processes)', function () {
	this.timeout(240_000);
	let dir: string;
	let db: string;
	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-windows-'));
		db = path.join(dir, 'sessions.db');
		SessionStore.open(db).close();
	});
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	it('four windows writing and reading at once lose nothing, and none fails for the lock', async () => {
		const windows = ['a', 'b', 'c', 'd'].map(session => new Window('write', db, session, '120', '3000'));
		const ends = await Promise.all(windows.map(window => window.exited));
		for (const [i, window] of windows.entries()) {
			assert.deepStrictEqual(window.errors, [], `window ${i} failed`);
			assert.deepStrictEqual(ends[i], { code: 0, signal: null });
			assert.strictEqual(window.acks.length, 120);
		}
		assertAllKept(
			db,
			windows.flatMap(window => window.acks),
		);
	});

	it('a window killed in the middle of a commit does not stop the one still open: it takes the lock over and rolls the cut commit back', async () => {
		// The open window writes until the kills are over, however long starting them takes on this machine.
		const stop = path.join(dir, 'stop');
		const alive = new Window('write-until', db, 'alive', stop, '2000');
		await alive.waitFor('ACK');
		const killed: Window[] = [];
		let diedWhileAliveWrote = 0;
		for (let round = 0; round < 8 && !alive.lines.includes('DONE'); round++) {
			// Half die exactly inside a commit (pages written, journal not yet deleted), half at a random moment.
			const window =
				round % 2 === 0
					? new Window('die-in-commit', db, `killed${round}`, '3')
					: new Window('write', db, `killed${round}`, '1000', '2000');
			if (round % 2 === 1) {
				await window.waitFor('ACK');
				await new Promise(resolve => setTimeout(resolve, Math.random() * 300));
				window.kill();
			}
			const end = await window.exited;
			assert.strictEqual(
				end.signal,
				'SIGKILL',
				`killed${round} was not killed: ${window.lines.slice(-3).join(' | ')}`,
			);
			diedWhileAliveWrote += alive.lines.includes('DONE') ? 0 : 1;
			killed.push(window);
		}
		fs.writeFileSync(stop, '');
		const end = await alive.exited;
		assert.deepStrictEqual(alive.errors, [], 'the open window failed');
		assert.deepStrictEqual(end, { code: 0, signal: null });
		assert.ok(diedWhileAliveWrote >= 3, `only ${diedWhileAliveWrote} windows died while the other wrote`);
		assertAllKept(db, [...alive.acks, ...killed.flatMap(window => window.acks)]);
		const store = SessionStore.open(db);
		try {
			assert.deepStrictEqual(
				store.search('acknowledged'),
				[],
				'no commit that was cut (never acknowledged) is in the file',
			);
		} finally {
			store.close();
		}
	});

	it('a window opening while another is inside a transaction waits for its commit, even when the last window to open has closed', async () => {
		const holder = new Window('hold', db, 'held');
		await holder.waitFor('OPENED');
		// A window that opens and closes after the holder: the last one to open is now gone.
		const earlier = new Window('open', db, 'earlier', 'held');
		assert.deepStrictEqual(await earlier.exited, { code: 0, signal: null });
		holder.send('begin');
		await holder.waitFor('HOLDING');
		const opening = new Window('open', db, 'opening', 'held');
		await new Promise(resolve => setTimeout(resolve, 1_500));
		assert.deepStrictEqual(
			opening.acks,
			[],
			'the opening window wrote while the other window was inside its transaction',
		);
		holder.send('commit');
		await holder.waitFor('COMMITTED');
		assert.deepStrictEqual(await opening.exited, { code: 0, signal: null }, opening.lines.join('\n'));
		assert.deepStrictEqual(opening.errors, []);
		assert.ok(opening.lines.includes('SAW 1'), `it sees the committed message: ${opening.lines.join(' | ')}`);
		assertAllKept(db, [
			...earlier.acks,
			...opening.acks,
			{ session: 'held', seq: 0, kind: 'user', word: 'held message' },
		]);
	});

	it('a window that opens resumes the latest conversation no other live window has open', async () => {
		const store = SessionStore.open(db, () => Date.now());
		try {
			store.append('older', { kind: 'user', content: 'the older conversation' });
			await new Promise(resolve => setTimeout(resolve, 5));
			store.append('newer', { kind: 'user', content: 'the newer conversation' });
			assert.strictEqual(store.resumableSessionId(), 'newer');

			const open = new Window('claim', db, 'newer');
			await open.waitFor('CLAIMED');
			assert.strictEqual(store.resumableSessionId(), 'older', 'the newer one is open in a live window');
			open.kill();
			await open.exited;
			assert.strictEqual(store.resumableSessionId(), 'newer', 'a window that crashed holds nothing');

			const closing = new Window('claim', db, 'newer', 'close');
			assert.deepStrictEqual(await closing.exited, { code: 0, signal: null });
			assert.strictEqual(store.resumableSessionId(), 'newer', 'a window that closed gave its claim up');
		} finally {
			store.close();
		}
	});
});
