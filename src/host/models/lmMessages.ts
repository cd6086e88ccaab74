import * as vscode from 'vscode';
import type { CanonicalMessage } from '../../core/llm/canonical';

/**
 * Canonical history → vscode.lm messages. The API has only User and Assistant roles: the
 * system prompt goes first as a User message; a turn's text and tool calls share one Assistant
 * message (LanguageModelToolCallPart); results travel back in a User message
 * (LanguageModelToolResultPart), consecutive ones together, as the API expects.
 */
export function toLmMessages(messages: readonly CanonicalMessage[]): vscode.LanguageModelChatMessage[] {
	const out: vscode.LanguageModelChatMessage[] = [];
	let assistant: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> | undefined;
	let results: vscode.LanguageModelToolResultPart[] | undefined;
	const flush = () => {
		if (assistant?.length) {
			out.push(vscode.LanguageModelChatMessage.Assistant(assistant));
		}
		if (results?.length) {
			out.push(vscode.LanguageModelChatMessage.User(results));
		}
		assistant = undefined;
		results = undefined;
	};
	for (const message of messages) {
		switch (message.kind) {
			case 'system':
			case 'user':
				flush();
				out.push(vscode.LanguageModelChatMessage.User(message.content));
				break;
			case 'assistant':
				if (results) {
					flush();
				}
				(assistant ??= []).push(new vscode.LanguageModelTextPart(message.content));
				break;
			case 'tool_call': {
				if (results) {
					flush();
				}
				const input =
					typeof message.data.arguments === 'object' && message.data.arguments !== null
						? (message.data.arguments as object)
						: {};
				(assistant ??= []).push(
					new vscode.LanguageModelToolCallPart(message.data.id, message.data.name, input),
				);
				break;
			}
			case 'tool_result':
				if (assistant?.length) {
					out.push(vscode.LanguageModelChatMessage.Assistant(assistant));
					assistant = undefined;
				}
				(results ??= []).push(
					new vscode.LanguageModelToolResultPart(message.data.toolCallId, [
						new vscode.LanguageModelTextPart(message.content),
					]),
				);
				break;
		}
	}
	flush();
	return out;
}
