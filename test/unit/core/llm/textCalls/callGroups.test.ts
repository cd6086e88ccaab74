import * as assert from 'assert';
import * as fc from 'fast-check';
import { findTextCalls } from '../../../../../src/core/agent/recovery/review/textCalls';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { encodeCall, encodingChoice, type Args } from '../../../../support/resilience/callEncodings';
import { intendedCall, recordingTools } from '../../../../support/resilience/genTools';

// Replies that carry several calls, and calls inside punctuation that pairs around them: the
// extractor reads every call once, in order, and leaves none of the wrapping as the answer.
const registry = new ToolRegistry(recordingTools([]));
const offered = registry.specs();
const read = (text: string) => findTextCalls(text, { registry, offered, prompt: 'Please take care of the task.' });
const ident = fc.stringMatching(/^[a-z]{2,8}(_[a-z]{2,8}){0,2}$/);

/** Each call in a wrapper of its own, one after another, or all of them in one list. */
const layouts = ['eachTagged', 'eachToken', 'eachFenced', 'pythonList', 'jsonArray', 'lines'] as const;

function lay(layout: (typeof layouts)[number], calls: string[], python: string[], json: string[], tag: string): string {
	switch (layout) {
		case 'eachTagged':
			return calls.map(c => `<${tag}>\n${c}\n</${tag}>`).join('\n');
		case 'eachToken':
			return calls.map(c => `<|${tag}_begin|>${c}<|${tag}_end|>`).join('');
		case 'eachFenced':
			return calls.map(c => `\`\`\`${tag}\n${c}\n\`\`\``).join('\n');
		case 'pythonList':
			return `<|${tag}_start|>[${python.join(', ')}]<|${tag}_end|>`;
		case 'jsonArray':
			return `<${tag}>[${json.join(', ')}]</${tag}>`;
		case 'lines':
			return python.join('\n');
	}
}

const encodingsThatStandAlone = encodingChoice.filter(e => !['keyValue', 'keyValueTags'].includes(e.name));

/** Calls with distinct arguments: the same call twice is one call (a re-sent call never runs twice). */
const distinctCalls = fc
	.uniqueArray(intendedCall, { minLength: 2, maxLength: 3, selector: c => JSON.stringify(c) })
	.filter(cs => new Set(cs.map(c => `${c.tool}${JSON.stringify(c.args)}`)).size === cs.length);

const same = (name: string, raw: string, args: Args) =>
	assert.deepStrictEqual(registry.parse(name, raw), registry.parse(name, JSON.stringify(args)));

describe('calls written as text: several in one reply, and paired punctuation around a call', () => {
	it('every call of a reply runs once, in order, and no wrapper is left as the answer', () => {
		fc.assert(
			fc.property(
				distinctCalls,
				encodingsThatStandAlone,
				fc.constantFrom(...layouts),
				fc.oneof(fc.constantFrom('tool_call', 'function_call', 'tool'), ident),
				(calls, encoding, layout, tag) => {
					const texts = calls.map(c => encodeCall(c.tool, c.args, encoding).text);
					const python = calls.map(c => encodeCall(c.tool, c.args, { ...encoding, name: 'python' }).text);
					const json = calls.map(c => JSON.stringify({ name: c.tool, arguments: c.args }));
					const text = lay(layout, texts, python, json, tag);
					const found = read(text);
					assert.deepStrictEqual(
						found.calls.map(c => c.name),
						calls.map(c => c.tool),
						JSON.stringify(text),
					);
					found.calls.forEach((c, i) => same(c.name, c.rawArguments, calls[i].args));
					assert.strictEqual(found.prose, '', `nothing of ${JSON.stringify(text)} is the answer`);
				},
			),
			{ numRuns: 300, seed: 21 },
		);
	});

	it('a call inside paired brackets, with or without a token around them, runs with the brackets not shown', () => {
		const pairs: Array<[string, string]> = [
			['[', ']'],
			['(', ')'],
			['{{', '}}'],
			['<<<', '>>>'],
			['【', '】'],
			['«', '»'],
		];
		fc.assert(
			fc.property(
				intendedCall,
				fc.constantFrom(...pairs),
				fc.option(ident, { nil: undefined }),
				fc.constantFrom('"' as const, "'" as const),
				({ tool, args }, [open, close], token, quote) => {
					const call = encodeCall(tool, args, {
						name: 'python',
						nameKey: 'name',
						argsKey: 'arguments',
						pretty: false,
						extraFields: false,
						quote,
						separator: ', ',
						connector: ' ',
						keyTag: 'key',
						valueTag: 'value',
					}).text;
					const inner = `${open}${call}${close}`;
					const text = token ? `<|${token}_start|>${inner}<|${token}_end|>` : inner;
					const found = read(text);
					assert.strictEqual(found.calls.length, 1, JSON.stringify(text));
					same(found.calls[0].name, found.calls[0].rawArguments, args);
					assert.strictEqual(found.prose, '', JSON.stringify(text));
				},
			),
			{ numRuns: 200, seed: 22 },
		);
	});

	it('a call numbered after its name (`functions.NAME:0`, `NAME#1`) runs with its arguments', () => {
		fc.assert(
			fc.property(
				intendedCall,
				fc.nat({ max: 99 }),
				fc.constantFrom(':', '#'),
				fc.constantFrom(' ', '', '<|tool_call_argument_begin|>', '\n'),
				fc.boolean(),
				({ tool, args }, index, mark, connector, namespaced) => {
					const name = `${namespaced ? 'functions.' : ''}${tool}${mark}${index}`;
					const text = `<|tool_call_begin|>${name}${connector}${JSON.stringify(args)}<|tool_call_end|>`;
					const found = read(text);
					assert.strictEqual(found.calls.length, 1, JSON.stringify(text));
					same(found.calls[0].name, found.calls[0].rawArguments, args);
					assert.strictEqual(found.prose, '', JSON.stringify(text));
				},
			),
			{ numRuns: 150, seed: 23 },
		);
	});

	it("a template's headers and special tokens around a call are not the answer; the words between them are", () => {
		fc.assert(
			fc.property(
				intendedCall,
				ident,
				ident,
				fc.constantFrom('I need the file first.', 'Checking.', 'Plan: look, then fix.'),
				({ tool, args }, role, channel, words) => {
					const header = (ch: string) => `<|start|>${role}<|channel|>${ch}`;
					const text = `${header(channel)}<|message|>${words}<|end|>${header('commentary')} to=functions.${tool} <|constrain|>json<|message|>${JSON.stringify(args)}<|call|>`;
					const found = read(text);
					assert.strictEqual(found.calls.length, 1, text);
					same(found.calls[0].name, found.calls[0].rawArguments, args);
					assert.strictEqual(found.prose, words, text);
				},
			),
			{ numRuns: 100, seed: 24 },
		);
		assert.strictEqual(read('>>>read_file\n{"path": "src/a.ts"}').prose, '');
	});

	it("a call quoted inside a bracketed remark with words before it is not made (Keel's own hints echoed back)", () => {
		fc.assert(
			fc.property(
				intendedCall,
				fc.constantFrom(
					'Output filtered. Unfiltered:',
					'see',
					'for the rest, use',
					'Keel: 4 → 2 lines; all of it with',
				),
				fc.constantFrom<[string, string]>(['[', ']'], ['(', ')']),
				fc.constantFrom('', 'Here is what I found.\n', 'keep 1\nkeep 2\n'),
				({ tool, args }, words, [open, close], before) => {
					const text = `${before}${open}${words} ${tool} ${JSON.stringify(args)}${close}`;
					assert.deepStrictEqual(read(text).calls, [], text);
				},
			),
			{ numRuns: 150, seed: 25 },
		);
	});

	it('an answer with no call that is about a template keeps its tokens as written', () => {
		const answer =
			'ChatML marks turns with <|im_start|>user and <|im_end|>; gpt-oss uses <|start|>assistant<|channel|>final<|message|>.';
		const found = read(answer);
		assert.deepStrictEqual(found.calls, []);
		assert.strictEqual(found.prose, answer);
	});
});
