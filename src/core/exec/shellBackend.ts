import type { CommandBackend, CommandRunner } from '../ports';
import { ExecError } from './execError';

export type ShellBackendSetting = 'auto' | 'docker' | 'terminal';

/** A sandbox runner as the selector sees it: a runner that can say whether its engine answers. */
export interface SandboxRunner extends CommandRunner {
	available(timeoutMs?: number): Promise<boolean>;
}

export interface BackendChoice {
	backend: CommandBackend;
	runner: CommandRunner;
	/** Said in the chat when the choice was not the obvious one (auto fell back to the terminal). */
	note?: string;
}

export const AUTO_FALLBACK_NOTE =
	'Docker is not available, so this ran in your terminal (keel.shell.backend is "auto"; start Docker to use the sandbox).';

/** Said on the card before approval when the command will run outside the sandbox. */
export const UNSANDBOXED_CAUTION = {
	auto: 'Docker is not available, so this command runs unsandboxed in a VS Code terminal on your machine, with your files and network. Start Docker to use the sandbox, or set `keel.shell.backend`.',
	terminal:
		'This command runs unsandboxed in a VS Code terminal on your machine (`keel.shell.backend` is "terminal").',
};

/**
 * Decides where a command runs. `auto` asks the engine each time (a ping costs ~1 ms
 * locally) and remembers the answer only to title the card before the next decision.
 */
export class ShellBackendSelector {
	private _lastSandboxAnswer: boolean | undefined;

	constructor(
		private readonly _setting: () => ShellBackendSetting,
		private readonly _sandbox: SandboxRunner,
		private readonly _terminal: CommandRunner | undefined,
	) {}

	/** A synchronous guess for the card title; `choose` gives the answer. */
	expected(): CommandBackend {
		const setting = this._setting();
		if (setting === 'auto') {
			return this._lastSandboxAnswer === false && this._terminal ? 'terminal' : 'sandbox';
		}
		return setting === 'terminal' ? 'terminal' : 'sandbox';
	}

	async choose(): Promise<BackendChoice> {
		const setting = this._setting();
		if (setting === 'docker') {
			return { backend: 'sandbox', runner: this._sandbox };
		}
		if (setting === 'terminal') {
			return { backend: 'terminal', runner: this._requireTerminal() };
		}
		this._lastSandboxAnswer = await this._sandbox.available();
		if (this._lastSandboxAnswer) {
			return { backend: 'sandbox', runner: this._sandbox };
		}
		return { backend: 'terminal', runner: this._requireTerminal(), note: AUTO_FALLBACK_NOTE };
	}

	private _requireTerminal(): CommandRunner {
		if (!this._terminal) {
			throw new ExecError(
				'engineUnavailable',
				'No terminal is available here and Docker is not running — start Docker to run commands in the sandbox.',
			);
		}
		return this._terminal;
	}
}
