// Test-only: what another extension would contribute to VS Code's language-model ecosystem.
// A Language Model Tool (vscode.lm.registerTool, VS Code 1.95+) and, where the API exists
// (VS Code 1.104+), a chat model provider whose one model is scripted: it calls Keel's
// read_file on README.md when that tool is offered, then answers with what the tool returned.
'use strict';
const vscode = require('vscode');

function registerLmFixtures(context) {
	if (vscode.lm && vscode.lm.registerTool) {
		context.subscriptions.push(
			vscode.lm.registerTool('keeltest_weather', {
				invoke: async options =>
					new vscode.LanguageModelToolResult([
						new vscode.LanguageModelTextPart(`Weather in ${options.input.city}: 21 °C and sunny.`),
					]),
			}),
		);
	}
	if (vscode.lm && vscode.lm.registerLanguageModelChatProvider) {
		context.subscriptions.push(
			vscode.lm.registerLanguageModelChatProvider('keel-test', {
				provideLanguageModelChatInformation: () => [
					{
						id: 'scripted',
						name: 'Keel Test Model',
						family: 'keel-test',
						version: '1',
						maxInputTokens: 8192,
						maxOutputTokens: 1024,
						capabilities: { toolCalling: true },
					},
				],
				provideLanguageModelChatResponse: async (model, messages, options, progress, token) => {
					const last = messages[messages.length - 1];
					const result =
						last && last.content.find(part => part instanceof vscode.LanguageModelToolResultPart);
					if (result) {
						const text = result.content
							.map(part => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
							.join('');
						progress.report(
							new vscode.LanguageModelTextPart(`The VS Code model read: ${text.split('\n')[0]}`),
						);
						return;
					}
					const reader = (options.tools || []).find(tool => tool.name === 'read_file');
					if (reader && !token.isCancellationRequested) {
						progress.report(new vscode.LanguageModelTextPart('Reading. '));
						progress.report(
							new vscode.LanguageModelToolCallPart('lm-call-1', 'read_file', { path: 'README.md' }),
						);
						return;
					}
					progress.report(new vscode.LanguageModelTextPart('Hello from the VS Code model.'));
				},
				provideTokenCount: async (model, text) =>
					Math.ceil((typeof text === 'string' ? text : JSON.stringify(text)).length / 4),
			}),
		);
	}
}

module.exports = { registerLmFixtures };
