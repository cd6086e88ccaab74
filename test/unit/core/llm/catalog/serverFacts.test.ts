// What a server says of the window it runs, read from its own endpoints. The answers below have
// the real servers' field names: llama.cpp's as llama-server answered them (built from
// node-llama-cpp's source, `-c 4096`, then `-c 4096 --parallel 2`), LM Studio's and Ollama's
// from their API references (the URLs are in serverFacts.ts beside each reader).
import * as assert from 'assert';
import { readServerFacts, type ServerAddress } from '../../../../../src/core/llm/catalog/serverFacts';

function server(answers: Record<string, unknown>): {
	get: (url: string, body?: unknown) => Promise<unknown>;
	asked: string[];
} {
	const asked: string[] = [];
	return {
		asked,
		get: async (url, body) => {
			asked.push(body === undefined ? url : `POST ${url}`);
			return answers[url];
		},
	};
}

const llamaModels = (nCtx: number) => ({
	object: 'list',
	data: [
		{
			id: 'keel-noise',
			object: 'model',
			owned_by: 'llamacpp',
			meta: { vocab_type: 2, n_vocab: 151936, n_ctx: nCtx, n_ctx_train: 262144, n_embd: 64 },
		},
	],
});
const llamaProps = (nCtx: number, slots: number) => ({
	default_generation_settings: { n_ctx: nCtx, params: {} },
	total_slots: slots,
	chat_template_caps: { supports_preserve_reasoning: false, supports_tool_calls: true },
});

const at = (over: Partial<ServerAddress>): ServerAddress => ({
	provider: 'custom',
	wire: 'openai',
	baseUrl: 'http://127.0.0.1:8080/v1',
	model: 'keel-noise',
	...over,
});

describe('what a server says of the window it runs', () => {
	it('llama.cpp: /props n_ctx per slot, total_slots, the trained window from /v1/models', async () => {
		const s = server({
			'http://127.0.0.1:8080/v1/models': llamaModels(4096),
			'http://127.0.0.1:8080/props': llamaProps(4096, 4),
		});
		const facts = await readServerFacts(at({ provider: 'llamacpp' }), s.get);
		assert.deepStrictEqual(facts, {
			kind: 'llamacpp',
			running: 4096,
			trained: 262144,
			source: 'llama.cpp /props n_ctx (per slot)',
			slots: 4,
			keepsReasoning: false,
		});
	});

	it('llama.cpp with --parallel 2: each request gets one slot, half the window', async () => {
		const s = server({
			'http://127.0.0.1:8080/v1/models': llamaModels(2048),
			'http://127.0.0.1:8080/props': llamaProps(2048, 2),
		});
		// A custom URL: the server is recognised by what /v1/models says (owned_by llamacpp, meta).
		const facts = await readServerFacts(at({ provider: 'custom' }), s.get);
		assert.strictEqual(facts.kind, 'llamacpp');
		assert.strictEqual(facts.running, 2048);
		assert.strictEqual(facts.slots, 2);
	});

	it('LM Studio: the loaded instance runs 4,096 of the 262,144 the model takes', async () => {
		const s = server({
			'http://127.0.0.1:1234/v1/models': {
				data: [{ id: 'qwen/qwen3.6-35b', object: 'model', owned_by: 'organization_owner' }],
			},
			'http://127.0.0.1:1234/api/v1/models': {
				models: [
					{
						type: 'llm',
						key: 'qwen/qwen3.6-35b',
						loaded_instances: [
							{ id: 'qwen/qwen3.6-35b', config: { context_length: 4096, flash_attention: true } },
						],
						max_context_length: 262144,
					},
				],
			},
		});
		const facts = await readServerFacts(
			at({ provider: 'lmstudio', baseUrl: 'http://127.0.0.1:1234/v1', model: 'qwen/qwen3.6-35b' }),
			s.get,
		);
		assert.deepStrictEqual(facts, {
			kind: 'lmstudio',
			running: 4096,
			trained: 262144,
			source: 'LM Studio /api/v1/models loaded context_length',
		});
	});

	it('LM Studio with the model not loaded: only what it takes', async () => {
		const s = server({
			'http://127.0.0.1:1234/api/v1/models': {
				models: [{ key: 'm', loaded_instances: [], max_context_length: 32768 }],
			},
		});
		const facts = await readServerFacts(
			at({ provider: 'lmstudio', baseUrl: 'http://127.0.0.1:1234/v1', model: 'm' }),
			s.get,
		);
		assert.strictEqual(facts.running, undefined);
		assert.strictEqual(facts.trained, 32768);
	});

	it('vLLM: max_model_len in /v1/models is what it runs', async () => {
		const s = server({
			'http://10.0.0.2:8000/v1/models': {
				data: [{ id: 'Qwen/Qwen3-8B', owned_by: 'vllm', max_model_len: 16384 }],
			},
		});
		const facts = await readServerFacts(at({ baseUrl: 'http://10.0.0.2:8000/v1', model: 'Qwen/Qwen3-8B' }), s.get);
		assert.deepStrictEqual(facts, { kind: 'vllm', running: 16384, source: 'vLLM /v1/models max_model_len' });
	});

	it('Ollama: the trained window from /api/show, the loaded one from /api/ps', async () => {
		const s = server({
			'http://127.0.0.1:11434/api/show': {
				model_info: { 'qwen3.context_length': 40960 },
				capabilities: ['tools'],
			},
			'http://127.0.0.1:11434/api/ps': {
				models: [{ name: 'qwen3:8b', model: 'qwen3:8b', context_length: 32768 }],
			},
		});
		const facts = await readServerFacts(
			at({ provider: 'ollama', wire: 'ollama', baseUrl: 'http://127.0.0.1:11434', model: 'qwen3:8b' }),
			s.get,
		);
		assert.deepStrictEqual(facts, {
			kind: 'ollama',
			trained: 40960,
			running: 32768,
			source: 'Ollama /api/ps context_length',
		});
		assert.deepStrictEqual(
			s.asked.sort(),
			['POST http://127.0.0.1:11434/api/show', 'http://127.0.0.1:11434/api/ps'].sort(),
		);
	});

	it('a cloud endpoint is not asked anything', async () => {
		const s = server({});
		assert.deepStrictEqual(
			await readServerFacts(at({ provider: 'openai', baseUrl: 'https://api.openai.com/v1' }), s.get),
			{},
		);
		assert.deepStrictEqual(s.asked, []);
	});

	it('a server that says nothing (a plain /v1/models) gives no facts', async () => {
		const s = server({ 'http://127.0.0.1:8000/v1/models': { data: [{ id: 'm', owned_by: 'library' }] } });
		assert.deepStrictEqual(
			await readServerFacts(at({ baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' }), s.get),
			{},
		);
	});
});
