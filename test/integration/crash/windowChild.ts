// A VS Code window's extension host as the session store sees it: a process of its own with
// the store open. The two-window tests start several at once on one file and kill some.
//  write <db> <session> <count> [bytes]  appends <count> messages (a tool output of [bytes] every
//      third one), reading between them as a window does (its session, the list, a search);
//      prints `ACK <session> <seq> <kind> <word>` after each commit, `DONE` at the end.
//  write-until <db> <session> <stopFile> [bytes]  the same, until <stopFile> exists.
//  die-in-commit <db> <session> <count>  appends <count> messages, then one more that is killed
//      (SIGKILL) after all its pages are written, before its journal is deleted.
//  hold <db> <session>  opens the store (`OPENED`); at the first line on stdin writes one message
//      inside a transaction it keeps open (`HOLDING`); at the second, commits (`COMMITTED`).
//  claim <db> <session> [then]  opens the store and claims <session> as its window's conversation
//      (`CLAIMED`); with `close` it then closes the store and exits, otherwise it waits to be killed.
//  open <db> <session> <watched>  opens the store, appends one message, prints `ACK …` and
//      `SAW <n>`: how many messages of session <watched> it found.
// Any failure prints `ERROR <message>` and exits 1.
import * as fs from 'fs';
import type { CanonicalMessage } from '../../../src/core/llm/canonical';
import { SessionStore } from '../../../src/core/store/sessionStore';
import { openDatabase } from '../../../src/core/store/database/sqlite';

const out = (line: string) => fs.writeSync(1, `${line}\n`);

/** The i-th message a window writes to a session; `word` is unique to it, for search. */
export function windowMessage(session: string, i: number, bytes = 0): { message: CanonicalMessage; word: string } {
	const word = `w${session.replace(/\W/g, '')}x${i}`;
	if (i % 3 === 2 && bytes > 0) {
		const id = `${session}-c${i}`;
		return {
			word,
			message: {
				kind: 'tool_result',
				content: '',
				data: { toolCallId: id, name: 'run_step', output: `${word} ${'o'.repeat(bytes)}`, ok: true },
			},
		};
	}
	return { word, message: { kind: i % 2 === 0 ? 'user' : 'assistant', content: `message ${word} from a window` } };
}

function ack(store: SessionStore, session: string, i: number, bytes: number): void {
	const { message, word } = windowMessage(session, i, bytes);
	const seq = store.append(session, message);
	out(`ACK ${session} ${seq} ${message.kind} ${word}`);
}

function write(db: string, session: string, count: number, bytes: number, stopFile?: string): void {
	const store = SessionStore.open(db);
	for (let i = 0; i < count && !(stopFile && fs.existsSync(stopFile)); i++) {
		ack(store, session, i, bytes);
		// What a window reads between writes: its own session back, the history list, a search.
		if (store.load(session).length < i + 1) {
			throw new Error(`session ${session} shows fewer than the ${i + 1} messages written`);
		}
		if (i % 5 === 0) {
			store.list();
			store.search(windowMessage(session, i).word);
		}
	}
	store.close();
	out('DONE');
}

function dieInCommit(db: string, session: string, count: number): void {
	const store = SessionStore.open(db);
	for (let i = 0; i < count; i++) {
		ack(store, session, i, 2_000);
	}
	// The module object the file layer deletes the journal through: the commit's pages are all in
	// the file, its journal is still there, and the lock is held.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const nodeFs = require('node:fs') as typeof fs;
	const unlinkSync = nodeFs.unlinkSync;
	nodeFs.unlinkSync = (target: fs.PathLike) => {
		if (String(target).endsWith('-journal')) {
			process.kill(process.pid, 'SIGKILL');
		}
		unlinkSync(target);
	};
	store.append(session, { kind: 'user', content: `never acknowledged ${'x'.repeat(20_000)}` });
	throw new Error('the commit finished although its journal could not be deleted');
}

function hold(db: string, session: string): void {
	SessionStore.open(db).close();
	const { db: raw } = openDatabase(db);
	out('OPENED');
	const lines: string[] = [];
	process.stdin.on('data', chunk => {
		lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
		if (lines.length >= 1 && !raw.inTransaction && lines[0] === 'begin') {
			raw.exec('BEGIN IMMEDIATE');
			raw.run(`INSERT OR IGNORE INTO sessions (id, title, created_at, updated_at) VALUES (?, 'held', 0, 0)`, [
				session,
			]);
			raw.run(
				`INSERT INTO events (session_id, seq, kind, created_at, content) VALUES (?, 0, 'user', 0, 'held message')`,
				[session],
			);
			out('HOLDING');
		}
		if (lines.length >= 2 && raw.inTransaction) {
			raw.exec('COMMIT');
			out('COMMITTED');
			raw.close();
			process.exit(0);
		}
	});
}

function claim(db: string, session: string, then: string | undefined): void {
	const store = SessionStore.open(db);
	store.claims.claim(session);
	out('CLAIMED');
	if (then === 'close') {
		store.close();
		process.exit(0);
	}
	setInterval(() => undefined, 60_000);
}

function openOne(db: string, session: string, watched: string): void {
	const store = SessionStore.open(db);
	ack(store, session, 0, 0);
	out(`SAW ${store.load(watched).length}`);
	store.close();
}

function main(): void {
	const [mode, db, session, a, b] = process.argv.slice(2);
	if (mode === 'write') {
		write(db, session, Number(a), Number(b ?? 0));
	} else if (mode === 'write-until') {
		write(db, session, 1_000_000, Number(b ?? 0), a);
	} else if (mode === 'die-in-commit') {
		dieInCommit(db, session, Number(a));
	} else if (mode === 'hold') {
		hold(db, session);
	} else if (mode === 'claim') {
		claim(db, session, a);
	} else if (mode === 'open') {
		openOne(db, session, a);
	} else {
		throw new Error(`unknown mode ${mode}`);
	}
}

if (require.main === module) {
	try {
		main();
	} catch (error) {
		out(`ERROR ${(error as Error).stack ?? error}`);
		process.exit(1);
	}
}
