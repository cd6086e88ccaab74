import * as assert from 'assert';
import { repairArguments, splitConcatenated } from '../../../../../src/core/llm/textCalls/argumentRepair';
import { ToolCallAssembler } from '../../../../../src/core/llm/stream/toolCallAssembler';
import { looksCut } from '../../../../../src/core/agent/recovery/review/stepReview';

const schema = {
	type: 'object',
	properties: {
		path: { type: 'string' },
		limit: { type: 'integer' },
		recursive: { type: 'boolean' },
		globs: { type: 'array', items: { type: 'string' } },
	},
	required: ['path'],
};

describe('arguments as models really send them', () => {
	it('near-miss keys are renamed when exactly one property fits', () => {
		for (const key of ['file_path', 'filename', 'filepath', 'FilePath']) {
			assert.deepStrictEqual(
				repairArguments(JSON.stringify({ [key]: 'a.ts' }), schema)?.value,
				{ path: 'a.ts' },
				key,
			);
		}
		// Ambiguous: two missing properties could be meant; left as sent.
		const two = {
			type: 'object',
			properties: { source_path: { type: 'string' }, target_path: { type: 'string' } },
		};
		assert.deepStrictEqual(repairArguments('{"path":"x"}', two)?.value, { path: 'x' });
	});

	it('strings become numbers, booleans and lists as the schema asks', () => {
		assert.deepStrictEqual(
			repairArguments('{"path":"a","limit":"20","recursive":"true","globs":"*.ts, *.js"}', schema)?.value,
			{ path: 'a', limit: 20, recursive: true, globs: ['*.ts', '*.js'] },
		);
	});

	it('two calls glued into one arguments string are split; one object or broken text is not', () => {
		assert.deepStrictEqual(splitConcatenated('{"path":"a"}{"path":"b"}'), ['{"path":"a"}', '{"path":"b"}']);
		assert.deepStrictEqual(splitConcatenated('{"path":"a"}, {"path":"}{"}'), ['{"path":"a"}', '{"path":"}{"}']);
		assert.strictEqual(splitConcatenated('{"path":"a"}'), undefined);
		assert.strictEqual(splitConcatenated('{"path":"a"} and {"path":"b"}'), undefined);
	});

	it('Ollama streams parallel calls all with index 0: a new id starts a new call; object arguments are kept', () => {
		const a = new ToolCallAssembler();
		a.add({ index: 0, id: 'call_1', function: { name: 'read_file', arguments: '{"path":"a"}' } }, 0);
		a.add({ index: 0, id: 'call_2', function: { name: 'read_file', arguments: { path: 'b' } } }, 0);
		assert.deepStrictEqual(
			a.finish(i => `x${i}`).map(c => [c.id, c.rawArguments]),
			[
				['call_1', '{"path":"a"}'],
				['call_2', '{"path":"b"}'],
			],
		);
	});

	it('cut-off arguments are told apart from merely malformed ones', () => {
		assert.strictEqual(looksCut('{"path":"out.txt","content":"HARB'), true);
		assert.strictEqual(looksCut('{"path":"a","items":[1,2'), true);
		assert.strictEqual(looksCut("{'path':'a'}"), false);
		assert.strictEqual(looksCut('{"path":"a",}'), false);
	});
});
