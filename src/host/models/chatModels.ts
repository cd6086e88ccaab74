import type * as vscode from 'vscode';
import type { ChatModel } from '../../core/llm/chatModel';
import { createChatModel } from '../../core/llm/catalog/providers';
import { readModelConfig } from '../settings/config';
import { createLmChatModel, isLmProviderSelected } from './lmChatModel';
import { modelEndpointOrigin, readResolvedProvider } from './providerConfig';
import type { Gate } from '../../core/gate/gate';
import { getApiKey } from './secrets';
import { keelPlace } from '../platform/keelPlace';

/**
 * The chat model the settings name now (read per turn, so a change applies to the next
 * message): a model VS Code offers (vscode.lm), or a provider's with its key from SecretStorage.
 */
export async function createConfiguredModel(secrets: vscode.SecretStorage, gate: Gate): Promise<ChatModel> {
	if (isLmProviderSelected()) {
		return createLmChatModel(readModelConfig().model);
	}
	const resolved = readResolvedProvider();
	// A model URL the workspace's settings chose gets no prompt until the user saw and allowed it;
	// the client then dials only that endpoint.
	const endpoint = await gate.admitAddress(resolved.baseUrl, modelEndpointOrigin());
	return createChatModel(
		resolved,
		await getApiKey(secrets, resolved.baseUrl),
		gate.modelFetch(endpoint),
		keelPlace(),
	);
}
