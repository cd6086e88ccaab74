// Real bash on this machine as a run_command backend: the security tier runs every generated
// attack line through Keel's pipeline and then, if Keel lets it run, through bash itself, so
// "got through" means bash really did it. HOME points at a folder outside the workspace.
import { spawn } from 'child_process';
import * as path from 'path';
import type { CommandRequest, CommandResult, CommandRunner } from '../../../src/core/ports';

export class LocalBashRunner implements CommandRunner {
	readonly backend = 'terminal' as const;
	readonly ran: string[] = [];
	constructor(
		private readonly _root: string,
		private readonly _home: string,
	) {}

	run(request: CommandRequest): Promise<CommandResult> {
		this.ran.push(request.command);
		const started = Date.now();
		return new Promise(resolve => {
			const child = spawn('bash', ['-c', request.command], {
				cwd: path.join(this._root, request.cwd),
				// The environment a command asks for is the Keel terminal's own (terminalRunner.ts).
				env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this._home, LANG: 'C.UTF-8', ...request.env },
				stdio: ['ignore', 'pipe', 'pipe'],
				// Its own process group, ended whole at the deadline: a pager or editor it started would hold the pipes open.
				detached: true,
			});
			const endGroup = () => {
				try {
					process.kill(-child.pid!, 'SIGKILL');
				} catch {
					// Already gone.
				}
			};
			const deadline = setTimeout(endGroup, 5000);
			child.on('exit', () => {
				clearTimeout(deadline);
				endGroup();
			});
			let stdout = '';
			let stderr = '';
			child.stdout.on('data', chunk => {
				stdout += chunk;
				request.onOutput?.(String(chunk));
			});
			child.stderr.on('data', chunk => (stderr += chunk));
			child.on('close', code =>
				resolve({
					backend: 'terminal',
					stdout,
					stderr,
					exitCode: code ?? undefined,
					durationMs: Date.now() - started,
					truncated: false,
					timedOut: false,
				}),
			);
		});
	}
}
