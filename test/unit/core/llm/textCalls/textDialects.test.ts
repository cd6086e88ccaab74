import * as assert from 'assert';
import { matchToolName, parseTextToolCalls } from '../../../../../src/core/llm/textCalls/textToolCalls';

const tools = ['read_file', 'write_file', 'list_directory'];
const calls = (text: string) => parseTextToolCalls(text, tools).calls.map(c => [c.name, JSON.parse(c.rawArguments)]);

describe('text-call dialects of current open models', () => {
	it('Harmony: to=functions.NAME … <|message|>{json}<|call|>, cut at the first <|call|>', () => {
		const text =
			'<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{"path":"a.txt"}<|call|><|start|>functions.read_file to=assistant<|message|>made up<|end|>to=functions.write_file<|message|>{"path":"b","content":"x"}<|call|>';
		assert.deepStrictEqual(calls(text), [['read_file', { path: 'a.txt' }]]);
		assert.deepStrictEqual(
			calls(
				'<|start|>assistant to=functions.list_directory<|channel|>commentary json<|message|>{"path":"."}<|call|>',
			),
			[['list_directory', { path: '.' }]],
		);
	});

	it('Mistral [TOOL_CALLS] as a list (several calls) and as NAME[ARGS]{…}', () => {
		assert.deepStrictEqual(
			calls(
				'[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "a"}}, {"name": "read_file", "arguments": {"path": "b"}}]',
			),
			[
				['read_file', { path: 'a' }],
				['read_file', { path: 'b' }],
			],
		);
		assert.deepStrictEqual(calls('[TOOL_CALLS]list_directory[ARGS]{"path": "src"}'), [
			['list_directory', { path: 'src' }],
		]);
	});

	it('DeepSeek tool-call tokens, V3 (function + fenced JSON) and V3.1 (name<sep>json)', () => {
		const v3 =
			'<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_file\n```json\n{"path": "a.ts"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>';
		assert.deepStrictEqual(calls(v3), [['read_file', { path: 'a.ts' }]]);
		const parsed = parseTextToolCalls(
			`Reading it.${'<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path":"b"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'}`,
			tools,
		);
		assert.deepStrictEqual(
			parsed.calls.map(c => c.name),
			['read_file'],
		);
		assert.strictEqual(parsed.prose, 'Reading it.');
	});

	it('Hermes <tool_call>{json}</tool_call> and Llama <|python_tag|>', () => {
		assert.deepStrictEqual(calls('<tool_call>\n{"name": "read_file", "arguments": {"path": "x"}}\n</tool_call>'), [
			['read_file', { path: 'x' }],
		]);
		assert.deepStrictEqual(
			calls('<|python_tag|>{"name": "list_directory", "parameters": {"path": "."}}<|eom_id|>'),
			[['list_directory', { path: '.' }]],
		);
	});

	it('Kimi K2 sections, also with tags that lost their "<"', () => {
		assert.deepStrictEqual(
			calls(
				'<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{"path":"k"}<|tool_call_end|><|tool_calls_section_end|>',
			),
			[['read_file', { path: 'k' }]],
		);
		assert.deepStrictEqual(
			calls('|tool_call_begin|>functions.read_file:1|tool_call_argument_begin|>{"path":"k2"}|tool_call_end|>'),
			[['read_file', { path: 'k2' }]],
		);
	});

	it('MiniMax <invoke> XML, also with "<" and "</" dropped', () => {
		const ok =
			'<minimax:tool_call>\n<invoke name="write_file">\n<parameter name="path">out.txt</parameter>\n<parameter name="content">line one\nline two</parameter>\n</invoke>\n</minimax:tool_call>';
		assert.deepStrictEqual(calls(ok), [['write_file', { path: 'out.txt', content: 'line one\nline two' }]]);
		assert.deepStrictEqual(calls('invoke name="read_file">\nparameter name="path">a.md/parameter>\n/invoke>'), [
			['read_file', { path: 'a.md' }],
		]);
	});

	it('only offered tools count; names with control-token garbage or a functions. prefix are matched', () => {
		assert.deepStrictEqual(calls('[TOOL_CALLS][{"name": "delete_all", "arguments": {}}]'), []);
		assert.strictEqual(matchToolName('read_file<|channel|>analysis', tools), 'read_file');
		assert.strictEqual(matchToolName('functions.read_file', tools), 'read_file');
		assert.strictEqual(matchToolName('functions.read_file:0', tools), 'read_file');
		assert.strictEqual(matchToolName('rm<|channel|>commentary', tools), undefined);
	});
});
