import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { defaultToolPolicySettings, ToolPolicy, type ToolPolicySettings } from '../../core/agent/toolPolicy/toolPolicy';
import { FilterEngine } from '../../core/filters/engine';
import { parseRuleFile, type RuleEntry } from '../../core/filters/ruleFile';
import type { Logger } from '../../core/ports';
import { ToolResultCache } from '../../core/tools/resultCache';
import { overflowThreshold, type ToolSystemConfig } from '../../core/tools/toolSystemConfig';
import { Disposable } from '../../core/util/lifecycle';
import { checkPattern } from '../../core/patterns/linearRegex';
import { warnUnrunnablePatterns } from '../settings/patternWarnings';
import { readSetting } from '../settings/settings';

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
	private _engine: FilterEngine | undefined;

	constructor(private readonly _logger: Logger) {
		super();
		this.policy = new ToolPolicy(readPolicySettings, line => _logger.info(line));
		this._register(
			vscode.workspace.onDidChangeConfiguration(e => {
				if (e.affectsConfiguration('keel.filters')) {
					this._engine = undefined;
				}
			}),
		);
		const rulesWatcher = this._register(vscode.workspace.createFileSystemWatcher(`**/${WORKSPACE_FILTERS}`));
		for (const event of [rulesWatcher.onDidChange, rulesWatcher.onDidCreate, rulesWatcher.onDidDelete]) {
			this._register(event(() => (this._engine = undefined)));
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
			filters: (this._engine ??= this._buildEngine()),
			securityScan: readSetting('filters.securityScan'),
			securityPatterns: securityPatterns(),
			overflowChars: overflowThreshold(readSetting('model.contextWindow'), readSetting('tools.overflowShare')),
			cache: {
				enabled: readSetting('tools.cache.enabled'),
				ttlSeconds: Math.max(0, readSetting('tools.cache.ttlSeconds')),
			},
		};
	}

	private _buildEngine(): FilterEngine {
		const layers: RuleEntry[][] = [];
		const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
		if (root && vscode.workspace.isTrusted) {
			layers.push(this._load(path.join(root, WORKSPACE_FILTERS), WORKSPACE_FILTERS));
		}
		// The user's file: only from user settings, never a path a workspace chose.
		const userFile = readSetting('filters.rulesFile');
		if (userFile) {
			layers.push(this._load(userFile, userFile));
		}
		return new FilterEngine(layers, {
			enabled: readSetting('filters.enabled'),
			disabledRules: readSetting('filters.disabledRules'),
		});
	}

	private _load(file: string, label: string): RuleEntry[] {
		let text: string;
		try {
			text = fs.readFileSync(file, 'utf8');
		} catch {
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
