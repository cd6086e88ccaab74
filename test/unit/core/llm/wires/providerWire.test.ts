import * as assert from 'assert';
import type { CanonicalMessage } from '../../../../../src/core/llm/canonical';
import { toAnthropicRequest } from '../../../../../src/core/llm/wires/anthropic/anthropicWire';
import { toOllamaMessages } from '../../../../../src/core/llm/wires/ollama/ollamaWire';
import { LEGACY_DEFAULT_BASE_URL, resolveProvider } from '../../../../../src/core/llm/catalog/providers';
import { ollamaRoot } from '../../../../../src/core/llm/wires/ollama/ollamaChatModel';

const call = (id: string, raw: string): CanonicalMessage => {
	let parsed: unknown;
	try {
		parsed = JSON.parse(raw);
	} catch {
		parsed = undefined;
	}
	return { kind: 'tool_call', content: '', data: { id, name: 'read_file', arguments: parsed, rawArguments: raw } };
};
const result = (id: string, output: string, ok = true): CanonicalMessage => ({
	kind: 'tool_result',
	content: output,
	data: { toolCallId: id, name: 'read_file', output, ok },
});

const history: CanonicalMessage[] = [
	{ kind: 'system', content: 'Be brief.' },
	{ kind: 'user', content: 'Read a and b' },
	{ kind: 'assistant', content: 'Reading both.' },
	call('c1', '{"path":"a"}'),
	call('c2', '{"path": b}'),
	result('c1', 'A'),
	result('c2', 'invalid arguments', false),
	{ kind: 'assistant', content: 'Done.' },
];

describe('provider wire formats (canonical → wire)', () => {
	it('Anthropic: system apart; calls join the assistant text; both results in one user message', () => {
		const { system, messages } = toAnthropicRequest(history);
		assert.strictEqual(system, 'Be brief.');
		assert.deepStrictEqual(
			messages.map(m => m.role),
			['user', 'assistant', 'user', 'assistant'],
		);
		assert.deepStrictEqual(
			messages[1].content.map(b => b.type),
			['text', 'tool_use', 'tool_use'],
		);
		assert.deepStrictEqual(messages[2].content, [
			{ type: 'tool_result', tool_use_id: 'c1', content: 'A', is_error: undefined },
			{ type: 'tool_result', tool_use_id: 'c2', content: 'invalid arguments', is_error: true },
		]);
		const broken = messages[1].content[2];
		assert.ok(
			broken.type === 'tool_use' && JSON.stringify(broken.input) === '{"_unparsedArguments":"{\\"path\\": b}"}',
			'malformed arguments are replayed visibly, not dropped',
		);
	});

	it('Ollama: arguments as objects, results answered by tool name and by the id of their call', () => {
		const messages = toOllamaMessages(history);
		assert.deepStrictEqual(
			messages.map(m => m.role),
			['system', 'user', 'assistant', 'tool', 'tool', 'assistant'],
		);
		const assistant = messages[2];
		assert.ok(assistant.role === 'assistant');
		assert.deepStrictEqual(
			assistant.tool_calls?.map(c => c.function.arguments),
			[{ path: 'a' }, { _unparsedArguments: '{"path": b}' }],
		);
		assert.deepStrictEqual(messages[3], { role: 'tool', content: 'A', tool_name: 'read_file', tool_call_id: 'c1' });
		assert.deepStrictEqual(
			assistant.tool_calls?.map(c => c.id),
			['c1', (messages[4] as { tool_call_id: string }).tool_call_id],
		);
	});

	it('Ollama root: /v1 and /api pasted after the host are stripped', () => {
		assert.strictEqual(ollamaRoot('http://127.0.0.1:11434/v1/'), 'http://127.0.0.1:11434');
		assert.strictEqual(ollamaRoot('http://gpu-box:11434/api'), 'http://gpu-box:11434');
	});

	it('old settings (baseUrl only) keep working; a preset without a URL brings its own', () => {
		const legacy = resolveProvider({
			provider: 'auto',
			model: 'glm-4.7-flash',
			contextWindow: 32768,
			requestTimeoutSeconds: 600,
		});
		assert.strictEqual(legacy.preset.kind, 'ollama');
		assert.strictEqual(
			legacy.baseUrl,
			'http://127.0.0.1:11434',
			'the old default (Ollama /v1) now goes through the native API',
		);
		assert.strictEqual(
			resolveProvider({
				provider: 'auto',
				baseUrl: LEGACY_DEFAULT_BASE_URL,
				model: 'm',
				contextWindow: 1,
				requestTimeoutSeconds: 1,
			}).preset.kind,
			'ollama',
		);
		const custom = resolveProvider({
			provider: 'auto',
			baseUrl: 'http://10.1.1.1:9000/v1/',
			model: 'm',
			contextWindow: 1,
			requestTimeoutSeconds: 1,
		});
		assert.deepStrictEqual([custom.preset.wire, custom.baseUrl], ['openai', 'http://10.1.1.1:9000/v1']);
		const zai = resolveProvider({ provider: 'zai', model: 'glm-4.6', contextWindow: 1, requestTimeoutSeconds: 1 });
		assert.deepStrictEqual(
			[zai.preset.wire, zai.baseUrl, zai.preset.needsKey],
			['openai', 'https://api.z.ai/api/paas/v4', true],
		);
	});
});
