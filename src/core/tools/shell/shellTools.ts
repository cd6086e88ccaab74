import * as z from 'zod';
import { ExecError, tail } from '../../exec/execError';
import { UNSANDBOXED_CAUTION, type BackendChoice, type ShellBackendSelector } from '../../exec/shellBackend';
import { Gate } from '../../gate/gate';
import type { CommandBackend, CommandResult, Workspace } from '../../ports';
import { defineTool, fail, ok, type ToolDefinition, type ToolResult } from '../defineTool';
import { loadBashParser } from '../../shell/bashParser';
import { defaultPathPolicy, type PathPolicy } from '../../gate/paths/pathPolicy';
import { PathRefused, type ResolvedPath, type WorkspaceGuard } from '../../gate/paths/paths';
import { splitCommandLine } from '../../shell/shellRules';
import { landingName } from '../../shell/writers/shellWrites';
import { defaultGit, wordReasons } from './shellReasons';
import { gitProgramsOff } from './gitProgramsOff';
import type { GitQuestions } from '../../gate/gitOracle';
import { multiRootFolders } from '../../gate/paths/workspaceFolders';
import { provesReadOnly } from '../../shell/readOnlyLine';
import { durationText } from '../../util/duration';

export interface ShellToolSettings {
	timeoutSeconds: number;
	outputLimitBytes: number;
	/** For messages only: the limits a command ran into. */
	memoryMb: number;
	pids: number;
	/** keel.shell.gitRepositoryPrograms: git may run the programs the repository's configuration names. */
	gitRepositoryPrograms?: boolean;
}

export interface ShellToolDeps {
	selector: ShellBackendSelector;
	settings(): ShellToolSettings;
	/** Deny-read and protected paths for redirect targets; defaults to the built-in lists. */
	pathPolicy?(): PathPolicy;
	/** The one gate; without it, a gate over pathPolicy(). */
	gate?: Gate;
	/** git, asked what a git command will print; the gate's neutralised git by default. */
	git?: GitQuestions;
}

function gateOfShell(deps: ShellToolDeps): Gate {
	return deps.gate ?? new Gate({ policy: () => deps.pathPolicy?.() ?? defaultPathPolicy });
}

/** What the card showed: the canonical cwd and redirect targets execute re-checks. */
interface ShellPlan {
	choice: BackendChoice;
	cwd: ResolvedPath;
	targets: Array<{ resolved: ResolvedPath; intent: 'read' | 'write'; byArgument?: true }>;
	/** Why the card asked: a reason that appears only after approval (a word now names a link out) stops the run. */
	reasons: string[];
}

const WHERE: Record<CommandBackend, string> = { sandbox: 'sandbox', terminal: 'terminal' };
const MAX_TIMEOUT_SECONDS = 3600;

function title(command: string, backend: CommandBackend): string {
	const line = command.length > 200 ? `${command.slice(0, 200)}…` : command;
	return `Run \`${line}\` (${WHERE[backend]})`;
}

/** Stdout and stderr as the model reads them; a terminal has only the one stream. */
function body(result: CommandResult, lastLines?: number): string {
	const cut = (text: string) => (lastLines ? tail(text, lastLines, 8000) : text.trimEnd());
	const parts = [cut(result.stdout)];
	if (result.stderr.trim()) {
		parts.push(`[stderr]\n${cut(result.stderr)}`);
	}
	return parts.filter(Boolean).join('\n') || '(no output)';
}

/** Where the command ran, as the card says it: the terminal, or the sandbox on the workspace shared, mapped or copied. */
function whereItRan(result: CommandResult): string {
	if (result.backend === 'terminal') return 'in the terminal';
	if (result.copied) {
		return `in the sandbox on a copy of the workspace (the engine at ${result.copied.engine} does not see this folder)`;
	}
	return result.mappedTo
		? `in the sandbox (workspace mounted from ${result.mappedTo} on the engine's machine)`
		: 'in the sandbox';
}

/**
 * On a copy, what the command changed is handed to the loop as calls of the file tools
 * (`writesBack`): each is prepared, shown with its diff and decided like the model's own call.
 */
function copiedFields(result: CommandResult): Record<string, unknown> {
	const workspaceMode =
		result.backend === 'terminal' ? undefined : result.copied ? 'copied' : result.mappedTo ? 'mapped' : 'shared';
	if (!result.copied) return workspaceMode ? { workspaceMode } : {};
	const writesBack = result.copied.changes.map(change =>
		change.deleted
			? { name: 'delete_path', input: { path: change.path } }
			: { name: 'write_file', input: { path: change.path, content: change.content ?? '' } },
	);
	return { workspaceMode, writesBack, leftInCopy: result.copied.leftInCopy };
}

function copiedNote(result: CommandResult): string {
	if (!result.copied) return '';
	const { changes, leftInCopy } = result.copied;
	const back = changes.length
		? `${changes.length} changed file(s) come back only as file writes, each decided like any write: ${changes.map(c => c.path).join(', ')}`
		: 'it changed no file';
	const left = leftInCopy.length ? `; left in the copy: ${leftInCopy.join(', ')}` : '';
	return `\n[the workspace was copied to the engine; ${back}${left}]`;
}

/** A command that ran becomes one envelope; a failure carries the reason, the code and the tail. */
export function commandToolResult(
	command: string,
	result: CommandResult,
	settings: ShellToolSettings,
	note?: string,
): ToolResult {
	const where = whereItRan(result);
	const fields = {
		backend: result.backend,
		exitCode: result.exitCode,
		stdout: result.stdout,
		stderr: result.stderr,
		durationMs: result.durationMs,
		truncated: result.truncated,
		timedOut: result.timedOut,
		limitHit: result.limitHit,
		mappedTo: result.mappedTo,
		...copiedFields(result),
	};
	const noteLine = (note ? `\n[${note}]` : '') + copiedNote(result);
	const cap = result.truncated ? ' (output truncated: the middle was dropped)' : '';
	if (result.cancelled) {
		return fail(`The user stopped \`${command}\` ${where}; it was killed.${noteLine}`, fields);
	}
	if (result.timedOut) {
		return fail(
			`\`${command}\` timed out after ${durationText(result.durationMs)} ${where}; it and every process it started were killed. If it needs longer, call again with a larger timeoutSeconds; do not start servers or watchers that never exit. Output before the kill (end):\n${body(result, 40)}${noteLine}`,
			fields,
		);
	}
	if (result.limitHit === 'memory') {
		return fail(
			`\`${command}\` ran out of memory ${where} and was killed by the kernel (limit ${settings.memoryMb} MB, setting keel.shell.memoryMb). Use less memory, e.g. smaller inputs or fewer parallel jobs. Exit code ${result.exitCode}. Output (end):\n${body(result, 40)}${noteLine}`,
			fields,
		);
	}
	if (result.limitHit === 'pids') {
		return fail(
			`\`${command}\` hit the sandbox's process limit (${settings.pids} processes, setting keel.shell.pids): it could not start more processes. Exit code ${result.exitCode}. Output (end):\n${body(result, 40)}${noteLine}`,
			fields,
		);
	}
	if (result.exitCode === undefined) {
		return ok(
			`${body(result)}\n[ran ${where} in ${durationText(result.durationMs)}; exit code unknown${cap}]${noteLine}`,
			fields,
		);
	}
	if (result.exitCode !== 0) {
		return fail(
			`\`${command}\` failed with exit code ${result.exitCode} ${where} after ${durationText(result.durationMs)}${cap}. Output (end):\n${body(result, 60)}${noteLine}`,
			fields,
		);
	}
	return ok(
		`${body(result)}\n[exit code 0 · ${durationText(result.durationMs)} · ran ${where}${cap}]${noteLine}`,
		fields,
	);
}

/**
 * The cwd and every redirect target, resolved through symlinks as the file tools resolve
 * paths: a target that leaves the workspace, is protected or deny-listed makes the call ask
 * (with the reason on the card); permission rules see the canonical names too. A copy or move
 * into a folder writes folder/<name>: that is a target too, decided where it really lands.
 */
async function plan(
	command: string,
	cwdInput: string | undefined,
	guard: WorkspaceGuard,
	workspace: Workspace,
): Promise<{ cwd: ResolvedPath; targets: ShellPlan['targets']; reasons: string[] }> {
	let cwd: ResolvedPath;
	try {
		cwd = await guard.resolve(cwdInput ?? '', 'list');
	} catch (error) {
		throw error instanceof PathRefused ? new PathRefused(`cwd: ${error.message}`) : error;
	}
	const parsed = splitCommandLine(command);
	const targets: ShellPlan['targets'] = [];
	const reasons: string[] = [];
	const check = async (written: string, path: string | undefined, intent: 'read' | 'write', byArgument?: true) => {
		if (path === undefined) {
			reasons.push(`${written}: the file it writes is only known when bash runs it`);
			return undefined;
		}
		if (path.startsWith('/') || path.startsWith('~')) {
			reasons.push(`${written}: ${intent === 'write' ? 'writes' : 'reads'} outside the workspace`);
			return undefined;
		}
		try {
			// As the kernel will open it: every segment a name, each `..` after the real folder it follows.
			const resolved = await guard.resolveWord(cwd.canonical ? `${cwd.canonical}/${path}` : path, intent);
			targets.push({ resolved, intent, ...(byArgument ? { byArgument } : {}) });
			if (intent === 'write' && resolved.protectedReason) {
				reasons.push(`${written}: ${resolved.protectedReason}`);
			}
			return resolved;
		} catch (error) {
			if (!(error instanceof PathRefused)) throw error;
			reasons.push(`${written}: ${error.message}`);
			return undefined;
		}
	};
	for (const target of parsed.writes) {
		const resolved = await check(target.written, target.path, 'write', target.byArgument);
		if (!resolved || !target.into || (await workspace.stat(resolved.path))?.type !== 'directory') {
			continue;
		}
		for (const source of target.into) {
			const name = landingName(source);
			await check(
				name === undefined ? `${target.written}/…` : `${target.written}/${name}`,
				name === undefined ? undefined : `${target.path}/${name}`,
				'write',
			);
		}
	}
	for (const target of parsed.reads) await check(target.written, target.path, 'read');
	return { cwd, targets, reasons };
}

export function createShellTools(deps: ShellToolDeps): ToolDefinition<any>[] {
	const runCommand: ToolDefinition<{ command: string; cwd?: string; timeoutSeconds?: number }> = defineTool({
		name: 'run_command',
		description:
			'Run a shell command (bash) in the workspace and get its stdout, stderr and exit code. It runs in an isolated sandbox ' +
			"(no network, limited memory and processes, only the workspace is writable) or in the user's terminal, as the user chose. " +
			'The command must finish on its own: no interactive prompts, servers or watchers. Each call starts fresh in `cwd`.',
		input: z.object({
			command: z.string().min(1).describe('The command line, e.g. "npm test" or "ls -la src"'),
			cwd: z.string().optional().describe('Workspace-relative folder to run in (default: the workspace root)'),
			timeoutSeconds: z
				.number()
				.int()
				.min(1)
				.max(MAX_TIMEOUT_SECONDS)
				.optional()
				.describe("Kill the command after this many seconds (default from the user's settings, 30)"),
		}),
		effect: 'exec',
		// Only what the shell analysis proves (readOnlyLine.ts) may run beside other reads.
		readsOnly: input => provesReadOnly(input.command),
		describe: input => title(input.command, deps.selector.expected()),
		subjects: input => [{ kind: 'command', values: [input.command] }],
		// Decides where it runs before the approval card is shown, so the card says the truth.
		async prepare(input, { workspace }) {
			// The policy decides on bash's own parse; if the parser cannot load, it fails closed (asks).
			await loadBashParser().catch(() => undefined);
			const gate = gateOfShell(deps);
			const guard = gate.files(workspace);
			const { cwd, targets, reasons } = await plan(input.command, input.cwd, guard, workspace);
			if (cwd.path && (await workspace.stat(cwd.path))?.type !== 'directory') {
				throw new PathRefused(
					`cwd "${input.cwd}" is not a folder of the workspace. Omit cwd to run at the root.`,
				);
			}
			const choice = await deps.selector.choose();
			const judge = { guard, workspace, gate, git: deps.git ?? defaultGit() };
			reasons.push(...(await wordReasons(input.command, cwd.canonical, judge, choice.backend)));
			const folders = multiRootFolders(workspace);
			// The sandbox has every folder under /workspace; a terminal has no such place, only the folders themselves.
			if (folders && cwd.canonical === '' && choice.backend === 'terminal') {
				throw new PathRefused(
					`This workspace has several folders (${folders.map(f => f.name).join(', ')}) and the command runs in the terminal, which starts inside one of them: pass cwd, e.g. "${folders[0].name}".`,
				);
			}
			const data: ShellPlan = { choice, cwd, targets, reasons };
			return {
				title: title(input.command, choice.backend),
				...(choice.backend === 'terminal'
					? {
							caution: {
								text: choice.note ? UNSANDBOXED_CAUTION.auto : UNSANDBOXED_CAUTION.terminal,
								setting: 'keel.shell.backend',
							},
						}
					: {}),
				data,
				protectedReasons: reasons,
				canonicalPaths: targets.map(t => t.resolved.canonical),
				coveredByCommand: targets.filter(t => t.byArgument).map(t => t.resolved.canonical),
			};
		},
		async execute(input, context): Promise<ToolResult> {
			const { signal, progress } = context;
			const gate = gateOfShell(deps);
			const guard = gate.files(context.workspace);
			const approved: ShellPlan =
				(context.prepared?.data as ShellPlan | undefined) ??
				((await runCommand.prepare!(input, context)).data as ShellPlan);
			// What the card showed is what runs: the cwd and each target must still resolve to the same place.
			const cwd = (await guard.confirm(approved.cwd, 'list')).canonical;
			for (const target of approved.targets) {
				await guard.confirm(target.resolved, target.intent);
			}
			// ...and every word still names what it named then (a file swapped for a link to .env while the card waited).
			const judge = { guard, workspace: context.workspace, gate, git: deps.git ?? defaultGit() };
			const now = [
				...(await plan(input.command, input.cwd, guard, context.workspace)).reasons,
				...(await wordReasons(input.command, cwd, judge, approved.choice.backend)),
			];
			const changed = now.filter(reason => !approved.reasons.includes(reason));
			if (changed.length > 0) {
				throw new PathRefused(
					`The files this command names changed since it was approved: ${changed.join('; ')}. Nothing was run; call again so the user sees what it touches now.`,
				);
			}
			const choice = approved.choice;
			const settings = deps.settings();
			const env = await gitProgramsOff(
				input.command,
				cwd,
				context.workspace,
				judge.git,
				choice.backend,
				settings.gitRepositoryPrograms === true,
			);
			try {
				const result = await choice.runner.run({
					env,
					command: input.command,
					cwd,
					timeoutMs: (input.timeoutSeconds ?? settings.timeoutSeconds) * 1000,
					outputLimitBytes: settings.outputLimitBytes,
					signal,
					onOutput: progress,
				});
				return commandToolResult(input.command, result, settings, choice.note);
			} catch (error) {
				if (error instanceof ExecError) {
					return fail(error.message, { backend: choice.backend, errorCode: error.code });
				}
				throw error;
			}
		},
	});
	return [runCommand];
}
