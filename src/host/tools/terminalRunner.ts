import * as path from 'path';
import * as vscode from 'vscode';
import { CappedOutput, cappedProgress } from '../../core/exec/cappedOutput';
import { ExecError } from '../../core/exec/execError';
import { terminalText } from '../../core/filters/sanitize';
import type { CommandRequest, CommandResult, CommandRunner } from '../../core/ports';
import { onAbort, sleep } from '../../core/util/abort';

export interface TerminalRunnerOptions {
	workspaceRoot(): string | undefined;
	/** The disk folder of a workspace-relative cwd; multi-root workspaces map "name/…" to that folder. Default: under workspaceRoot. */
	resolveCwd?(cwd: string): string | undefined;
	/** How long to wait for shell integration in a new terminal before refusing. */
	shellIntegrationTimeoutMs?: number;
	/** Tests pick a shell; users get their default profile. */
	shellPath?: string;
	name?: string;
}

/** Time between Ctrl+C at the deadline and closing the terminal, for a command that ignores it. */
const INTERRUPT_GRACE_MS = 2000;

function singleQuoted(value: string): string {
	return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs commands in a "Keel" terminal the user can watch, through shell integration: the
 * command's own output stream and its real exit code. Without shell integration we cannot
 * know when a command ended or how, so we refuse with the fix rather than guess (sendText
 * would leave the model with an invented exit code). A terminal has one stream: stderr is
 * part of stdout here.
 */
export class TerminalRunner implements CommandRunner, vscode.Disposable {
	readonly backend = 'terminal' as const;
	private _terminal: vscode.Terminal | undefined;
	/** The environment the terminal was made with: a command that needs another gets a new terminal. */
	private _terminalEnv = '';
	private _queue: Promise<unknown> = Promise.resolve();

	constructor(private readonly _options: TerminalRunnerOptions) {}

	run(request: CommandRequest): Promise<CommandResult> {
		const next = this._queue.then(() => this._run(request));
		this._queue = next.catch(() => undefined);
		return next;
	}

	private _ensureTerminal(cwd: string | undefined, env: Readonly<Record<string, string>> = {}): vscode.Terminal {
		// The environment is the terminal's, set when it starts: a shell's rc files run before any command, and no prefix shows in the line.
		const wanted = JSON.stringify(env);
		if (this._terminal && this._terminal.exitStatus === undefined && wanted !== this._terminalEnv) {
			this._terminal.dispose();
			this._terminal = undefined;
		}
		if (!this._terminal || this._terminal.exitStatus !== undefined) {
			this._terminalEnv = wanted;
			this._terminal = vscode.window.createTerminal({
				name: this._options.name ?? 'Keel',
				cwd,
				shellPath: this._options.shellPath,
				isTransient: true,
				env: { ...env },
			});
		}
		return this._terminal;
	}

	private async _shellIntegration(terminal: vscode.Terminal): Promise<vscode.TerminalShellIntegration | undefined> {
		if (terminal.shellIntegration) {
			return terminal.shellIntegration;
		}
		const timeoutMs = this._options.shellIntegrationTimeoutMs ?? 5000;
		return new Promise(resolve => {
			const timer = setTimeout(() => done(terminal.shellIntegration), timeoutMs);
			const listener = vscode.window.onDidChangeTerminalShellIntegration(event => {
				if (event.terminal === terminal) {
					done(event.shellIntegration);
				}
			});
			const done = (value: vscode.TerminalShellIntegration | undefined) => {
				clearTimeout(timer);
				listener.dispose();
				resolve(value);
			};
		});
	}

	private async _run(request: CommandRequest): Promise<CommandResult> {
		const root = this._options.workspaceRoot();
		const target = this._options.resolveCwd
			? this._options.resolveCwd(request.cwd)
			: root
				? path.join(root, request.cwd)
				: undefined;
		const terminal = this._ensureTerminal(root, request.env);
		terminal.show(true);
		const integration = await this._shellIntegration(terminal);
		if (!integration) {
			throw new ExecError(
				'shellIntegrationUnavailable',
				`Shell integration did not start in the Keel terminal within ${Math.round((this._options.shellIntegrationTimeoutMs ?? 5000) / 1000)} s, so Keel cannot tell when a command ends or how it exited; nothing was run. Use bash, zsh, fish or PowerShell with terminal.integrated.shellIntegration.enabled on, or set keel.shell.backend to docker.`,
			);
		}
		if (request.signal?.aborted) {
			throw new ExecError('cancelled', 'Stopped before the command ran.');
		}
		const here = integration.cwd?.fsPath;
		const commandLine =
			target && here !== target ? `cd ${singleQuoted(target)} && ${request.command}` : request.command;

		const started = Date.now();
		const output = new CappedOutput(request.outputLimitBytes);
		const progress = cappedProgress(request.outputLimitBytes, request.onOutput);
		let stopped: 'timeout' | 'cancel' | undefined;
		let graceTimer: NodeJS.Timeout | undefined;
		// The executor runs at once, so `resolveEnd` is the promise's own before the listener below exists.
		let resolveEnd: (exitCode: number | undefined) => void = () => undefined;
		const ended = new Promise<number | undefined>(resolve => (resolveEnd = resolve));
		const execution = integration.executeCommand(commandLine);
		const endListener = vscode.window.onDidEndTerminalShellExecution(event => {
			if (event.execution === execution) {
				resolveEnd(event.exitCode);
			}
		});
		// read() must start at once: data that arrives before it is not replayed.
		const reading = (async () => {
			for await (const data of execution.read()) {
				const text = terminalText(data);
				output.push(Buffer.from(text));
				progress(text);
			}
		})().catch(() => undefined);

		const stop = (why: 'timeout' | 'cancel') => {
			if (stopped) {
				return;
			}
			stopped = why;
			// Ctrl+C reaches the whole foreground process group; closing the terminal (SIGHUP to
			// its session) is the backstop for a command that ignores it.
			terminal.sendText('\x03', false);
			graceTimer = setTimeout(() => {
				resolveEnd(undefined);
				if (this._terminal === terminal) {
					this._terminal = undefined;
				}
				terminal.dispose();
			}, INTERRUPT_GRACE_MS);
		};
		const timer = setTimeout(() => stop('timeout'), request.timeoutMs);
		const cancelled = onAbort(request.signal, () => stop('cancel'));
		let exitCode: number | undefined;
		try {
			exitCode = await ended;
			// The end event can beat the last chunk of output; give the stream a moment to drain.
			await Promise.race([reading, sleep(500)]);
		} finally {
			clearTimeout(timer);
			clearTimeout(graceTimer);
			cancelled.dispose();
			endListener.dispose();
		}
		return {
			backend: 'terminal',
			stdout: output.text(),
			stderr: '',
			exitCode,
			durationMs: Date.now() - started,
			truncated: output.truncated,
			timedOut: stopped === 'timeout',
			cancelled: stopped === 'cancel',
		};
	}

	dispose(): void {
		this._terminal?.dispose();
		this._terminal = undefined;
	}
}
