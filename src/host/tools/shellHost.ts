import type { Gate } from '../../core/gate/gate';
import type * as vscode from 'vscode';
import * as path from 'path';
import { DockerRunner } from '../../core/exec/dockerRunner';
import type { ImageSource } from '../../core/exec/sandbox/sandboxImage';
import { defaultUser, type SandboxLimits } from '../../core/exec/sandbox/sandboxSpec';
import { ShellBackendSelector, type ShellBackendSetting } from '../../core/exec/shellBackend';
import type { Logger } from '../../core/ports';
import type { ToolDefinition } from '../../core/tools/defineTool';
import { createShellTools, type ShellToolSettings } from '../../core/tools/shell/shellTools';
import { DisposableStore } from '../../core/util/lifecycle';
import { readPathPolicy } from '../settings/permissionsConfig';
import { readSetting } from '../settings/settings';
import { namedFolders } from './workspaceFolderNames';
import { TerminalRunner } from './terminalRunner';

/** keel.shell.*; trust-aware, so an untrusted folder cannot widen its own sandbox. */
export function readShellSettings(dockerfileDir: string): {
	backend: ShellBackendSetting;
	image: ImageSource;
	limits: SandboxLimits;
	tool: ShellToolSettings;
} {
	const image = readSetting('shell.image').trim();
	const limits: SandboxLimits = {
		network: readSetting('shell.network').trim() || 'none',
		memoryMb: Math.max(64, readSetting('shell.memoryMb')),
		cpus: Math.max(0.1, readSetting('shell.cpus')),
		pids: Math.max(16, readSetting('shell.pids')),
		tmpSizeMb: Math.max(16, readSetting('shell.tmpSizeMb')),
		user: readSetting('shell.user').trim() || defaultUser(),
	};
	return {
		backend: readSetting('shell.backend'),
		image: image ? { kind: 'user', name: image } : { kind: 'managed', dockerfileDir },
		limits,
		tool: {
			timeoutSeconds: Math.max(1, readSetting('shell.timeoutSeconds')),
			outputLimitBytes: Math.min(4 * 1024 * 1024, Math.max(1024, readSetting('shell.outputLimitBytes'))),
			memoryMb: limits.memoryMb,
			pids: limits.pids,
			gitRepositoryPrograms: readSetting('shell.gitRepositoryPrograms'),
		},
	};
}

/**
 * run_command with its two backends: the Docker sandbox (image from the `sandbox/` folder
 * shipped in the VSIX) and the Keel terminal. Disposing removes the sandbox container.
 */
export function createShellTooling(
	context: vscode.ExtensionContext,
	logger: Logger,
	gate?: Gate,
): { tools: ToolDefinition<any>[]; disposable: vscode.Disposable } {
	const dockerfileDir = context.asAbsolutePath('sandbox');
	const settings = () => readShellSettings(dockerfileDir);
	// Named as the tools name them, so "api/src" is /workspace/api/src in the sandbox and <api's folder>/src in the terminal.
	const folders = () =>
		namedFolders().map(({ name, folder }) => ({
			name,
			path: folder.uri.scheme === 'file' ? folder.uri.fsPath : undefined,
		}));
	const root = () => folders()[0]?.path;
	const mounts = () => {
		const all = folders();
		const onDisk = all.flatMap(({ name, path }) => (path === undefined ? [] : [{ name, path }]));
		// A folder that is not on the local disk cannot be mounted: the sandbox then has no complete workspace.
		if (all.length === 0 || onDisk.length < all.length) {
			return undefined;
		}
		return onDisk.length === 1 ? onDisk[0].path : onDisk;
	};
	const resolveCwd = (cwd: string) => {
		const all = folders();
		if (all.length <= 1) {
			return all[0]?.path ? path.join(all[0].path, cwd) : undefined;
		}
		const [head, ...rest] = cwd.split('/');
		const folder = all.find(f => f.name === head);
		return folder?.path ? path.join(folder.path, ...rest) : undefined;
	};
	const store = new DisposableStore();
	const sandbox = store.add(
		new DockerRunner({ workspaceRoot: mounts, settings: () => settings(), pathPolicy: readPathPolicy, logger }),
	);
	const terminal = store.add(new TerminalRunner({ workspaceRoot: root, resolveCwd }));
	const selector = new ShellBackendSelector(() => settings().backend, sandbox, terminal);
	const tools = createShellTools({ selector, settings: () => settings().tool, pathPolicy: readPathPolicy, gate });
	return { tools, disposable: store };
}
