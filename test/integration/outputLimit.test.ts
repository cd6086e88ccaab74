// keel.model.maxOutputTokens reaches each wire in its own field, and 0 leaves it to the server.
import * as assert from 'node:assert/strict';
import type { ChatModel } from '../../src/core/llm/chatModel';
import { createChatModel, resolveProvider, type ProviderKind } from '../../src/core/llm/catalog/providers';
import { startModelDouble, text, type ModelDouble } from '../support/modelDouble';

async function ask(model: ChatModel): Promise<void> {
	for await (const _event of model.stream({ messages: [{ kind: 'user', content: 'hi' }], tools: [] })) {
		// drained
	}
}

describe('keel.model.maxOutputTokens on the wire', function () {
	this.timeout(30_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	after(() => double.close());

	const cases: Array<[ProviderKind, (d: ModelDouble) => string, (body: any) => unknown]> = [
		['custom', d => d.openaiBaseUrl, body => body.max_tokens],
		['ollama', d => d.url, body => body.options?.num_predict],
		['anthropic', d => d.url, body => body.max_tokens],
	];
	for (const [provider, url, field] of cases) {
		it(`${provider}: sent when set, left out at 0`, async () => {
			for (const [limit, expected] of [
				[1536, 1536],
				[0, provider === 'anthropic' ? 8192 : undefined],
			] as const) {
				double.reset();
				double.script(text('ok'));
				const resolved = resolveProvider({
					provider,
					baseUrl: url(double),
					model: 'm',
					contextWindow: 8192,
					requestTimeoutSeconds: 30,
					maxOutputTokens: limit,
				});
				await ask(createChatModel(resolved, 'key'));
				assert.equal(field(double.modelRequests[0].body), expected);
			}
		});
	}
});
