/**
 * History search (SQLite FTS5 over prompts and answers): 500 sessions of 20 messages, as a
 * year of daily use. The latency of one search as the user types (the quick pick searches on
 * every keystroke) and the cost the index adds to each durable append. Budget: a search well
 * under a keystroke's 50 ms.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SessionStore } from '../src/core/store/sessionStore';
import { percentile, printTable } from './table';

export const title = 'History search (SQLite FTS5)';

const WORDS = [
	'parser',
	'lexer',
	'token',
	'refactor',
	'test',
	'docker',
	'sandbox',
	'config',
	'webview',
	'router',
	'cache',
	'schema',
	'migration',
	'login',
	'button',
	'layout',
];

export async function run(): Promise<void> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-fts-bench-'));
	try {
		const store = SessionStore.open(path.join(dir, 'sessions.db'));
		const appends: number[] = [];
		for (let s = 0; s < 500; s++) {
			for (let m = 0; m < 20; m++) {
				const words = Array.from({ length: 40 }, (_, i) => WORDS[(s * 7 + m * 3 + i * 5) % WORDS.length]).join(
					' ',
				);
				const started = process.hrtime.bigint();
				store.append(
					`s${s}`,
					{
						kind: m % 2 ? 'assistant' : 'user',
						content: `Session ${s} message ${m}: ${words} unique${s}x${m}`,
					},
					{ turnId: `s${s}t${m >> 1}` },
				);
				appends.push(Number(process.hrtime.bigint() - started) / 1e6);
			}
		}
		const searches: Record<string, number[]> = {
			'one common word ("pars")': [],
			'two words ("docker sandbox")': [],
			'a rare word ("unique250x")': [],
		};
		const queries: Record<string, string> = {
			'one common word ("pars")': 'pars',
			'two words ("docker sandbox")': 'docker sandbox',
			'a rare word ("unique250x")': 'unique250x',
		};
		for (let i = 0; i < 20; i++) {
			for (const [label, query] of Object.entries(queries)) {
				const started = process.hrtime.bigint();
				store.search(query);
				searches[label].push(Number(process.hrtime.bigint() - started) / 1e6);
			}
		}
		printTable(
			['operation (500 sessions, 10,000 messages)', 'p50 ms', 'p95 ms', 'budget'],
			[
				[
					'append one message (durable, with the index)',
					percentile(appends, 0.5),
					percentile(appends, 0.95),
					'',
				],
				...Object.entries(searches).map(([label, values]) => [
					`search: ${label}`,
					percentile(values, 0.5),
					percentile(values, 0.95),
					'< 50',
				]),
			],
		);
		store.close();
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}
