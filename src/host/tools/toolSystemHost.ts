import * as vscode from 'vscode';
import { defaultToolPolicySettings, ToolPolicy, type ToolPolicySettings } from '../../core/agent/toolPolicy/toolPolicy';
import { FilterEngine } from '../../core/filters/engine';
import { parseRuleFile, type RuleEntry } from '../../core/filters/ruleFile';
import type { Gate } from '../../core/gate/gate';
import type { Logger, Workspace } from '../../core/ports';
import { ToolResultCache } from '../../core/tools/resultCache';
import { overflowThreshold, type ToolSystemConfig } from '../../core/tools/toolSystemConfig';
import { Disposable } from '../../core/util/lifecycle';
import { checkPattern } from '../../core/patterns/linearRegex';
import { warnUnrunnablePatterns } from '../settings/patternWarnings';
import { readSetting } from '../settings/settings';
import { readText } from './hostFiles';
import { relativeOfUri } from './workspaceFolderNames';

/** The workspace's own filter rules; read only in a trusted workspace (they decide what the model sees). */
export const WORKSPACE_FILTERS = '.keel/filters.json';

/**
 * The tool system's settings and state on the host side: the filter engine (built-ins +
 * user file + workspace file, rebuilt when a file or a setting changes), the session result
 * cache (invalidated by file changes made outside the agent, e.g. the user typing) and the
 * tool policy (anomaly blocks, dependencies, TAFC).
 */
export class ToolSystemHost extends Disposable {
	readonly cache = new ToolResultCache();
	readonly policy: ToolPolicy;
	/** The built-ins until the rule files are read; then rebuilt whenever a file or a setting changes. */
	private _engine = new FilterEngine([], { enabled: true, disabledRules: [] });
	private _loading: Promise<void>;
	private _generation = 0;

	constructor(
		private readonly _logger: Logger,
		private readonly _gate: Gate,
		private readonly _workspace: Workspace,
	) {
		super();
		this.policy = new ToolPolicy(readPolicySettings, line => _logger.info(line));
		this._loading = this._rebuild();
		this._register(
			vscode.workspace.onDidChangeConfiguration(e => {
				if (e.affectsConfiguration('keel.filters')) {
					this._loading = this._rebuild();
				}
			}),
		);
		const rulesWatcher = this._register(vscode.workspace.createFileSystemWatcher(`**/${WORKSPACE_FILTERS}`));
		for (const event of [rulesWatcher.onDidChange, rulesWatcher.onDidCreate, rulesWatcher.onDidDelete]) {
			this._register(event(() => (this._loading = this._rebuild())));
		}
		// Reads cached for the session must not outlive an edit made in the editor or on disk.
		const files = this._register(vscode.workspace.createFileSystemWatcher('**/*'));
		const invalidate = (uri: vscode.Uri) =>
			this.cache.invalidatePaths([vscode.workspace.asRelativePath(uri, false)]);
		for (const event of [files.onDidChange, files.onDidCreate, files.onDidDelete]) {
			this._register(event(invalidate));
		}
		this._register(vscode.workspace.onDidChangeTextDocument(e => invalidate(e.document.uri)));
		// Problems change when a language server finishes, not only when a file does.
		this._register(vscode.languages.onDidChangeDiagnostics(() => this.cache.invalidateTool('diagnostics')));
	}

	config(): ToolSystemConfig {
		return {
			filters: this._engine,
			securityScan: readSetting('filters.securityScan'),
			securityPatterns: securityPatterns(),
			overflowChars: overflowThreshold(readSetting('model.contextWindow'), readSetting('tools.overflowShare')),
			cache: {
				enabled: readSetting('tools.cache.enabled'),
				ttlSeconds: Math.max(0, readSetting('tools.cache.ttlSeconds')),
			},
		};
	}

	/** Resolves once the latest rule files are read; a turn waits for it, so its commands use them. */
	ready(): Promise<void> {
		return this._loading;
	}

	private async _rebuild(): Promise<void> {
		const generation = ++this._generation;
		try {
			const engine = await this._buildEngine();
			if (generation === this._generation) {
				this._engine = engine;
			}
		} catch (error) {
			// The rules in force stay; a turn must not fail over a rule file.
			this._logger.warn(`Output filters: could not load the rule files (${(error as Error).message})`);
		}
	}

	private async _buildEngine(): Promise<FilterEngine> {
		const layers: RuleEntry[][] = [];
		const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
		const relative = folder && relativeOfUri(vscode.Uri.joinPath(folder, ...WORKSPACE_FILTERS.split('/')));
		if (relative !== undefined && vscode.workspace.isTrusted) {
			// A file the workspace ships: read like read_file reads (the gate), or not at all.
			const text = await this._gate.readShipped(this._workspace, relative, 'config file').then(
				read => Buffer.from(read.bytes).toString('utf8'),
				(error: Error) =>
					/not a file|ENOENT|not found/i.test(error.message) ? undefined : this._refused(error),
			);
			layers.push(this._parse(text, WORKSPACE_FILTERS));
		}
		// The user's file: only from user settings, never a path a workspace chose.
		const userFile = readSetting('filters.rulesFile');
		if (userFile) {
			layers.push(this._parse(await readText(vscode.Uri.file(userFile)), userFile));
		}
		return new FilterEngine(layers, {
			enabled: readSetting('filters.enabled'),
			disabledRules: readSetting('filters.disabledRules'),
		});
	}

	private _refused(error: Error): undefined {
		this._logger.warn(`Output filters: ${error.message}`);
		return undefined;
	}

	private _parse(text: string | undefined, label: string): RuleEntry[] {
		if (text === undefined) {
			return [];
		}
		const parsed = parseRuleFile(text, label);
		parsed.warnings.forEach(w => this._logger.warn(`Output filters: ${w}`));
		this._logger.info(`Output filters: ${parsed.entries.length} rule(s) from ${label}.`);
		return parsed.entries;
	}
}

function securityPatterns(): string[] {
	const patterns = readSetting('filters.securityPatterns');
	warnUnrunnablePatterns(
		'keel.filters.securityPatterns',
		patterns.map(p => checkPattern(p)),
	);
	return patterns;
}

function readPolicySettings(): ToolPolicySettings {
	const d = defaultToolPolicySettings;
	return {
		anomaly: {
			enabled: readSetting('tools.anomaly.enabled'),
			windowSize: readSetting('tools.anomaly.windowSize'),
			failureThreshold: readSetting('tools.anomaly.failureThreshold'),
			minCalls: d.anomaly.minCalls,
		},
		tafc: {
			enabled: readSetting('tools.tafc.enabled'),
			complexityThreshold: readSetting('tools.tafc.complexityThreshold'),
		},
		dependencies: {
			enabled: readSetting('tools.dependencies.enabled'),
			// The rules' own shape is checked where they are applied (unknown tools are ignored there).
			rules: readSetting('tools.dependencies.rules') as ToolPolicySettings['dependencies']['rules'],
			boostPerDep: d.dependencies.boostPerDep,
			maxTotalBoost: d.dependencies.maxTotalBoost,
		},
		infraRetries: d.infraRetries,
		infraRetryDelayMs: d.infraRetryDelayMs,
	};
}

/** "Keel: Unblock Tools": lists the tools blocked in this chat and unblocks the chosen ones. */
export async function unblockTools(policy: ToolPolicy, sessionId: string, only?: string): Promise<string[]> {
	const state = policy.session(sessionId);
	const blocked = state.anomaly.blocked();
	if (only !== undefined) {
		return state.anomaly.unblock(only);
	}
	if (blocked.length === 0) {
		void vscode.window.showInformationMessage('Keel: no tool is blocked in this chat.');
		return [];
	}
	const picked = await vscode.window.showQuickPick(blocked, {
		canPickMany: true,
		title: 'Keel: Unblock Tools',
		placeHolder: 'Tools blocked after repeated failures in this chat',
	});
	return (picked ?? []).flatMap(name => state.anomaly.unblock(name));
}
