// How long the event loop was held at most while something ran: the host stays responsive only
// when no task takes long. perf_hooks samples the loop's delay (a timer's lateness) every 10 ms.
import { monitorEventLoopDelay } from 'perf_hooks';
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The longest task, in ms, while `work` ran. */
export async function longestTask<T>(work: () => Promise<T>): Promise<{ result: T; longestMs: number }> {
	const histogram = monitorEventLoopDelay({ resolution: 10 });
	histogram.enable();
	try {
		const result = await work();
		return { result, longestMs: Math.round(histogram.max / 1e6) };
	} finally {
		histogram.disable();
	}
}

/** The most one task may hold the host's event loop. */
export const LONGEST_TASK_MS = 200;

/**
 * The model double as its own process, serving `steps` (plain data, test/support/modelDouble's
 * builders): its own work (rendering tens of megabytes into frames) then never counts against
 * the loop being measured. Resolves with the OpenAI-style base URL and a stop function.
 */
export async function doubleProcess(steps: unknown[]): Promise<{ openaiBaseUrl: string; stop(): void }> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-double-'));
	const script = path.join(dir, 'steps.json');
	fs.writeFileSync(script, JSON.stringify(steps));
	const cli = path.resolve(__dirname, '../../support/modelDouble/cli.js');
	const child: ChildProcess = spawn(process.execPath, ['--max-old-space-size=4096', cli, '--script', script], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const url = await new Promise<string>((resolve, reject) => {
		let seen = '';
		child.stdout!.on('data', chunk => {
			seen += String(chunk);
			const match = /MODEL_DOUBLE_URL=(\S+)/.exec(seen);
			if (match) resolve(match[1]);
		});
		child.on('exit', code => reject(new Error(`the model double exited with ${code}`)));
	});
	return {
		openaiBaseUrl: `${url.replace(/\/$/, '')}/v1`,
		stop: () => {
			child.kill();
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}
