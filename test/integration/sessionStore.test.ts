import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { Database } from 'node-sqlite3-wasm';
import type { CanonicalMessage } from '../../src/core/llm/canonical';
import { chatViewFromHistory } from '../../src/host/view/fromHistory';
import { sessionToJson, sessionToMarkdown } from '../../src/core/store/exportSession';
import { INTERRUPTED_OUTPUT, interruptedResults } from '../../src/core/store/interrupted';
import { SCHEMA_VERSION } from '../../src/core/store/database/schema';
import { SessionRecorder } from '../../src/core/store/sessionRecorder';
import { PRUNED_OUTPUT, SessionStore } from '../../src/core/store/sessionStore';
import { StoredOutputs } from '../../src/core/store/storedOutputs';
import { nullLogger } from '../../src/core/ports';

const call = (id: string, raw = '{"path":"a.ts"}'): CanonicalMessage => ({
	kind: 'tool_call',
	content: `read_file(${raw})`,
	data: { id, name: 'read_file', arguments: JSON.parse(raw), rawArguments: raw },
});
const result = (id: string, output: string, ok = true): CanonicalMessage => ({
	kind: 'tool_result',
	content: output,
	data: { toolCallId: id, name: 'read_file', output, ok },
});

describe('SessionStore (real SQLite file)', () => {
	let dir: string;
	let file: string;
	let now: number;
	const open = () => SessionStore.open(file, () => now);
	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-store-'));
		file = path.join(dir, 'sessions.db');
		now = Date.UTC(2026, 0, 1);
	});
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	it('keeps every message across a reopen, titled by the first prompt, with provider and model', () => {
		const store = open();
		const history: CanonicalMessage[] = [
			{ kind: 'user', content: 'Fix the failing test\nin src/app.ts' },
			call('c1'),
			result('c1', 'export const x = 1;'),
			{ kind: 'assistant', content: 'Done.' },
		];
		history.forEach(message =>
			store.append('s1', message, { provider: 'ollama', model: 'qwen3:8b', turnId: 't1' }),
		);
		store.close();
		const reopened = open();
		assert.deepStrictEqual(reopened.load('s1'), history);
		const meta = reopened.get('s1')!;
		assert.strictEqual(meta.title, 'Fix the failing test');
		assert.strictEqual(meta.provider, 'ollama');
		assert.strictEqual(meta.model, 'qwen3:8b');
		assert.strictEqual(meta.eventCount, 4);
		reopened.close();
	});

	it('lists sessions most recent first, renames, and deletes a session with its tool outputs', () => {
		const store = open();
		store.append('old', { kind: 'user', content: 'old one' });
		store.append('old', call('c1'));
		store.append('old', result('c1', 'big output'));
		now += 1000;
		store.append('new', { kind: 'user', content: 'new one' });
		assert.deepStrictEqual(
			store.list().map(s => s.id),
			['new', 'old'],
		);
		assert.strictEqual(store.lastSessionId(), 'new');
		store.rename('old', 'Renamed');
		assert.strictEqual(store.get('old')!.title, 'Renamed');
		store.delete('old');
		assert.deepStrictEqual(
			store.list().map(s => s.id),
			['new'],
		);
		assert.deepStrictEqual(store.load('old'), []);
		store.close();
		const raw = new Database(file);
		assert.strictEqual(
			raw.get('SELECT COUNT(*) AS n FROM tool_outputs')!.n,
			0,
			'the stored outputs went with the session',
		);
		raw.close();
	});

	it('drops tool outputs past the retention age and keeps the conversation readable', () => {
		const store = open();
		store.append('s', { kind: 'user', content: 'go' });
		store.append('s', call('old'));
		store.append('s', result('old', 'old output'));
		now += 40 * 86_400_000;
		store.append('s', call('new'));
		store.append('s', result('new', 'new output'));
		assert.strictEqual(store.pruneToolOutputs(30), 1);
		assert.strictEqual(store.pruneToolOutputs(0), 0, '0 keeps outputs forever');
		const outputs = store.load('s').flatMap(m => (m.kind === 'tool_result' ? [m.content] : []));
		assert.deepStrictEqual(outputs, [PRUNED_OUTPUT, 'new output']);
		store.close();
	});

	it("reads a session's newest part alone: its last events, and how many of each kind come before, as reading it all gives", function () {
		this.timeout(60_000);
		fc.assert(
			fc.property(
				fc.array(fc.tuple(fc.constantFrom('a', 'b'), fc.constantFrom('user', 'assistant', 'call', 'system')), {
					maxLength: 40,
				}),
				fc.integer({ min: 1, max: 50 }),
				fc.boolean(),
				(writes, limit, rewind) => {
					fs.rmSync(file, { force: true });
					const store = open();
					writes.forEach(([session, kind], i) => {
						const turnId = `t${Math.floor(i / 5)}`;
						if (kind === 'call') {
							store.append(session, call(`c${i}`), { turnId });
							store.append(session, result(`c${i}`, `output ${i}`), { turnId });
						} else {
							store.append(session, { kind, content: `${kind} ${i}` } as CanonicalMessage, { turnId });
						}
					});
					if (rewind && writes.length > 10) {
						// A rewound turn leaves its place to the messages written after it.
						store.truncateFromTurn('a', 't1');
						store.append('a', { kind: 'user', content: 'after the rewind' }, { turnId: 'later' });
					}
					// Old outputs are dropped by retention; the tail reads them as the whole read does.
					now += 40 * 86_400_000;
					store.pruneToolOutputs(30);
					const all = store.events('a');
					const { events, before } = store.tail('a', limit);
					const cut = Math.max(0, all.length - limit);
					assert.deepStrictEqual(events, all.slice(cut));
					const counted: Record<string, number> = {};
					all.slice(0, cut).forEach(e => (counted[e.message.kind] = (counted[e.message.kind] ?? 0) + 1));
					assert.deepStrictEqual(before, counted);
					store.close();
				},
			),
			{ numRuns: 20 },
		);
	});

	it('keeps cut outputs for read_output across a reopen, per session, gone with the session or past retention', async () => {
		const store = open();
		store.append('s1', { kind: 'user', content: 'run the tests' });
		const outputs = new StoredOutputs(store);
		const whole = 'line\n'.repeat(20_000);
		const ref = await outputs.put('s1', whole);
		assert.match(ref, /^out_[A-Za-z0-9_-]{12}$/);
		store.close();
		const reopened = open();
		const again = new StoredOutputs(reopened);
		assert.strictEqual(await again.get('s1', ref), whole, 'a reload keeps it');
		assert.strictEqual(await again.get('s2', ref), undefined, 'another session cannot read it');
		const old = await again.put('s1', 'old output');
		now += 31 * 86_400_000;
		const fresh = await again.put('s1', 'fresh output');
		reopened.pruneToolOutputs(30);
		assert.strictEqual(await again.get('s1', old), undefined, 'retention drops old outputs');
		assert.strictEqual(await again.get('s1', fresh), 'fresh output');
		reopened.delete('s1');
		assert.strictEqual(await again.get('s1', fresh), undefined, 'deleting the session deletes its outputs');
		reopened.close();
	});

	it('refuses a second copy of a call or a result (a replay cannot duplicate them)', () => {
		const store = open();
		store.append('s', call('c1'));
		assert.throws(() => store.append('s', call('c1')));
		store.append('s', result('c1', 'x'));
		assert.throws(() => store.append('s', result('c1', 'x')));
		assert.strictEqual(store.load('s').length, 2);
		store.close();
	});

	it('migrates by version and refuses a database from a newer Keel', () => {
		open().close();
		const raw = new Database(file);
		assert.strictEqual(raw.get('PRAGMA user_version')!.user_version, SCHEMA_VERSION);
		assert.strictEqual(raw.get('PRAGMA journal_mode')!.journal_mode, 'delete');
		raw.exec(`PRAGMA user_version=${SCHEMA_VERSION + 1}`);
		raw.close();
		assert.throws(() => open(), /newer version/);
	});

	it('opens after a killed writer of an older build left its lock behind (no holder in it, long ago)', () => {
		open().close();
		fs.mkdirSync(`${file}.lock`);
		const longAgo = new Date(Date.now() - 60_000);
		fs.utimesSync(`${file}.lock`, longAgo, longAgo);
		const store = open();
		store.append('s', { kind: 'user', content: 'still works' });
		assert.strictEqual(store.load('s').length, 1);
		store.close();
	});

	it('recorder: writes at message boundaries and keeps a partial answer when torn down mid-stream', () => {
		const store = open();
		const acks: number[] = [];
		const recorder = new SessionRecorder({
			store,
			sessionId: 's',
			provider: () => ({ provider: 'openai', model: 'm' }),
			logger: nullLogger,
			onDidCommit: seq => acks.push(seq),
		});
		recorder.handle({ type: 'turnStarted', turnId: 't', prompt: 'hi' });
		recorder.handle({ type: 'messageAppended', turnId: 't', message: { kind: 'user', content: 'hi' } });
		recorder.handle({ type: 'textDelta', turnId: 't', text: 'A failed attempt' });
		recorder.handle({ type: 'textRetracted', turnId: 't', reason: 'retry' });
		recorder.handle({ type: 'textDelta', turnId: 't', text: 'Half of ' });
		recorder.handle({ type: 'textDelta', turnId: 't', text: 'an answer' });
		assert.strictEqual(store.load('s').length, 1, 'deltas are not written one by one');
		recorder.dispose();
		recorder.handle({
			type: 'messageAppended',
			turnId: 't',
			message: { kind: 'assistant', content: 'Half of an answer' },
		});
		assert.deepStrictEqual(
			store.load('s').map(m => m.content),
			['hi', 'Half of an answer'],
		);
		assert.deepStrictEqual(acks, [0, 1]);
		store.close();
	});

	it('recorder: a failing store is reported once and the conversation goes on', () => {
		const store = open();
		store.close();
		const failures: Error[] = [];
		const recorder = new SessionRecorder({
			store,
			sessionId: 's',
			provider: () => ({ provider: '', model: '' }),
			logger: nullLogger,
			onDidFail: error => failures.push(error),
		});
		recorder.handle({ type: 'messageAppended', turnId: 't', message: { kind: 'user', content: 'a' } });
		recorder.handle({ type: 'messageAppended', turnId: 't', message: { kind: 'user', content: 'b' } });
		assert.strictEqual(failures.length, 1);
	});

	it('a call cut off before its result shows as interrupted, and resumes with a matching result', () => {
		const history: CanonicalMessage[] = [
			{ kind: 'user', content: 'run it' },
			call('c1'),
			result('c1', 'ok'),
			call('c2'),
		];
		const view = chatViewFromHistory('s', history, { modelLabel: 'm' }).view;
		const cards = view.items.flatMap(item => (item.kind === 'tool' ? [item.call.status] : []));
		assert.deepStrictEqual(cards, ['succeeded', 'interrupted']);
		const added = interruptedResults(history);
		assert.strictEqual(added.length, 1);
		assert.ok(
			added[0].kind === 'tool_result' &&
				added[0].data.toolCallId === 'c2' &&
				added[0].data.errorKind === 'interrupted' &&
				added[0].content === INTERRUPTED_OUTPUT,
		);
		const resumed = chatViewFromHistory('s', [...history, ...added], { modelLabel: 'm' }).view;
		assert.deepStrictEqual(
			resumed.items.flatMap(item => (item.kind === 'tool' ? [item.call.status] : [])),
			['succeeded', 'interrupted'],
		);
	});

	it('exports Markdown and JSON', () => {
		const store = open();
		[
			{ kind: 'user', content: 'Explain' } as CanonicalMessage,
			call('c1'),
			result('c1', 'has ``` inside'),
			{ kind: 'assistant', content: 'It is fine.' } as CanonicalMessage,
		].forEach(m => store.append('s', m, { provider: 'anthropic', model: 'claude' }));
		const markdown = sessionToMarkdown(store.get('s')!, store.load('s'));
		assert.match(markdown, /^# Explain/);
		assert.match(markdown, /## You\n\nExplain/);
		assert.match(markdown, /\*\*Tool\*\* `read_file` \(ok\)/);
		assert.match(markdown, /````\nhas ``` inside\n````/);
		const json = JSON.parse(sessionToJson(store.get('s')!, store.events('s')));
		assert.strictEqual(json.events.length, 4);
		assert.strictEqual(json.session.provider, 'anthropic');
		store.close();
	});
});
