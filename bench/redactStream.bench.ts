/**
 * The live output of a running command, redacted as it arrives (StreamRedactor): time per
 * output size, streamed in 4 KiB chunks (a pipe's usual read) and in 64-byte chunks (a
 * chatty progress printer). Linear means the time per MiB stays flat as the output grows.
 * The reference is what the card did before: redact the whole text so far on every chunk,
 * which grows with the square of the size (measured up to 1 MiB; beyond it takes minutes).
 */
import { redactSecrets, StreamRedactor } from '../src/core/gate/redact/redact';
import { printTable } from './table';

export const title = 'Live-stream redaction: output size vs time (linear, with the per-chunk rescan as reference)';

const BUDGET_MS_PER_MIB = 1000;

/** Build-log-like output with a credential every few hundred lines. */
function output(bytes: number): string {
	const lines: string[] = [];
	let size = 0;
	for (let i = 0; size < bytes; i++) {
		const line =
			i % 400 === 7
				? `export GITHUB_TOKEN=ghp_${'Zx9k2LmQ7rT4vW8yB3nC6dF1gH5jK0pS2uX4'.slice(0, 36)}`
				: `[${String(i).padStart(6, '0')}] compiling src/module${i % 97}/file${i % 13}.ts (${i * 7} ms)`;
		lines.push(line);
		size += line.length + 1;
	}
	return `${lines.join('\n')}\n`.slice(0, bytes);
}

function streamMs(text: string, chunk: number): number {
	const stream = new StreamRedactor();
	const start = process.hrtime.bigint();
	for (let i = 0; i < text.length; i += chunk) {
		stream.push(text.slice(i, i + chunk));
	}
	return Number(process.hrtime.bigint() - start) / 1e6;
}

function rescanMs(text: string, chunk: number): number {
	let all = '';
	const start = process.hrtime.bigint();
	for (let i = 0; i < text.length; i += chunk) {
		all += text.slice(i, i + chunk);
		redactSecrets(all);
	}
	return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function run(): Promise<void> {
	const rows: Array<Array<string | number>> = [];
	for (const kib of [64, 256, 1024, 4096, 16_384]) {
		const text = output(kib * 1024);
		const big = streamMs(text, 4096);
		const small = kib <= 4096 ? streamMs(text, 64) : NaN;
		const reference = kib <= 1024 ? rescanMs(text, 4096) : NaN;
		rows.push([
			`${kib} KiB`,
			big,
			(big / kib) * 1024,
			Number.isNaN(small) ? '—' : small,
			Number.isNaN(reference) ? '—' : reference,
			BUDGET_MS_PER_MIB,
		]);
	}
	printTable(
		[
			'output',
			'4 KiB chunks (ms)',
			'ms per MiB',
			'64 B chunks (ms)',
			'rescan per chunk (ms, before)',
			'budget ms/MiB',
		],
		rows,
	);
}
