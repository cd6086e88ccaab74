import type { ServerWindowFigures } from './score';
import { classifyFailure } from '../agent/recovery/failures/failureTable';
import { redactDeep } from '../gate/redact/redact';
import type { RecoverySettings } from '../agent/recovery/recoverySettings';
import { AgentError, toAgentError } from '../errors';
import type { ChatModel } from '../llm/chatModel';
import { askForToolCall } from '../llm/catalog/toolProbe';
import { MeteredChatModel } from './meter';
import { buildReport } from './report';
import { startSandbox, type CheckSandbox, type SandboxOptions } from './sandbox';
import { reapScratchFolders, ScratchFolder } from './scratch';
import { CHECK_TASKS, type CheckTask } from './suite';
import { runTrial } from './trial';
import { probeForcing } from './forcingProbe';
import type { ForcingMemory } from '../agent/recovery/forcingMemory';
import type { CheckReport, CurrentSettings, ToolCallMode, TrialResult } from './types';

export interface CheckProgress {
	/** One line for the progress notification or the terminal. */
	message: string;
	/** Trials finished, of `total`. */
	done: number;
	total: number;
	task?: { id: string; title: string; index: number; count: number };
	trial?: number;
	trials?: number;
	mode?: ToolCallMode;
}

export interface CheckModelOptions {
	model: ChatModel;
	endpoint: { provider: string; baseUrl: string; model: string };
	/** The user's settings now, which the recommendations are measured against. */
	current: CurrentSettings;
	/** Times each task runs per mode (k of pass^k); default 3. */
	trials?: number;
	tasks?: readonly CheckTask[];
	/** Default: native and text when the server takes native tool calls, else text. */
	modes?: readonly ToolCallMode[];
	/** Where commands run; absent or without a Docker engine, the shell task is skipped. */
	sandbox?: SandboxOptions;
	/** The user's recovery settings (the tool mode is set per trial). */
	recovery?: Partial<RecoverySettings>;
	/** Where what the server does with a forced call is kept (the loop reads it); the probe writes it. */
	forcingMemory?: ForcingMemory;
	/** What the server says of the model's window: trained for, and running now. */
	serverWindow?(): Promise<ServerWindowFigures>;
	signal?: AbortSignal;
	/**
	 * Hears each clean-up as soon as there is something to clean (the scratch folder, the
	 * container), so a caller stopping at once (a second Ctrl+C) can run them without waiting
	 * for the suite to unwind. They are safe to run twice.
	 */
	onCleanup?(dispose: () => Promise<void>): void;
	onProgress?(progress: CheckProgress): void;
	onTrial?(result: TrialResult): void;
	/** Parent of the scratch folder; default the system's temporary folder. */
	tmpDir?: string;
	trialTimeoutMs?: number;
	now?(): number;
}

/**
 * Check Model: the suite against one model on one endpoint, k trials of every task in each
 * tool-call mode, in a scratch folder that is removed at the end whatever happens (cancel,
 * error), with the sandbox container. Throws AgentError('cancelled') when cancelled.
 */
export async function runCheckModel(options: CheckModelOptions): Promise<CheckReport> {
	const signal = options.signal ?? new AbortController().signal;
	const now = options.now ?? Date.now;
	const started = now();
	const trials = Math.max(1, Math.floor(options.trials ?? 3));
	const tasks = options.tasks ?? CHECK_TASKS;
	const model = new MeteredChatModel(options.model);
	options.onProgress?.({ message: `Asking ${options.endpoint.model} for one tool call…`, done: 0, total: 0 });
	const probe = await probeNative(options.model, signal);
	const modes = options.modes ?? (probe.nativeOffered ? ['native', 'text'] : ['text']);
	// What a killed run left (its owner gone): scratch folders here, containers when the sandbox starts.
	await reapScratchFolders(options.tmpDir);
	if (probe.nativeOffered) {
		options.onProgress?.({ message: 'Asking the server to force a tool call…', done: 0, total: 0 });
	}
	const forcing = probe.nativeOffered ? await probeForcing(options.model, signal, options.forcingMemory) : undefined;
	const scratch = await ScratchFolder.create(options.tmpDir);
	options.onCleanup?.(() => scratch.dispose());
	let sandbox: CheckSandbox | undefined;
	try {
		const skipped: CheckReport['skipped'] = [];
		if (tasks.some(task => task.needsShell)) {
			sandbox = await prepareSandbox(options, scratch, signal, skipped, tasks);
		}
		const runnable = tasks.filter(task => !skipped.some(s => s.taskId === task.id));
		const results = await runTrials(runnable, modes, trials, { options, model, scratch, sandbox, signal });
		// A server's words end up in the report (an error body that echoes the key it was sent):
		// the report is redacted as a whole, so report.json, the Markdown and the tab all show it cut.
		const report = buildReport({
			endpoint: options.endpoint,
			startedAt: started,
			durationMs: now() - started,
			trials,
			tasks,
			skipped,
			sandbox: sandbox !== undefined,
			probe: probe.detail,
			...(forcing ? { forcing } : {}),
			nativeOffered: probe.nativeOffered,
			modes,
			results,
			samples: model.samples,
			current: options.current,
			server: await options.serverWindow?.().catch(() => undefined),
		});
		return redactDeep(report).value;
	} finally {
		await sandbox?.dispose().catch(() => undefined);
		await scratch.dispose();
	}
}

interface RunState {
	options: CheckModelOptions;
	model: MeteredChatModel;
	scratch: ScratchFolder;
	sandbox?: CheckSandbox;
	signal: AbortSignal;
}

async function runTrials(
	tasks: readonly CheckTask[],
	modes: readonly ToolCallMode[],
	trials: number,
	state: RunState,
): Promise<TrialResult[]> {
	const { options } = state;
	const results: TrialResult[] = [];
	const total = tasks.length * modes.length * trials;
	for (const [index, task] of tasks.entries()) {
		for (const mode of modes) {
			for (let trial = 1; trial <= trials; trial++) {
				if (state.signal.aborted) {
					throw new AgentError('cancelled', 'Check Model was cancelled.');
				}
				options.onProgress?.({
					message: `Task ${index + 1}/${tasks.length}: ${task.title} · trial ${trial}/${trials} · ${mode}`,
					done: results.length,
					total,
					task: { id: task.id, title: task.title, index: index + 1, count: tasks.length },
					trial,
					trials,
					mode,
				});
				const result = await runTrial(task, mode, trial, {
					model: state.model,
					scratch: state.scratch,
					shellTools: state.sandbox?.tools,
					recovery: options.recovery ?? {},
					contextWindow: options.current.contextWindow,
					forcingMemory: options.forcingMemory,
					signal: state.signal,
					trialTimeoutMs: options.trialTimeoutMs ?? 5 * 60_000,
					now: () => performance.now(),
				});
				results.push(result);
				options.onTrial?.(result);
			}
		}
	}
	return results;
}

async function prepareSandbox(
	options: CheckModelOptions,
	scratch: ScratchFolder,
	signal: AbortSignal,
	skipped: CheckReport['skipped'],
	tasks: readonly CheckTask[],
): Promise<CheckSandbox | undefined> {
	const skip = (why: string) => tasks.filter(t => t.needsShell).forEach(t => skipped.push({ taskId: t.id, why }));
	if (!options.sandbox) {
		skip('commands run only in the Docker sandbox, which is not set up here');
		return undefined;
	}
	options.onProgress?.({ message: 'Starting the Docker sandbox for the shell task…', done: 0, total: 0 });
	try {
		const sandbox = await startSandbox(options.sandbox, scratch, signal, options.onCleanup);
		if (!sandbox) {
			skip('Docker is not available: commands run only in its sandbox, never in your terminal');
		}
		return sandbox;
	} catch (error) {
		if (signal.aborted) {
			throw new AgentError('cancelled', 'Check Model was cancelled.');
		}
		skip(`the Docker sandbox did not start: ${toAgentError(error).message}`);
		return undefined;
	}
}

/**
 * One tool call asked for before the suite. A server that refuses native tools for this model
 * is told apart from one that is down: the first means text mode only, the second ends the check.
 */
async function probeNative(
	model: ChatModel,
	signal: AbortSignal,
	attempt = 1,
): Promise<{ nativeOffered: boolean; detail: string }> {
	try {
		const result = await askForToolCall(model, AbortSignal.any([signal, AbortSignal.timeout(5 * 60_000)]));
		return { nativeOffered: true, detail: result.detail };
	} catch (error) {
		if (signal.aborted) {
			throw new AgentError('cancelled', 'Check Model was cancelled.');
		}
		const failure = classifyFailure(error).failureClass;
		if (failure === 'toolsUnsupported') {
			return {
				nativeOffered: false,
				detail: `The server refused native tool calls: ${toAgentError(error).message}`,
			};
		}
		if ((failure === 'transient' || failure === 'stream') && attempt < 3) {
			await new Promise(resolve => setTimeout(resolve, 1000 * attempt));
			return probeNative(model, signal, attempt + 1);
		}
		const agentError = toAgentError(error);
		throw new AgentError(agentError.code, `Check Model could not start: ${agentError.message}`, agentError.details);
	}
}
