// Full-text search of the session history on a real SQLite file: the migration indexes
// sessions written by the previous schema, search keeps up with writes, rewinds and deletions.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Database } from 'node-sqlite3-wasm';
import { toFtsQuery } from '../../src/core/store/historySearch';
import { SessionStore } from '../../src/core/store/sessionStore';

describe('history search (SQLite FTS5)', () => {
	let dir: string;
	let file: string;
	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-fts-'));
		file = path.join(dir, 'sessions.db');
	});
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	it('indexes sessions stored before the search existed (schema 2 → 3)', () => {
		const store = SessionStore.open(file);
		store.append('old', { kind: 'user', content: 'Why does the tokenizer drop unicode quotes?' }, { turnId: 't1' });
		store.close();
		// Back to schema 2 as an older Keel left it: no search table.
		const db = new Database(file);
		db.exec(
			'DROP TRIGGER events_fts_insert; DROP TRIGGER events_fts_delete; DROP TABLE events_fts; PRAGMA user_version=2',
		);
		db.close();
		const reopened = SessionStore.open(file);
		assert.deepStrictEqual(
			reopened.search('tokeniz').map(hit => hit.sessionId),
			['old'],
		);
		reopened.close();
	});

	it('finds prompts and answers by word prefix, shows the passage, and follows renames, rewinds and deletes', () => {
		const store = SessionStore.open(file);
		store.append('a', { kind: 'user', content: 'Refactor the parser module' }, { turnId: 'a1' });
		store.append(
			'a',
			{ kind: 'assistant', content: 'I split the parser into lexer and grammar.' },
			{ turnId: 'a1' },
		);
		store.append('a', { kind: 'user', content: 'Now add zebra tests' }, { turnId: 'a2' });
		store.append('b', { kind: 'user', content: 'Fix the login form' }, { turnId: 'b1' });
		const hits = store.search('pars');
		assert.deepStrictEqual(
			hits.map(hit => hit.sessionId),
			['a'],
		);
		assert.strictEqual(hits[0].hits, 2);
		assert.match(hits[0].snippet, /\[parser\]/);
		assert.deepStrictEqual(
			store.search('login FORM').map(hit => hit.sessionId),
			['b'],
		);
		assert.deepStrictEqual(store.search('"NEAR( *'), [], 'FTS syntax in the input is plain text');

		store.rename('b', 'Authentication work');
		assert.deepStrictEqual(
			store.search('authentication').map(hit => hit.sessionId),
			['b'],
		);

		assert.deepStrictEqual(
			store.search('zebra').map(hit => hit.sessionId),
			['a'],
		);
		const removed = store.truncateFromTurn('a', 'a2');
		assert.deepStrictEqual(
			removed.map(event => event.message.content),
			['Now add zebra tests'],
		);
		assert.deepStrictEqual(store.search('zebra'), [], 'a rewound turn is no longer found');
		assert.strictEqual(store.get('a')!.eventCount, 2);
		assert.deepStrictEqual(
			store.turns('a').map(turn => turn.prompt),
			['Refactor the parser module'],
		);

		store.delete('a');
		assert.deepStrictEqual(store.search('parser'), []);
		assert.strictEqual(store.integrityCheck(), 'ok');
		store.close();
	});

	it('builds safe queries', () => {
		assert.strictEqual(toFtsQuery('  '), undefined);
		assert.strictEqual(toFtsQuery('Fix "the" bug*'), '"fix"* "the"* "bug"*');
	});
});
