import * as vscode from 'vscode';
import { serverWindowOf } from '../../core/checkModel/endpoint';
import { runCheckModel } from '../../core/checkModel/runCheckModel';
import type { CheckReport } from '../../core/checkModel/types';
import { toAgentError } from '../../core/errors';
import type { Gate } from '../../core/gate/gate';
import { redactSecrets } from '../../core/gate/redact/redact';
import type { Logger } from '../../core/ports';
import { createConfiguredModel } from '../models/chatModels';
import { isLmProviderSelected } from '../models/lmChatModel';
import { GlobalStateForcingMemory, readRecoverySettings } from '../models/recoveryConfig';
import { readResolvedProvider } from '../models/providerConfig';
import { readSetting } from '../settings/settings';
import { readShellSettings } from '../tools/shellHost';

/**
 * One run of the suite on the model the settings name now, under a progress notification
 * with Cancel. Undefined when the user cancelled (the engine has removed its scratch folder
 * and container by then); an error becomes a message that says what to do.
 */
export async function runConfiguredCheck(
	context: vscode.ExtensionContext,
	logger: Logger,
	gate: Gate,
): Promise<CheckReport | undefined> {
	const lm = isLmProviderSelected();
	const resolved = readResolvedProvider();
	// The endpoint passes the gate as a turn's does (a workspace-chosen URL is asked about first).
	const model = await createConfiguredModel(context.secrets, gate);
	const shell = readShellSettings(context.asAbsolutePath('sandbox'));
	const name = lm ? readSetting('model.name') : resolved.model;
	return vscode.window.withProgress(
		{ location: vscode.ProgressLocation.Notification, title: `Keel: Check Model — ${name}`, cancellable: true },
		async (progress, token) => {
			const abort = new AbortController();
			token.onCancellationRequested(() => abort.abort());
			let done = 0;
			try {
				const report = await runCheckModel({
					model,
					endpoint: lm
						? { provider: 'VS Code', baseUrl: 'vscode-lm', model: name }
						: { provider: resolved.preset.label, baseUrl: resolved.baseUrl, model: name },
					current: {
						toolMode: readSetting('recovery.toolMode'),
						contextWindow: readSetting('model.contextWindow'),
						maxOutputTokens: Math.max(0, readSetting('model.maxOutputTokens')),
					},
					trials: readSetting('checkModel.trials'),
					recovery: readRecoverySettings(),
					forcingMemory: new GlobalStateForcingMemory(context.globalState),
					sandbox: { image: shell.image, limits: shell.limits },
					serverWindow: () => serverWindowOf(model, abort.signal),
					signal: abort.signal,
					onProgress: step => {
						const increment = step.total > 0 ? ((step.done - done) * 100) / step.total : 0;
						done = step.done;
						progress.report({ message: redactSecrets(step.message).text, increment });
					},
				});
				logger.info(`check model ${name}: ${report.verdict} — ${report.summary}`);
				return report;
			} catch (error) {
				const agentError = toAgentError(error);
				if (agentError.code === 'cancelled' || abort.signal.aborted) {
					void vscode.window.showInformationMessage(
						'Keel: Check Model was cancelled. Its scratch folder and sandbox are removed; no report was kept.',
					);
					return undefined;
				}
				logger.error(`check model ${name} failed`, error);
				void vscode.window.showErrorMessage(`Keel: ${redactSecrets(agentError.message).text}`);
				return undefined;
			}
		},
	);
}
