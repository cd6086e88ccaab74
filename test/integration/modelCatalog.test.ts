import * as assert from 'assert';
import { listModels } from '../../src/core/llm/catalog/modelCatalog';
import { createChatModel, inferProvider, resolveProvider } from '../../src/core/llm/catalog/providers';
import { probeToolCalling } from '../../src/core/llm/catalog/toolProbe';
import { startModelDouble, text, toolCall, type ModelDouble } from '../support/modelDouble';

describe('model list and tool-calling probe (model double)', () => {
	let double: ModelDouble;
	before(async () => {
		double = await startModelDouble({
			models: ['qwen3:8b', 'llama3.1:8b'],
			contextLength: 40960,
			capabilities: ['completion', 'tools'],
		});
	});
	beforeEach(() => double.reset());
	after(() => double.close());

	const resolved = (provider: 'ollama' | 'custom' | 'anthropic', baseUrl = double.url) =>
		resolveProvider({ provider, baseUrl, model: 'qwen3:8b', contextWindow: 8192, requestTimeoutSeconds: 30 });

	it('lists Ollama models with context window and tool support from /api/tags and /api/show', async () => {
		const models = await listModels(resolved('ollama', `${double.url}/v1`), undefined);
		assert.deepStrictEqual(models, [
			{ id: 'qwen3:8b', contextWindow: 40960, tools: true },
			{ id: 'llama3.1:8b', contextWindow: 40960, tools: true },
		]);
	});

	it('lists OpenAI-compatible models from /v1/models, and Anthropic models from its own list', async () => {
		assert.deepStrictEqual(
			(await listModels(resolved('custom', double.openaiBaseUrl), 'k')).map(m => m.id),
			['qwen3:8b', 'llama3.1:8b'],
		);
		assert.deepStrictEqual(
			(await listModels(resolved('anthropic'), 'k')).map(m => m.id),
			['qwen3:8b', 'llama3.1:8b'],
		);
	});

	it('the probe passes on a native tool call and fails, saying why, on a text answer', async () => {
		for (const provider of ['ollama', 'custom', 'anthropic'] as const) {
			const base = provider === 'custom' ? double.openaiBaseUrl : double.url;
			double.script(toolCall('get_weather', { city: 'Paris' }), text('I would call get_weather for Paris.'));
			const model = createChatModel(resolved(provider, base), 'k');
			const good = await probeToolCalling(model);
			assert.ok(good.ok, `${provider}: ${good.detail}`);
			const bad = await probeToolCalling(model);
			assert.strictEqual(bad.ok, false);
			assert.match(bad.detail, /answered in text/);
		}
		assert.strictEqual(double.modelRequests[0].body.tools.length, 1);
	});

	it('lists the window each server runs beside the trained one (llama.cpp /props, LM Studio, vLLM, Ollama /api/ps)', async () => {
		const cases = [
			{ server: { kind: 'llamacpp', nCtx: 4096, nCtxTrain: 262_144 }, provider: 'llamacpp', trained: 262_144 },
			{
				server: { kind: 'lmstudio', maxContext: 262_144, loadedContext: 4096 },
				provider: 'lmstudio',
				trained: 262_144,
			},
			{ server: { kind: 'vllm', maxModelLen: 4096 }, provider: 'custom', trained: undefined },
		] as const;
		for (const c of cases) {
			const server = await startModelDouble({ models: ['m'], server: c.server });
			try {
				const at = resolveProvider({
					provider: c.provider,
					baseUrl: server.openaiBaseUrl,
					model: 'm',
					contextWindow: 32_768,
					requestTimeoutSeconds: 30,
				});
				const [model] = await listModels(at, undefined);
				assert.strictEqual(model.runningWindow, 4096, c.provider);
				assert.strictEqual(model.contextWindow, c.trained, c.provider);
			} finally {
				await server.close();
			}
		}
		// Ollama: /api/ps shows the model loaded with the num_ctx of the request that loaded it.
		double.script(text('hi'));
		const chat = createChatModel(resolved('ollama'), undefined);
		for await (const event of chat.stream({
			messages: [{ kind: 'user', content: 'hi' }],
			tools: [],
			contextWindow: 4096,
		})) {
			void event;
		}
		const models = await listModels(resolved('ollama'), undefined);
		assert.deepStrictEqual(models[0], { id: 'qwen3:8b', contextWindow: 40960, runningWindow: 4096, tools: true });
	});

	it('infers the provider from a base URL so keel.model.baseUrl alone keeps working', () => {
		assert.strictEqual(inferProvider('http://127.0.0.1:11434/v1'), 'ollama');
		assert.strictEqual(inferProvider('https://api.anthropic.com'), 'anthropic');
		assert.strictEqual(inferProvider('https://api.z.ai/api/paas/v4'), 'zai');
		assert.strictEqual(inferProvider('http://localhost:1234/v1'), 'lmstudio');
		assert.strictEqual(inferProvider('http://10.0.0.5:8000/v1'), 'custom');
		assert.strictEqual(
			resolveProvider({ provider: 'openai', model: 'gpt', contextWindow: 1, requestTimeoutSeconds: 1 }).baseUrl,
			'https://api.openai.com/v1',
		);
	});
});
