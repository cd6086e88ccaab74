import * as assert from 'assert';
import * as fc from 'fast-check';
import { findTextCalls } from '../../../../../src/core/agent/recovery/review/textCalls';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { recordingTools } from '../../../../support/resilience/genTools';
import { negativeCase, positiveCase, type GenCase } from '../../../../support/resilience/replyGrammar';

const registry = new ToolRegistry(recordingTools([]));
const offered = registry.specs();
const read = (text: string, prompt?: string) => findTextCalls(text, { registry, offered, prompt });
/** What the extractor sees of a generated reply: the content, or the reasoning (a <think> block is split off upstream). */
const visible = (c: GenCase) => c.reasoning || c.text.replace(/<\/?think>/g, '');

describe('calls written as text: the general extractor and its judge', () => {
	it('any complete call to an offered tool, in any wrapper, encoding and placement, runs once with its arguments', () => {
		fc.assert(
			fc.property(positiveCase, c => {
				const found = read(visible(c));
				assert.strictEqual(found.calls.length, 1, `one call in ${JSON.stringify(visible(c))}`);
				assert.strictEqual(found.calls[0].name, c.expected!.tool);
				assert.deepStrictEqual(
					registry.parse(c.expected!.tool, found.calls[0].rawArguments),
					registry.parse(c.expected!.tool, JSON.stringify(c.expected!.args)),
				);
				assert.ok(
					!/<\||\|>|<\/|```|｜/.test(found.prose),
					`no wrapper left in the prose: ${JSON.stringify(found.prose)}`,
				);
			}),
			{ numRuns: 400, seed: 11 },
		);
	});

	it('prose naming tools, inline mentions, examples, half calls and unoffered tools never run', () => {
		fc.assert(
			fc.property(negativeCase, c => {
				const found = read(c.text, c.prompt);
				assert.deepStrictEqual(found.calls, [], JSON.stringify(c.text));
			}),
			{ numRuns: 400, seed: 12 },
		);
	});

	it('a half call to an offered tool is reported with what is wrong, not run', () => {
		const found = read('<tool_call>{"name": "write_file", "arguments": {"path": "a.txt", "content": "hel');
		assert.deepStrictEqual(found.calls, []);
		assert.match(found.problems[0].detail, /cut off/);
		assert.strictEqual(found.problems[0].name, 'write_file');
	});

	it('a call that does not fit its schema, or has no arguments, says so in words that follow "the <tool> call"', () => {
		const invalid = read('<tool_call>{"name": "write_file", "arguments": {"path": "a.txt"}}</tool_call>');
		assert.deepStrictEqual(invalid.calls, []);
		assert.match(
			invalid.problems[0].detail,
			/^does not fit its schema \(Invalid arguments for write_file: content/,
		);
		const empty = read('<tool_call>read_file</tool_call>');
		assert.deepStrictEqual(empty.calls, []);
		assert.match(empty.problems[0]?.detail ?? '', /^has no arguments \(/);
	});

	it('reads shapes seen in the wild that no dialect parser names', () => {
		const shapes: Array<[string, string, Record<string, unknown>]> = [
			['```tool_code\nprint(default_api.read_file(path="a.txt"))\n```', 'read_file', { path: 'a.txt' }],
			[
				'Thought: I need the file.\nAction: read_file\nAction Input: {"path": "a.txt"}',
				'read_file',
				{ path: 'a.txt' },
			],
			[
				'<tool_call>\n<name>list_directory</name>\n<arguments>{"path": "src"}</arguments>\n</tool_call>',
				'list_directory',
				{ path: 'src' },
			],
			['[search_files(query="todo", max_results=5)]', 'search_files', { query: 'todo', max_results: 5 }],
			['<read_file path="notes/a.md"/>', 'read_file', { path: 'notes/a.md' }],
			[
				`{"tool_calls": [{"type": "function", "function": {"name": "run_command", "arguments": "{\\"command\\": \\"npm test\\"}"}}]}`,
				'run_command',
				{ command: 'npm test' },
			],
			[
				"<tool_call>{'name': 'read_file', 'arguments': {'path': 'b.txt'}}</tool_call>",
				'read_file',
				{ path: 'b.txt' },
			],
		];
		for (const [text, name, args] of shapes) {
			const found = read(text);
			assert.deepStrictEqual(
				found.calls.map(c => [c.name, JSON.parse(c.rawArguments)]),
				[[name, args]],
				text,
			);
		}
	});

	it('leaves alone what only looks like a call: a table of tools, placeholders, a call the user asked to see', () => {
		assert.deepStrictEqual(read('| tool | example |\n|---|---|\n| read_file | `{"path": "a.txt"}` |').calls, []);
		assert.deepStrictEqual(
			read('<tool_call>{"name": "read_file", "arguments": {"path": "path/to/file"}}</tool_call>').calls,
			[],
		);
		assert.deepStrictEqual(
			read(
				'```json\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n```',
				'What does a read_file tool call look like?',
			).calls,
			[],
		);
		assert.deepStrictEqual(read('I called read_file(path="a.txt") earlier and it failed.').calls, []);
		assert.deepStrictEqual(
			read('Done. Steps taken:\n- read_file(path="a.txt")\n- write_file(path="b.txt", content="x")').calls,
			[],
			'a list of steps describes them',
		);
	});

	it('a value in angle brackets is a placeholder when it names what goes there, and markup when it is markup', () => {
		const write = (content: string) =>
			read(
				`<tool_call>${JSON.stringify({ name: 'write_file', arguments: { path: 'a.html', content } })}</tool_call>`,
			);
		for (const placeholder of ['<content>', '<file contents>', '<your_text>']) {
			assert.deepStrictEqual(write(placeholder).calls, [], placeholder);
		}
		for (const markup of ['<b>', '<p>', '</div>', '<br/>', '<a href="x">']) {
			assert.deepStrictEqual(
				write(markup).calls.map(c => JSON.parse(c.rawArguments).content),
				[markup],
				`${markup} is written as it is`,
			);
		}
	});

	it('what the model wrote after its call, before any result, is set apart from the prose', () => {
		const found = read(
			'Reading it.\n<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}}</tool_call>\n<tool_response>made up</tool_response>\nIt says: made up.',
		);
		assert.strictEqual(found.calls.length, 1);
		assert.strictEqual(found.prose, 'Reading it.');
		assert.match(found.afterCalls, /made up/);
	});
});
