import * as vscode from 'vscode';
import type { Gate } from '../../core/gate/gate';
import type { Logger, Workspace } from '../../core/ports';
import { loadRules, rulesPromptSection, rulesSummary, type LoadedRules } from '../../core/rules/projectRules';
import { Emitter } from '../../core/util/emitter';
import { Disposable } from '../../core/util/lifecycle';
import { readSetting } from '../settings/settings';

const EMPTY: LoadedRules = { applied: [], skipped: [], tokens: 0 };

export function readRulesSettings(): { enabled: boolean; maxTokens: number } {
	return { enabled: readSetting('rules.enabled'), maxTokens: Math.max(0, readSetting('rules.maxTokens')) };
}

/**
 * The project's rules (AGENTS.md, .keel/rules/*.md): loaded once, reloaded when a rules file
 * changes, and applied only in a trusted workspace (an untrusted one could otherwise steer
 * the agent through a file it ships). Each session is told which rules it runs with, again
 * whenever they change.
 */
export class RulesHost extends Disposable {
	private _rules: LoadedRules = EMPTY;
	private _loading: Promise<LoadedRules>;
	private _version = 0;
	private readonly _announced = new Map<string, number>();
	private readonly _onDidChange = this._register(new Emitter<LoadedRules>());
	readonly onDidChange = this._onDidChange.event;

	constructor(
		private readonly _workspace: Workspace,
		private readonly _logger: Logger,
		private readonly _gate: Gate,
	) {
		super();
		// Globs on the absolute path, hence the leading **/. The .keel folder is watched whole: when
		// `.keel/rules/x.md` is created together with its folders, inotify reports only the new
		// folder (the file appears before the folder is watched), so a folder event reloads too.
		for (const glob of ['**/AGENTS.md', '**/.keel', '**/.keel/**']) {
			const watcher = this._register(vscode.workspace.createFileSystemWatcher(glob));
			this._register(watcher.onDidChange(() => this.reload()));
			this._register(watcher.onDidCreate(() => this.reload()));
			this._register(watcher.onDidDelete(() => this.reload()));
		}
		this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.reload()));
		this._register(
			vscode.workspace.onDidChangeConfiguration(
				event => event.affectsConfiguration('keel.rules') && this.reload(),
			),
		);
		this._loading = this._load();
	}

	get applied(): boolean {
		return vscode.workspace.isTrusted && readRulesSettings().enabled;
	}

	get rules(): LoadedRules {
		return this._rules;
	}

	/** Resolves once the latest load finished; the turn waits for it so its prompt has the rules. */
	ready(): Promise<LoadedRules> {
		return this._loading;
	}

	reload(): Promise<LoadedRules> {
		this._loading = this._load();
		return this._loading;
	}

	private async _load(): Promise<LoadedRules> {
		try {
			const settings = readRulesSettings();
			this._rules =
				settings.enabled && vscode.workspace.workspaceFolders?.length
					? await loadRules(this._workspace, settings.maxTokens, this._gate)
					: EMPTY;
		} catch (error) {
			this._logger.warn(`could not load the project rules: ${(error as Error).message}`);
			this._rules = EMPTY;
		}
		this._version++;
		this._onDidChange.fire(this._rules);
		return this._rules;
	}

	/** The system-prompt section; empty when untrusted or switched off. */
	promptSection(): string {
		return this.applied ? rulesPromptSection(this._rules) : '';
	}

	/** The chat line for this session, once per version of the rules; undefined when there is nothing new to say. */
	announcement(sessionId: string): string | undefined {
		if (this._announced.get(sessionId) === this._version) {
			return undefined;
		}
		const hadBefore = this._announced.has(sessionId);
		this._announced.set(sessionId, this._version);
		if (this._rules.applied.length === 0 && this._rules.skipped.length === 0) {
			return hadBefore ? 'Rules: none (the rules files were removed).' : undefined;
		}
		return rulesSummary(this._rules, this.applied);
	}
}
