import * as vscode from 'vscode';
import { AgentError } from '../../core/errors';
import type { ChatModel, ChatRequest, ModelEvent } from '../../core/llm/chatModel';
import { tokenFromSignal } from '../platform/cancellation';
import { toLmMessages } from './lmMessages';
import { readSetting } from '../settings/settings';

export const LM_PROVIDER = 'vscode-lm';

/**
 * Any chat model VS Code offers (Copilot, or an extension that registers models) as a Keel
 * model: streaming text, tool calls as LanguageModelToolCallPart, cancellation through a
 * CancellationToken tied to the turn's signal. VS Code asks the user's consent on the first
 * request; a refusal arrives as LanguageModelError.NoPermissions and is said plainly.
 */
export class LmChatModel implements ChatModel {
	readonly id: string;

	constructor(private readonly _model: vscode.LanguageModelChat) {
		this.id = `${LM_PROVIDER}#${_model.vendor}/${_model.id}`;
	}

	async *stream(request: ChatRequest): AsyncIterable<ModelEvent> {
		const cancel = tokenFromSignal(request.signal);
		try {
			const tools: vscode.LanguageModelChatTool[] = request.tools.map(tool => ({
				name: tool.name,
				description: tool.description,
				inputSchema: tool.parameters,
			}));
			let response: vscode.LanguageModelChatResponse;
			try {
				response = await this._model.sendRequest(
					toLmMessages(request.messages),
					{
						tools,
						justification:
							'Keel sends your conversation and its tool results to this model to answer in the Keel chat.',
					},
					cancel.token,
				);
			} catch (error) {
				throw this._error(error, request.signal);
			}
			let index = 0;
			try {
				for await (const part of response.stream) {
					if (part instanceof vscode.LanguageModelTextPart) {
						yield { type: 'text', text: part.value };
					} else if (part instanceof vscode.LanguageModelToolCallPart) {
						const raw = JSON.stringify(part.input ?? {});
						yield { type: 'toolCallDelta', index, id: part.callId, name: part.name, argumentsDelta: raw };
						yield { type: 'toolCall', index, id: part.callId, name: part.name, rawArguments: raw };
						index++;
					}
				}
			} catch (error) {
				throw this._error(error, request.signal);
			}
			yield { type: 'finish', reason: index > 0 ? 'tool_calls' : 'stop' };
		} finally {
			cancel.dispose();
		}
	}

	private _error(error: unknown, signal: AbortSignal | undefined): AgentError {
		if (signal?.aborted || error instanceof vscode.CancellationError) {
			return new AgentError('cancelled', 'Stopped.', { cause: error });
		}
		const name = `${this._model.name} (${this._model.vendor})`;
		if (error instanceof vscode.LanguageModelError) {
			if (error.code === vscode.LanguageModelError.NoPermissions.name) {
				return new AgentError(
					'modelAuth',
					`VS Code did not allow Keel to use ${name}: answer "Allow" when VS Code asks, or pick another model with "Keel: Select Model".`,
					{ cause: error },
				);
			}
			if (error.code === vscode.LanguageModelError.NotFound.name) {
				return new AgentError(
					'modelNotFound',
					`${name} is no longer available in VS Code (the extension providing it was disabled or signed out). Pick another model with "Keel: Select Model".`,
					{ cause: error },
				);
			}
			if (error.code === vscode.LanguageModelError.Blocked.name) {
				return new AgentError(
					'modelHttp',
					`${name} refused the request (rate limit or quota): ${error.message}`,
					{ status: 429, cause: error },
				);
			}
		}
		return new AgentError('modelStream', `${name} failed: ${(error as Error)?.message ?? String(error)}`, {
			cause: error,
		});
	}
}

/** keel.model.name "vendor/id" (as Select Model writes it) → the model VS Code offers now. */
export async function createLmChatModel(name: string): Promise<ChatModel> {
	if (!vscode.lm?.selectChatModels) {
		throw new AgentError(
			'modelNotFound',
			`This VS Code has no language model API (needs 1.90 or later). Pick another provider with "Keel: Select Model".`,
		);
	}
	const slash = name.indexOf('/');
	const selector = slash > 0 ? { vendor: name.slice(0, slash), id: name.slice(slash + 1) } : { id: name };
	const [model] = await vscode.lm.selectChatModels(selector);
	if (!model) {
		throw new AgentError(
			'modelNotFound',
			`VS Code offers no chat model "${name}" right now (is the extension providing it installed and signed in?). Pick one with "Keel: Select Model".`,
		);
	}
	return new LmChatModel(model);
}

export function isLmProviderSelected(): boolean {
	return readSetting('model.provider') === LM_PROVIDER;
}
