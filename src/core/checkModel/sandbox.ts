import { DockerRunner } from '../exec/dockerRunner';
import type { ImageSource } from '../exec/sandbox/sandboxImage';
import type { SandboxLimits } from '../exec/sandbox/sandboxSpec';
import { ShellBackendSelector } from '../exec/shellBackend';
import type { ToolDefinition } from '../tools/defineTool';
import { createShellTools } from '../tools/shell/shellTools';
import type { ScratchFolder } from './scratch';

export interface SandboxOptions {
	image: ImageSource;
	limits: SandboxLimits;
}

export interface CheckSandbox {
	tools: ToolDefinition<any>[];
	dispose(): Promise<void>;
}

/** How long the check's container outlives its last command when the run that made it is gone. */
const CHECK_IDLE_SECONDS = 5 * 60;

/** The first command may build the sandbox image: minutes on a slow machine, once. */
const WARM_UP_MS = 10 * 60_000;

/**
 * run_command for the suite, in the Docker sandbox over the scratch workspace and nowhere
 * else: with no engine the shell task is skipped, never run in the user's terminal. Started
 * (and its image built) before the first trial, so the first task's time is the model's.
 */
export async function startSandbox(
	options: SandboxOptions,
	scratch: ScratchFolder,
	signal: AbortSignal,
	onCleanup?: (dispose: () => Promise<void>) => void,
): Promise<CheckSandbox | undefined> {
	// A container nobody uses for a few minutes (its run was killed) removes itself; a slow model's
	// pause longer than that only means the next command starts a new one.
	const limits = { ...options.limits, idleSeconds: options.limits.idleSeconds ?? CHECK_IDLE_SECONDS };
	const runner = new DockerRunner({ workspaceRoot: scratch.workspace, settings: () => ({ ...options, limits }) });
	onCleanup?.(() => runner.disposeAsync());
	if (!(await runner.available())) {
		await runner.disposeAsync();
		return undefined;
	}
	scratch.owner = foreignOwner(options.limits.user);
	try {
		const warm = await runner.run({
			command: 'true',
			cwd: '',
			timeoutMs: WARM_UP_MS,
			outputLimitBytes: 4096,
			signal,
		});
		if (warm.exitCode !== 0) {
			throw new Error(`the sandbox did not start: ${warm.stderr || warm.stdout}`.trim());
		}
	} catch (error) {
		await runner.disposeAsync();
		throw error;
	}
	const selector = new ShellBackendSelector(() => 'docker', runner, undefined);
	return {
		tools: createShellTools({
			selector,
			settings: () => ({
				timeoutSeconds: 60,
				outputLimitBytes: 64 * 1024,
				memoryMb: options.limits.memoryMb,
				pids: options.limits.pids,
			}),
		}),
		dispose: () => runner.disposeAsync(),
	};
}

/** Running as root, the sandbox runs as another user (sandboxSpec.ts): the workspace is handed to it. */
function foreignOwner(user: string): { uid: number; gid: number } | undefined {
	const [uid, gid] = user.split(':').map(Number);
	return process.getuid?.() === 0 && Number.isInteger(uid) && uid !== 0
		? { uid, gid: Number.isInteger(gid) ? gid : uid }
		: undefined;
}
