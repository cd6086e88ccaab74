import * as vscode from 'vscode';
import { plainText } from '../../shared/keelText';
import type { Gate } from '../../core/gate/gate';
import { listModels, type ModelInfo } from '../../core/llm/catalog/modelCatalog';
import { createChatModel, PROVIDERS, type ProviderKind, type ResolvedProvider } from '../../core/llm/catalog/providers';
import { keelPlace } from '../platform/keelPlace';
import { probeToolCalling, type ProbeResult } from '../../core/llm/catalog/toolProbe';
import type { Logger } from '../../core/ports';
import { Disposable } from '../../core/util/lifecycle';
import { signalFromToken } from '../platform/cancellation';
import { modelEndpointOrigin, providerLabel, readResolvedProvider } from './providerConfig';
import { getApiKey, promptAndStoreApiKey } from './secrets';
import { lmModelItems, useLmModel } from './lmModelItems';
import { isLmProviderSelected } from './lmChatModel';
import { readSetting } from '../settings/settings';
import { windowLabel } from './modelLabels';

const PROBE: vscode.QuickInputButton = {
	iconPath: new vscode.ThemeIcon('beaker'),
	tooltip: 'Probe: check that native tool calling works',
};
type ModelItem = vscode.QuickPickItem & { model?: ModelInfo; action?: 'provider'; lm?: string };

/**
 * "Keel: Select Model" and its status-bar item: the models the endpoint reports, with context
 * window, tool support and the last probe result; a button probes a model with one tiny tool
 * call and records what happened (globalState, per endpoint and model). Keys never pass through here
 * except to the SDK of the endpoint they are bound to.
 */
export class ModelPicker extends Disposable {
	private readonly _item = this._register(
		vscode.window.createStatusBarItem('keel.model', vscode.StatusBarAlignment.Right, 100),
	);

	constructor(
		private readonly _context: vscode.ExtensionContext,
		private readonly _logger: Logger,
		private readonly _gate: Gate,
	) {
		super();
		this._item.name = 'Keel Model';
		this._item.command = 'keel.selectModel';
		this._register(
			vscode.workspace.onDidChangeConfiguration(
				event => event.affectsConfiguration('keel.model') && this.refresh(),
			),
		);
		this.refresh();
		this._item.show();
	}

	refresh(): void {
		const resolved = readResolvedProvider();
		const probe = this._probeFor(resolved, resolved.model);
		this._item.text = `$(hubot) ${resolved.model}${probe ? (probe.ok ? '' : ' $(warning)') : ''}`;
		this._item.tooltip = `Keel: ${providerLabel(resolved)} at ${resolved.baseUrl}${probe ? `\nTool probe: ${probe.detail}` : ''}\nClick to change.`;
	}

	async select(): Promise<void> {
		const resolved = readResolvedProvider();
		const pick = vscode.window.createQuickPick<ModelItem>();
		pick.title = `Keel: Select Model — ${resolved.preset.label} (${resolved.baseUrl})`;
		pick.placeholder = 'Loading the models this endpoint reports…';
		pick.busy = true;
		const providerItem: ModelItem = {
			label: `$(server) Provider: ${resolved.preset.label}`,
			description: 'change…',
			action: 'provider',
			alwaysShow: true,
		};
		pick.items = [providerItem];
		pick.show();
		const apiKey = await getApiKey(this._context.secrets, resolved.baseUrl);
		// Models other extensions offer through VS Code (vscode.lm) are listed below the endpoint's.
		let lmItems: ModelItem[] = [];
		let endpointItems: ModelItem[] = [];
		const render = (models?: ModelInfo[]) => {
			endpointItems = models ? models.map(model => this._toItem(resolved, model)) : endpointItems;
			pick.items = [
				providerItem,
				{ label: '', kind: vscode.QuickPickItemKind.Separator },
				...endpointItems,
				...lmItems,
			];
		};
		void lmModelItems(readModelConfigName(), isLmProviderSelected()).then(items => {
			lmItems = items;
			render();
		});
		// The endpoint the workspace wrote is asked about first (the gate), like a turn's.
		this._gate
			.admitAddress(resolved.baseUrl, modelEndpointOrigin())
			.then(endpoint => listModels(resolved, apiKey, this._gate.modelFetch(endpoint)))
			.then(
				models => {
					render(models);
					pick.placeholder = models.length
						? 'Pick a model · the beaker probes native tool calling'
						: 'The endpoint reports no models';
				},
				error => {
					pick.placeholder = (error as Error).message;
					this._logger.warn(`listing models failed: ${(error as Error).message}`);
				},
			)
			.finally(() => (pick.busy = false));
		pick.onDidTriggerItemButton(async ({ item }) => {
			if (item.model) {
				await this.probe(item.model.id);
				pick.items = pick.items.map(existing =>
					existing.model ? this._toItem(resolved, existing.model) : existing,
				);
			}
		});
		pick.onDidAccept(async () => {
			const chosen = pick.selectedItems[0];
			pick.hide();
			if (chosen?.action === 'provider') {
				await this.selectProvider();
			} else if (chosen?.lm) {
				await useLmModel(chosen.lm);
			} else if (chosen?.model) {
				if (isLmProviderSelected()) {
					// Back from a VS Code model to the endpoint this list came from.
					await vscode.workspace
						.getConfiguration('keel')
						.update('model.provider', undefined, vscode.ConfigurationTarget.Global);
				}
				await vscode.workspace
					.getConfiguration('keel')
					.update('model.name', chosen.model.id, vscode.ConfigurationTarget.Global);
			}
		});
		pick.onDidHide(() => pick.dispose());
	}

	async selectProvider(): Promise<void> {
		const items = Object.values(PROVIDERS).map(preset => ({
			label: preset.label,
			description: preset.defaultBaseUrl,
			provider: preset.kind,
		}));
		const chosen = await vscode.window.showQuickPick(items, { title: 'Keel: Select Provider' });
		if (!chosen) {
			return;
		}
		const config = vscode.workspace.getConfiguration('keel');
		let baseUrl: string | undefined;
		if (chosen.provider === 'custom') {
			baseUrl = await vscode.window.showInputBox({
				title: 'Keel: Base URL',
				prompt: 'OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1',
				value: readResolvedProvider().baseUrl,
			});
			if (!baseUrl) {
				return;
			}
		}
		// A preset brings its own URL: clear a URL set for the previous provider.
		await config.update('model.baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
		await config.update('model.provider', chosen.provider as ProviderKind, vscode.ConfigurationTarget.Global);
		const resolved = readResolvedProvider();
		if (resolved.preset.needsKey && !(await getApiKey(this._context.secrets, resolved.baseUrl))) {
			await promptAndStoreApiKey(this._context.secrets, resolved.baseUrl);
		}
		await this.select();
	}

	/** Sends one tiny tool call to `model` on the current endpoint and records the outcome. */
	async probe(model = readResolvedProvider().model): Promise<ProbeResult> {
		const resolved = { ...readResolvedProvider(), model };
		const endpoint = await this._gate.admitAddress(resolved.baseUrl, modelEndpointOrigin());
		const apiKey = await getApiKey(this._context.secrets, resolved.baseUrl);
		const result = await vscode.window.withProgress(
			{
				location: vscode.ProgressLocation.Notification,
				title: `Keel: probing tool calling on ${model}…`,
				cancellable: true,
			},
			async (_progress, token) => {
				const cancel = signalFromToken(token);
				try {
					return await probeToolCalling(
						createChatModel(resolved, apiKey, this._gate.modelFetch(endpoint), keelPlace()),
						Date.now,
						cancel.signal,
					);
				} finally {
					cancel.dispose();
				}
			},
		);
		await this._context.globalState.update(probeKey(resolved, model), result);
		this._logger.info(`tool probe ${model}: ${result.ok ? 'ok' : 'failed'} — ${result.detail}`);
		// One tool call says little; Check Model runs the whole suite on this model.
		const checkModel = 'Check Model';
		void (
			result.ok
				? vscode.window.showInformationMessage(`Keel: ${model} — ${plainText(result.detail)}`, checkModel)
				: vscode.window.showWarningMessage(
						`Keel: ${model} — ${plainText(result.detail)} Keel will still recover calls written as text.`,
						checkModel,
					)
		).then(choice => choice === checkModel && vscode.commands.executeCommand('keel.checkModel'));
		this.refresh();
		return result;
	}

	private _toItem(resolved: ResolvedProvider, model: ModelInfo): ModelItem {
		const probe = this._probeFor(resolved, model.id);
		const parts = [
			windowLabel(model),
			model.tools === true ? 'tools' : model.tools === false ? 'no tools' : undefined,
			probe ? (probe.ok ? 'probe ✓' : 'probe ✗') : undefined,
		].filter(Boolean);
		return {
			label: model.id === resolved.model ? `$(check) ${model.id}` : model.id,
			description: parts.join(' · '),
			detail: probe?.detail,
			model,
			buttons: [PROBE],
		};
	}

	private _probeFor(resolved: ResolvedProvider, model: string): ProbeResult | undefined {
		return this._context.globalState.get<ProbeResult>(probeKey(resolved, model));
	}
}

function readModelConfigName(): string {
	return readSetting('model.name');
}

function probeKey(resolved: ResolvedProvider, model: string): string {
	return `keel.probe:${resolved.preset.kind}|${resolved.baseUrl}|${model}`;
}
