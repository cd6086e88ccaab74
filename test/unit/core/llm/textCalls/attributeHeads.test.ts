import * as assert from 'assert';
import * as fc from 'fast-check';
import { findTextCalls } from '../../../../../src/core/agent/recovery/review/textCalls';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { recordingTools } from '../../../../support/resilience/genTools';
import { negativeCase, positiveCase } from '../../../../support/resilience/replyGrammar';

const registry = new ToolRegistry(recordingTools([]));
const offered = registry.specs();
const read = (text: string, prompt?: string) => findTextCalls(text, { registry, offered, prompt });

describe('calls whose name is an attribute, arguments after a separator token', function () {
	// The generated cases are drawn from the whole grammar and filtered to this encoding.
	this.timeout(30_000);
	it('the template no parser names runs once, and none of its markup is left for the user', () => {
		for (const text of [
			'<|open|>call name="read_file"<|sep|>{"path":"a"}<|close|>',
			'Let me look.\n<|tool_start|>function name="read_file"<|args|>{"path":"a"}<|tool_end|>',
			'[CALL name=read_file] {"path":"a"} [/CALL]',
			'<|call|>invoke tool=\'read_file\' => {"path":"a"}<|end|>',
			'[INVOKE tool="read_file" id=1]\n{"path":"a"}',
		]) {
			const found = read(text);
			assert.deepStrictEqual(found.calls, [{ name: 'read_file', rawArguments: '{"path":"a"}' }], text);
			assert.ok(!/name=|tool=|<\||\[\/?[A-Z]/.test(found.prose), `clean prose: ${JSON.stringify(found.prose)}`);
		}
	});

	it('any keyword, key, quoting and separator, in any wrapper and placement: one call, clean prose', () => {
		const cases = positiveCase.filter(c => c.parts.encoding === 'nameAttribute');
		fc.assert(
			fc.property(cases, c => {
				const visible = c.reasoning || c.text.replace(/<\/?think>/g, '');
				const found = read(visible);
				assert.strictEqual(found.calls.length, 1, JSON.stringify(visible));
				assert.deepStrictEqual(
					registry.parse(c.expected!.tool, found.calls[0].rawArguments),
					registry.parse(c.expected!.tool, JSON.stringify(c.expected!.args)),
				);
				assert.ok(!/=|<\||\|>|｜/.test(found.prose), `no head left: ${JSON.stringify(found.prose)}`);
			}),
			{ numRuns: 200, seed: 31 },
		);
	});

	it('a tool named as a setting in a sentence, with or without arguments beside it, never runs', () => {
		const mentions = negativeCase.filter(c => c.parts.placement === 'attributeMention');
		fc.assert(
			fc.property(mentions, c => {
				assert.deepStrictEqual(read(c.text, c.prompt).calls, [], JSON.stringify(c.text));
			}),
			{ numRuns: 200, seed: 32 },
		);
	});

	it('an opened head with nothing after it is an empty call the model is told about, not a run', () => {
		const found = read('[CALL name="read_file"]');
		assert.deepStrictEqual(found.calls, []);
		assert.match(found.problems[0]?.detail ?? '', /has no arguments/);
	});
});
