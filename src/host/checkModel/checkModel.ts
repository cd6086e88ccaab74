import * as vscode from 'vscode';
import { reportMarkdown } from '../../core/checkModel/markdown';
import type { CheckReport, SettingKey } from '../../core/checkModel/types';
import type { Gate } from '../../core/gate/gate';
import type { Logger } from '../../core/ports';
import { Disposable } from '../../core/util/lifecycle';
import type { CheckModelToView } from '../../shared/checkModelProtocol';
import type { FeatureCommands } from '../common/commandIds';
import { runConfiguredCheck } from './checkModelRun';
import { ReportPanel } from './reportPanel';
import { ReportStore } from './reportStore';

/**
 * Keel: Check Model: runs the suite on the configured model, keeps the report, shows it in an
 * editor tab, and writes the recommendations the user applies to their user settings.
 */
export class CheckModel extends Disposable {
	private readonly _reports: ReportStore;
	private readonly _panel: ReportPanel;
	private _running: Promise<CheckReport | undefined> | undefined;

	constructor(
		private readonly _context: vscode.ExtensionContext,
		private readonly _logger: Logger,
		private readonly _gate: Gate,
	) {
		super();
		this._reports = new ReportStore(vscode.Uri.joinPath(_context.globalStorageUri, 'check-model').fsPath);
		this._panel = this._register(
			new ReportPanel(
				_context.extensionUri,
				this._reports,
				{
					apply: (report, settings) => applyRecommendations(report, settings),
					exportMarkdown: report => exportMarkdown(report),
					runAgain: () => void this.run(),
				},
				_logger,
			),
		);
	}

	/** One check at a time: a second request while one runs shows the running one's progress. */
	async run(): Promise<CheckReport | undefined> {
		if (this._running) {
			void vscode.window.showInformationMessage('Keel: Check Model is already running; see its progress.');
			return this._running;
		}
		this._running = runConfiguredCheck(this._context, this._logger, this._gate);
		try {
			const report = await this._running;
			if (report) {
				await this._reports.save(report);
				this._panel.show(report);
			}
			return report;
		} finally {
			this._running = undefined;
		}
	}

	/** The newest kept report; none yet offers to run a check. */
	async showLatest(): Promise<void> {
		const [latest] = await this._reports.list();
		if (latest) {
			this._panel.show(latest);
			return;
		}
		const run = await vscode.window.showInformationMessage('Keel: no Check Model report yet.', 'Check Model');
		if (run) {
			await this.run();
		}
	}
}

export function checkModelCommands(
	checkModel: () => CheckModel,
): FeatureCommands<'keel.checkModel' | 'keel.showCheckModelReport'> {
	return {
		'keel.checkModel': () => checkModel().run(),
		'keel.showCheckModelReport': () => checkModel().showLatest(),
	};
}

/** Writes the chosen recommendations that would change something to the user's settings; says which a workspace overrides. */
async function applyRecommendations(report: CheckReport, settings: SettingKey[]): Promise<CheckModelToView> {
	const chosen = report.recommendations.filter(r => r.change && settings.includes(r.setting));
	const config = vscode.workspace.getConfiguration();
	const applied: SettingKey[] = [];
	const overridden: string[] = [];
	try {
		for (const recommendation of chosen) {
			await config.update(recommendation.setting, recommendation.recommended, vscode.ConfigurationTarget.Global);
			applied.push(recommendation.setting);
			const inspected = config.inspect(recommendation.setting);
			if (inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined) {
				overridden.push(recommendation.setting);
			}
		}
	} catch (error) {
		return { type: 'didApply', applied, error: `Could not write the settings: ${(error as Error).message}` };
	}
	return {
		type: 'didApply',
		applied,
		error: overridden.length
			? `This workspace sets ${overridden.join(', ')} itself, which wins over your user settings.`
			: undefined,
	};
}

/** A Markdown document to save or paste into an issue. */
async function exportMarkdown(report: CheckReport): Promise<void> {
	const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: reportMarkdown(report) });
	await vscode.window.showTextDocument(document, { preview: false });
}
