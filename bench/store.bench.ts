/**
 * Session store: latency of one durable append (one transaction, rollback journal with
 * synchronous=FULL, so fsyncs included) and the time to reopen the database and load a session
 * of 10,000 events, as on a window reload. For comparison, fdatasync alone measured p50
 * 0.18 ms / p99 0.29 ms on this kind of machine.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { CanonicalMessage } from '../src/core/llm/canonical';
import { chatViewFromHistory } from '../src/host/view/fromHistory';
import { SessionStore } from '../src/core/store/sessionStore';
import { percentile, printTable } from './table';

export const title = 'Session store (SQLite event log, durable commits)';

/** After a crash, opening the store checks the whole file; the window waits for it before it shows history. */
const OPEN_CHECK_BUDGET_MS = 300;

function message(i: number): CanonicalMessage {
	switch (i % 4) {
		case 0:
			return { kind: 'user', content: `Question ${i}: what does src/module${i}.ts do?` };
		case 1:
			return {
				kind: 'tool_call',
				content: 'read_file',
				data: {
					id: `c${i}`,
					name: 'read_file',
					arguments: { path: `src/module${i}.ts` },
					rawArguments: `{"path":"src/module${i}.ts"}`,
				},
			};
		case 2:
			return {
				kind: 'tool_result',
				content: 'x',
				data: {
					toolCallId: `c${i - 1}`,
					name: 'read_file',
					output: 'export const value = 1;\n'.repeat(40),
					ok: true,
				},
			};
		default:
			return { kind: 'assistant', content: `Module ${i} exports one constant. `.repeat(8) };
	}
}

function ms(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

type Row = [string, number, number, number, number];

function row(label: string, values: number[]): Row {
	return [label, percentile(values, 0.5), percentile(values, 0.99), Math.max(...values), values.length];
}

/** Appends like the real writer (one transaction per message); returns each append's latency. */
function grow(file: string): number[] {
	const store = SessionStore.open(file);
	const latencies: number[] = [];
	for (let i = 0; i < 2_000; i++) {
		const start = process.hrtime.bigint();
		store.append('bench', message(i), { provider: 'ollama', model: 'qwen3:8b' });
		latencies.push(ms(start));
	}
	// Grow one session to 10,000 events.
	for (let i = 2_000; i < 10_000; i++) {
		store.append('big', message(i), { provider: 'ollama', model: 'qwen3:8b' });
	}
	for (let i = 0; i < 2_000; i++) {
		store.append('big', message(i), { provider: 'ollama', model: 'qwen3:8b' });
	}
	store.close();
	return latencies;
}

/** A window reopening the history: open (the seal's hash checked), load the session, build its view. */
function reopenRows(file: string): { rows: Row[]; count: number } {
	const reopen: number[] = [];
	const rebuild: number[] = [];
	const openSealed: number[] = [];
	const seal: number[] = [];
	let count = 0;
	for (let round = 0; round < 5; round++) {
		let start = process.hrtime.bigint();
		const store = SessionStore.open(file);
		openSealed.push(ms(start));
		const history = store.load('big');
		reopen.push(ms(start));
		start = process.hrtime.bigint();
		chatViewFromHistory('big', history, { modelLabel: 'qwen3:8b' });
		rebuild.push(ms(start));
		count = history.length;
		start = process.hrtime.bigint();
		store.close();
		seal.push(ms(start));
	}
	return {
		count,
		rows: [
			row(`reopen DB + load ${count} events`, reopen),
			row(`rebuild the view of ${count} events`, rebuild),
			row('open, closed cleanly (seal: SHA-256 of the file)', openSealed),
			row('close (writes the seal: SHA-256 of the file)', seal),
		],
	};
}

/** Opens while another window has written since the last seal, and what the full check costs. */
function checkRows(file: string): Row[] {
	const openUnsealed: number[] = [];
	const checkOnly: number[] = [];
	const other = SessionStore.open(file);
	for (let round = 0; round < 5; round++) {
		// The other window, still open, writes: the seal no longer matches, the time test passes.
		other.append('other', message(round * 4));
		const start = process.hrtime.bigint();
		const store = SessionStore.open(file);
		openUnsealed.push(ms(start));
		const checkStart = process.hrtime.bigint();
		store.integrityCheck();
		checkOnly.push(ms(checkStart));
		store.close();
	}
	other.close();
	const openCheck = openUnsealed.map((value, i) => value + checkOnly[i]);
	return [
		row('open, another window wrote since (no hash, no check)', openUnsealed),
		row('full check (PRAGMA integrity_check)', checkOnly),
		row('open after a crash or a restart (open + full check)', openCheck),
	];
}

export async function run(): Promise<void> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-store-bench-'));
	try {
		const file = path.join(dir, 'sessions.db');
		const latencies = grow(file);
		const reopened = reopenRows(file);
		const checked = checkRows(file);
		const size = fs.statSync(file).size / 1024 / 1024;
		printTable(
			['measure', 'p50 ms', 'p99 ms', 'max ms', 'n'],
			[row('append one event (commit + fsync)', latencies), ...reopened.rows, ...checked],
		);
		const openCheck = checked[2];
		console.log(
			`\nopen after a crash or a restart, budget ${OPEN_CHECK_BUDGET_MS} ms (when Keel's host first loads, not on activation; also once for a file an earlier build wrote): median is ${((openCheck[1] / OPEN_CHECK_BUDGET_MS) * 100).toFixed(0)}% of it`,
		);
		console.log(
			`\ndatabase: ${size.toFixed(1)} MB for 12,000 events; journal_mode=DELETE, synchronous=FULL. ` +
				'A file closed cleanly is hashed on open (damage with no journal: a disk fault); one written since by a window still open is not; the full check runs after a crash, after a restart with the file left open, and when the hash differs.',
		);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}
