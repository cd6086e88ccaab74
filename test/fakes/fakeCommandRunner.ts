import type { CommandBackend, CommandRequest, CommandResult, CommandRunner } from '../../src/core/ports';

/**
 * A CommandRunner that records every request and answers from a script: a partial result,
 * an Error to throw, or a function of the request. Streams `stdout` through onOutput the way
 * a real backend does. `available` answers the `auto` backend's question.
 */
export class FakeCommandRunner implements CommandRunner {
	readonly requests: CommandRequest[] = [];
	availableAnswer = true;
	availableCalls = 0;

	constructor(
		readonly backend: CommandBackend,
		private readonly _script: Array<
			Partial<CommandResult> | Error | ((request: CommandRequest) => Partial<CommandResult>)
		> = [],
	) {}

	async available(): Promise<boolean> {
		this.availableCalls++;
		return this.availableAnswer;
	}

	async run(request: CommandRequest): Promise<CommandResult> {
		this.requests.push(request);
		const next = this._script.shift() ?? {};
		if (next instanceof Error) {
			throw next;
		}
		const partial = typeof next === 'function' ? next(request) : next;
		const result: CommandResult = {
			backend: this.backend,
			stdout: '',
			stderr: '',
			exitCode: 0,
			durationMs: 12,
			truncated: false,
			timedOut: false,
			...partial,
		};
		if (result.stdout) {
			request.onOutput?.(result.stdout);
		}
		return result;
	}
}
