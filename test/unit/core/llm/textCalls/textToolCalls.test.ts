import * as assert from 'assert';
import { matchToolName, parseTextToolCalls } from '../../../../../src/core/llm/textCalls/textToolCalls';

const tools = ['read_file', 'write_file', 'create_new_file', 'list_directory'];

describe('parseTextToolCalls', () => {
	it('finds bare JSON with "arguments" (ollama#12174) and keeps the prose', () => {
		const parsed = parseTextToolCalls(
			'Let me look.\n{"name": "read_file", "arguments": {"path": "src/app.ts"}}',
			tools,
		);
		assert.deepStrictEqual(
			parsed.calls.map(c => [c.name, JSON.parse(c.rawArguments)]),
			[['read_file', { path: 'src/app.ts' }]],
		);
		assert.strictEqual(parsed.prose, 'Let me look.');
	});

	it('accepts "parameters" and fenced JSON', () => {
		const parsed = parseTextToolCalls(
			'```json\n{"name": "list_directory", "parameters": {"path": "."}}\n```',
			tools,
		);
		assert.deepStrictEqual(JSON.parse(parsed.calls[0].rawArguments), { path: '.' });
		assert.strictEqual(parsed.prose, '');
	});

	it('reads <tool_call>{…}</tool_call>, several in order', () => {
		const parsed = parseTextToolCalls(
			'<tool_call>{"name":"read_file","arguments":{"path":"a"}}</tool_call>\n<tool_call>{"name":"read_file","arguments":{"path":"b"}}</tool_call>',
			tools,
		);
		assert.deepStrictEqual(
			parsed.calls.map(c => JSON.parse(c.rawArguments).path),
			['a', 'b'],
		);
	});

	it('reads Qwen-coder XML with unclosed parameters (continue#13057)', () => {
		const text =
			'I\'ll create a file called test.txt with the content "hello".\n\n<function=create_new_file>\n<parameter=filepath> test.txt\n<parameter=contents> hello\n';
		const parsed = parseTextToolCalls(text, tools);
		assert.strictEqual(parsed.calls[0].name, 'create_new_file');
		assert.deepStrictEqual(JSON.parse(parsed.calls[0].rawArguments), { filepath: 'test.txt', contents: 'hello' });
		assert.match(parsed.prose, /^I'll create a file/);
	});

	it('reads Qwen-coder XML closed (Zoo-Code#1429)', () => {
		const parsed = parseTextToolCalls(
			'<function=write_file>\n<parameter=path>\nprova.txt\n</parameter>\n<parameter=content>\ntest\n</parameter>\n</function>',
			tools,
		);
		assert.deepStrictEqual(JSON.parse(parsed.calls[0].rawArguments), { path: 'prova.txt', content: 'test' });
	});

	it('reads GLM arg_key/arg_value pairs with multi-line values', () => {
		const parsed = parseTextToolCalls(
			'<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>a.py</arg_value>\n<arg_key>content</arg_key>\n<arg_value>print(1)\nprint(2)</arg_value>\n</tool_call>',
			tools,
		);
		assert.deepStrictEqual(JSON.parse(parsed.calls[0].rawArguments), {
			path: 'a.py',
			content: 'print(1)\nprint(2)',
		});
	});

	it('reads Gemma-style call:NAME{key:value}', () => {
		const parsed = parseTextToolCalls('call:read_file{path:"src/a.ts"}', tools);
		assert.deepStrictEqual(JSON.parse(parsed.calls[0].rawArguments), { path: 'src/a.ts' });
	});

	it('leaves a JSON call inside an explanation alone (more prose follows it)', () => {
		const text =
			'To read a file, send {"name": "read_file", "arguments": {"path": "a.ts"}} and wait for the result.';
		assert.strictEqual(parseTextToolCalls(text, tools).calls.length, 0);
		assert.strictEqual(
			parseTextToolCalls('Calling now: {"name": "read_file", "arguments": {"path": "a.ts"}}\n', tools).calls
				.length,
			1,
		);
	});

	it('ignores names that are not offered and JSON that is not a call', () => {
		assert.strictEqual(parseTextToolCalls('{"name": "rm_rf", "arguments": {}}', tools).calls.length, 0);
		assert.strictEqual(parseTextToolCalls('The config is {"port": 8080}.', tools).calls.length, 0);
		assert.strictEqual(
			parseTextToolCalls('<thinking about the user-providualize the user-providualize', tools).calls.length,
			0,
		);
	});

	it('matches names case- and separator-insensitively only when one tool fits', () => {
		assert.strictEqual(matchToolName('Read-File', tools), 'read_file');
		assert.strictEqual(matchToolName('readFile', tools), 'read_file');
		assert.strictEqual(matchToolName('functions.read_file', tools), 'read_file');
		assert.strictEqual(matchToolName('readfile', ['read_file', 'readFile']), undefined);
		assert.strictEqual(matchToolName('delete', tools), undefined);
	});
});
