/**
 * What a long-lived signal keeps when Keel combines it, listens to it or sleeps on it many
 * times (src/core/util/abort.ts), on this Node and on the Node code-server runs extensions on
 * (when `npm test` or `npm start` installed it): heap growth, garbage collected, over 200,000
 * uses after a first 100,000 that warm up. The reference is a listener added and removed.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { printTable } from './table';

export const title = 'abort: heap a never-aborted signal keeps per use (per Node)';

function nodes(): string[] {
	const cache = process.env.KEEL_CACHE ?? path.resolve(__dirname, '../../.vscode-test');
	const cached = fs.existsSync(cache)
		? fs
				.readdirSync(cache)
				.filter(name => /^node-\d/.test(name))
				.map(name => path.join(cache, name, 'bin', 'node'))
				.filter(file => fs.existsSync(file))
		: [];
	return [process.execPath, ...cached];
}

const USES: Array<[string, string]> = [
	['anySignal', 'anySignal(source, other)'],
	['anySignalWithTimeout', 'anySignal(source, AbortSignal.timeout(1 s)), timers fired'],
	['sleep', 'sleep(0, source)'],
	['onAbortDisposed', 'onAbort(source, fn).dispose() (reference)'],
];

export async function run(): Promise<void> {
	const script = path.join(__dirname, 'abort', 'retained.js');
	const rows: Array<Array<string | number>> = [];
	for (const node of nodes()) {
		for (const [use, label] of USES) {
			const out = execFileSync(node, ['--expose-gc', script, use], { encoding: 'utf8' });
			const { node: version, calls, bytes } = JSON.parse(out) as { node: string; calls: number; bytes: number };
			rows.push([
				version,
				label,
				Math.max(0, bytes / calls),
				((Math.max(0, bytes) / calls) * 100_000) / 1_048_576,
			]);
		}
	}
	printTable(['node', 'use', 'bytes kept per use', 'MB per 100,000 uses'], rows);
	console.log(
		"\nKeel combines on a turn's signal, which goes with the turn; onAbort is for signals that outlive many uses.",
	);
}
