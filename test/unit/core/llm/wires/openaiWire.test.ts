import * as assert from 'assert';
import { toOpenAIMessages } from '../../../../../src/core/llm/wires/openai/openaiWire';
import { ToolCallAssembler } from '../../../../../src/core/llm/stream/toolCallAssembler';

describe('OpenAI wire translation', () => {
	it('groups tool calls under the assistant message and answers each by tool_call_id', () => {
		const wire = toOpenAIMessages([
			{ kind: 'system', content: 'sys' },
			{ kind: 'user', content: 'hi' },
			{ kind: 'assistant', content: 'Let me look.' },
			{
				kind: 'tool_call',
				content: '',
				data: { id: 'a', name: 'read_file', rawArguments: '{"path":"x"}', arguments: { path: 'x' } },
			},
			{
				kind: 'tool_call',
				content: '',
				data: { id: 'b', name: 'list_directory', rawArguments: '{}', arguments: {} },
			},
			{ kind: 'tool_result', content: 'X', data: { toolCallId: 'a', name: 'read_file', output: 'X', ok: true } },
			{
				kind: 'tool_result',
				content: 'Y',
				data: { toolCallId: 'b', name: 'list_directory', output: 'Y', ok: true },
			},
		]);
		assert.deepStrictEqual(
			wire.map(m => m.role),
			['system', 'user', 'assistant', 'tool', 'tool'],
		);
		const assistant = wire[2] as {
			content: string;
			tool_calls: Array<{ id: string; function: { arguments: string } }>;
		};
		assert.strictEqual(assistant.content, 'Let me look.');
		assert.deepStrictEqual(
			assistant.tool_calls.map(c => c.id),
			['a', 'b'],
		);
		assert.deepStrictEqual(wire.slice(3), [
			{ role: 'tool', tool_call_id: 'a', name: 'read_file', content: 'X' },
			{ role: 'tool', tool_call_id: 'b', name: 'list_directory', content: 'Y' },
		]);
	});

	it('starts an assistant message with null content when a call has no text before it', () => {
		const wire = toOpenAIMessages([
			{ kind: 'tool_call', content: '', data: { id: 'a', name: 't', rawArguments: '{}', arguments: {} } },
		]);
		assert.deepStrictEqual(wire[0], {
			role: 'assistant',
			content: null,
			tool_calls: [{ id: 'a', type: 'function', function: { name: 't', arguments: '{}' } }],
		});
	});

	it('assembles argument fragments by index, not by id', () => {
		const assembler = new ToolCallAssembler();
		assembler.add({ index: 0, id: 'a', function: { name: 'read_file', arguments: '{"pa' } }, 0);
		assembler.add({ index: 1, id: 'b', function: { name: 'list_directory', arguments: '' } }, 0);
		assembler.add({ index: 0, function: { arguments: 'th":"x"}' } }, 0);
		assembler.add({ index: 1, function: { arguments: '{}' } }, 0);
		assert.deepStrictEqual(
			assembler.finish(i => `gen${i}`),
			[
				{ index: 0, id: 'a', name: 'read_file', rawArguments: '{"path":"x"}' },
				{ index: 1, id: 'b', name: 'list_directory', rawArguments: '{}' },
			],
		);
	});

	it('generates ids when the server sends none', () => {
		const assembler = new ToolCallAssembler();
		assembler.add({ function: { name: 't', arguments: '{}' } }, 0);
		assert.strictEqual(assembler.finish(i => `gen${i}`)[0].id, 'gen0');
	});
});
