/**
 * What the tools need from outside the call itself. The host builds one from settings and
 * VS Code (its rg, its diagnostics, its files.exclude); tests and benches use the defaults
 * (bundled rg, system DNS, in-memory outputs) and override what they exercise.
 */
import { Gate } from '../gate/gate';
import { InMemoryOutputStore, type OutputStore } from './outputStore';
import { defaultPathPolicy, type PathPolicy } from '../gate/paths/pathPolicy';
import type { WorkspaceGuard } from '../gate/paths/paths';
import { bundledRgPath } from './search/ripgrep';
import type { NetworkOptions } from '../gate/network/urls';
import type { ToolContext } from './defineTool';
import { ToolResultCache } from './resultCache';
import { defaultToolSystemConfig, type ToolSystemConfig } from './toolSystemConfig';

export interface DiagnosticEntry {
	path: string;
	line: number;
	column: number;
	severity: 'error' | 'warning' | 'info' | 'hint';
	message: string;
	source?: string;
	code?: string;
}

/** VS Code's problems, through a port so the tool runs on plain Node too. */
export interface DiagnosticsSource {
	/** For one workspace-relative file, or the whole workspace when path is undefined. */
	get(path: string | undefined): DiagnosticEntry[];
}

export interface ToolDeps {
	pathPolicy(): PathPolicy;
	/** The one gate (gate/gate.ts); without it, a gate over pathPolicy() alone. */
	gate?: Gate;
	/** ripgrep binary; undefined disables grep and makes find_path fall back to Workspace.findFiles. */
	rgPath(): string | undefined;
	/** The user's files.exclude (and search.exclude) globs, honoured by find_path and grep. */
	excludes(): string[];
	diagnostics?: DiagnosticsSource;
	network: NetworkOptions;
	outputs: OutputStore;
	/** Filters, overflow threshold and cache settings (keel.filters.*, keel.tools.*), read per call. */
	toolSystem?(): ToolSystemConfig;
	/** The session result cache; the host invalidates it when files change outside the agent. */
	resultCache?: ToolResultCache;
}

export function defaultToolDeps(overrides: Partial<ToolDeps> = {}): ToolDeps {
	const rg = bundledRgPath();
	return {
		pathPolicy: () => defaultPathPolicy,
		rgPath: () => rg,
		excludes: () => [],
		network: {},
		outputs: new InMemoryOutputStore(),
		toolSystem: () => defaultToolSystemConfig(),
		resultCache: new ToolResultCache(),
		...overrides,
	};
}

/** The gate the tools decide through: the host's, or one over the tools' own path policy. */
export function gateOf(deps: Pick<ToolDeps, 'pathPolicy' | 'gate'>): Gate {
	return deps.gate ?? new Gate({ policy: () => deps.pathPolicy() });
}

export function guardFor(deps: ToolDeps, context: ToolContext): WorkspaceGuard {
	return gateOf(deps).files(context.workspace);
}
