import * as assert from 'assert';
import * as fc from 'fast-check';
import { recoverCalls } from '../../../../../src/core/agent/recovery/review/callRepair';
import type { StepOutput } from '../../../../../src/core/agent/loop/modelStep';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { encodeCall, encodingChoice } from '../../../../support/resilience/callEncodings';
import { intendedCall, recordingTools } from '../../../../support/resilience/genTools';
import { wrap } from '../../../../support/resilience/replyGrammar';

const registry = new ToolRegistry(recordingTools([]));
const offered = registry.specs();

function output(text: string, rawArguments: string, name: string): StepOutput {
	return {
		text,
		calls: [{ id: 'native-1', name, rawArguments }],
		finishReason: 'tool_calls',
		reasoning: '',
		harmonyCalls: [],
		textBeforeCalls: text.length,
	};
}

const same = (name: string, a: string, b: string) =>
	assert.deepStrictEqual(registry.parse(name, a), registry.parse(name, b));

/** What a server's parser leaves of the arguments: nothing, an empty object, broken JSON, or only some keys. */
function lossy(args: Record<string, unknown>, how: number, name: string): string | undefined {
	const required = (offered.find(t => t.name === name)!.parameters.required ?? []) as string[];
	const optional = Object.keys(args).filter(k => !required.includes(k));
	switch (how) {
		case 0:
			return '{}';
		case 1:
			return '';
		case 2:
			return JSON.stringify(args).slice(0, -3);
		default:
			// Only the required keys: valid, but part of the call written out.
			return optional.length > 0
				? JSON.stringify(Object.fromEntries(Object.entries(args).filter(([k]) => !optional.includes(k))))
				: undefined;
	}
}

const wrapper = fc.record({
	kind: fc.constantFrom('none', 'tag', 'specialToken', 'bracket', 'fence' as const),
	tag: fc.constantFrom('tool_call', 'function_call', 'call'),
	fenceLang: fc.constantFrom('', 'json'),
});

describe('a structured call and a call written in the text to the same tool', () => {
	it('disagree: the complete one runs, once, under the structured id — never both, never the empty one', () => {
		fc.assert(
			fc.property(intendedCall, encodingChoice, wrapper, fc.integer({ min: 0, max: 3 }), (call, enc, w, how) => {
				const partial = lossy(call.args, how, call.tool);
				fc.pre(partial !== undefined);
				const written = wrap(encodeCall(call.tool, call.args, enc).text, w as never);
				const recovered = recoverCalls(output(written, partial!, call.tool), registry, offered, i => `t${i}`);
				const calls = recovered.output.calls;
				assert.strictEqual(calls.length, 1, JSON.stringify({ written, partial }));
				assert.strictEqual(calls[0].id, 'native-1');
				same(call.tool, calls[0].rawArguments, JSON.stringify(call.args));
			}),
			{ numRuns: 300, seed: 33 },
		);
	});

	it('the structured call is the complete one: it runs, and an empty call in the text changes nothing', () => {
		const full = JSON.stringify({ path: 'src/a.ts' });
		for (const text of [
			'<tool_call>{"name": "read_file", "arguments": {}}</tool_call>',
			'read_file()',
			'<|open|>call name="read_file"<|sep|>{}<|close|>',
		]) {
			const recovered = recoverCalls(output(text, full, 'read_file'), registry, offered, i => `t${i}`);
			assert.deepStrictEqual(
				recovered.output.calls.map(c => c.rawArguments),
				[full],
				text,
			);
		}
	});

	it('both complete but different: the structured one runs alone', () => {
		const text = '<tool_call>{"name": "read_file", "arguments": {"path": "b.ts"}}</tool_call>';
		const recovered = recoverCalls(output(text, '{"path":"a.ts"}', 'read_file'), registry, offered, i => `t${i}`);
		assert.deepStrictEqual(
			recovered.output.calls.map(c => c.rawArguments),
			['{"path":"a.ts"}'],
		);
	});

	it('the issue shape: "{}" beside the call written whole in the content runs the whole one and says so', () => {
		const text = 'Reading it.\n<tool_call>{"name": "read_file", "arguments": {"path": "notes/a.txt"}}</tool_call>';
		const recovered = recoverCalls(output(text, '{}', 'read_file'), registry, offered, i => `t${i}`);
		assert.deepStrictEqual(recovered.output.calls, [
			{ id: 'native-1', name: 'read_file', rawArguments: '{"path":"notes/a.txt"}' },
		]);
		assert.strictEqual(recovered.output.text, 'Reading it.');
		assert.ok(recovered.notes.some(n => /written in the text/.test(n)));
	});
});
