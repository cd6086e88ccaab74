// Leaves a session database the way a process killed in the middle of a commit leaves it. The
// store first records `kept` acknowledged messages in session "kept"; then, by mode:
//  - `commit`: copies the file (the state before the next commit) to `<db>.before`, and appends
//    one more prompt, killed by SIGKILL at the moment SQLite deletes the journal: every new page
//    is in the file, the journal still holds the old ones. A test can then build the file as a
//    kill after any number of page writes leaves it.
//  - `spill`: a second writer changes `cut` rows of session "cut" in one transaction with a tiny
//    page cache, so SQLite writes new pages into the file before committing, and is killed.
// Usage: node damageChild.js <db> <kept> <commit|spill> [cut]
import * as fs from 'fs';
import { SessionStore } from '../../../src/core/store/sessionStore';
import { openDatabase } from '../../../src/core/store/database/sqlite';

const [file, keptArg, mode, cutArg] = process.argv.slice(2);

/** The i-th acknowledged message: prompts and answers, each with a word of its own to search for. */
export function keptMessage(i: number): { kind: 'user' | 'assistant'; content: string } {
	return i % 2 === 0
		? { kind: 'user', content: `prompt ${i} about keel${i} parsers` }
		: { kind: 'assistant', content: `answer ${i} about widget${i} ${'and more words '.repeat(20)}` };
}

function main(): void {
	const store = SessionStore.open(file);
	for (let i = 0; i < Number(keptArg); i++) {
		store.append('kept', keptMessage(i));
	}
	if (mode === 'commit') {
		fs.copyFileSync(file, `${file}.before`);
		// The module object the VFS deletes the journal through.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const nodeFs = require('node:fs') as typeof fs;
		const unlinkSync = nodeFs.unlinkSync;
		nodeFs.unlinkSync = (target: fs.PathLike) => {
			if (String(target).endsWith('-journal')) {
				process.kill(process.pid, 'SIGKILL');
			}
			unlinkSync(target);
		};
		store.append('kept', { kind: 'user', content: 'never acknowledged' });
		throw new Error('the commit finished although its journal could not be deleted');
	}
	store.close();
	const { db } = openDatabase(file);
	db.exec('PRAGMA cache_size=2');
	db.exec('BEGIN IMMEDIATE');
	db.run(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('cut', 'cut', 0, 0)`);
	for (let seq = 0; seq < Number(cutArg); seq++) {
		db.run(`INSERT INTO events (session_id, seq, kind, created_at, content) VALUES ('cut', ?, 'user', 0, ?)`, [
			seq,
			`never committed ${seq} ${'filler '.repeat(30)}`,
		]);
	}
	process.kill(process.pid, 'SIGKILL');
}

if (require.main === module) {
	main();
}
