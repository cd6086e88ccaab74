import * as vscode from 'vscode';
import type { CheckReport } from '../../core/checkModel/types';
import type { Logger } from '../../core/ports';
import { Disposable } from '../../core/util/lifecycle';
import {
	CheckModelToHost,
	type CheckModelToView,
	type CheckReportView,
	type StoredReportView,
} from '../../shared/checkModelProtocol';
import { renderWebviewHtml, webviewOptions } from '../platform/webviewHtml';
import type { ReportStore } from './reportStore';

/** Every report the engine makes fits the view's schema; a drift between the two fails to compile here. */
const asView = (report: CheckReport): CheckReportView => report;

export interface ReportActions {
	apply(
		report: CheckReport,
		settings: CheckReport['recommendations'][number]['setting'][],
	): Promise<CheckModelToView>;
	exportMarkdown(report: CheckReport): Promise<void>;
	runAgain(): void;
}

/**
 * The report in an editor tab: its own small bundle (dist/checkModel.js) with the VS Code
 * theme's colours, loaded only here. One panel, reused; what the view sends is validated and
 * acts only on reports in the store.
 */
export class ReportPanel extends Disposable {
	private _panel: vscode.WebviewPanel | undefined;
	private _report: CheckReport | undefined;
	private _compare: CheckReport | undefined;

	constructor(
		private readonly _extensionUri: vscode.Uri,
		private readonly _reports: ReportStore,
		private readonly _actions: ReportActions,
		private readonly _logger: Logger,
	) {
		super();
	}

	show(report: CheckReport): void {
		this._report = report;
		this._compare = undefined;
		if (!this._panel) {
			this._panel = this._create();
		}
		this._panel.title = `Check Model: ${report.model}`;
		this._panel.reveal();
		void this._post();
	}

	private _create(): vscode.WebviewPanel {
		const panel = vscode.window.createWebviewPanel(
			'keel.checkModelReport',
			'Check Model',
			vscode.ViewColumn.Active,
			webviewOptions(this._extensionUri),
		);
		panel.webview.html = renderWebviewHtml(panel.webview, this._extensionUri, {
			script: 'checkModel.js',
			style: 'checkModel.css',
			title: 'Check Model',
		});
		const listening = panel.webview.onDidReceiveMessage(message => void this._receive(message));
		panel.onDidDispose(() => {
			listening.dispose();
			this._panel = undefined;
		});
		return panel;
	}

	private async _receive(raw: unknown): Promise<void> {
		const parsed = CheckModelToHost.safeParse(raw);
		if (!parsed.success || !this._report) {
			this._logger.warn(`check model view: dropped a message that is not part of the protocol`);
			return;
		}
		const message = parsed.data;
		const report = this._report;
		switch (message.type) {
			case 'ready':
				return this._post();
			case 'apply':
				if (message.reportId === report.id) {
					void this._panel?.webview.postMessage(await this._actions.apply(report, message.settings));
				}
				return;
			case 'compare':
				this._compare = message.reportId ? await this._reports.get(message.reportId) : undefined;
				return this._post();
			case 'exportMarkdown':
				return message.reportId === report.id ? this._actions.exportMarkdown(report) : undefined;
			case 'runAgain':
				return this._actions.runAgain();
		}
	}

	private async _post(): Promise<void> {
		if (!this._panel || !this._report) {
			return;
		}
		const stored: StoredReportView[] = (await this._reports.list()).map(r => ({
			id: r.id,
			model: r.model,
			endpoint: r.endpoint,
			startedAt: r.startedAt,
			verdict: r.verdict,
		}));
		const message: CheckModelToView = {
			type: 'didShowReport',
			report: asView(this._report),
			compare: this._compare ? asView(this._compare) : undefined,
			stored,
		};
		void this._panel.webview.postMessage(message);
	}

	override dispose(): void {
		this._panel?.dispose();
		super.dispose();
	}
}
