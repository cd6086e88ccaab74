import * as assert from 'assert';
import { appendAnswer, fencedShellCalls, REASK, reviewStep } from '../../../../../src/core/agent/loop/reviewPhase';
import { isTurnEnd } from '../../../../../src/core/agent/loop/turnState';
import { defineTool, ok } from '../../../../../src/core/tools/defineTool';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import * as z from 'zod';
import { fileTools } from '../../../../fakes/readTools';
import { phaseFixture, response } from './phaseFixture';

const runCommand = defineTool({
	name: 'run_command',
	description: 'Run a shell command',
	input: z.object({ command: z.string() }),
	effect: 'exec',
	describe: input => input.command,
	execute: async () => ok(''),
});

describe('turn phases: review the response', () => {
	it('turns a call written as text into a call, and takes the text back from the chat', () => {
		const { state, ctx, of } = phaseFixture();
		state.step = 1;
		const output = reviewStep(
			state,
			ctx,
			response({
				text: 'Reading.\n<tool_call>{"name":"read_file","arguments":{"path":"README.md"}}</tool_call>',
			}),
		);
		assert.ok(output !== REASK && !isTurnEnd(output));
		assert.deepStrictEqual(
			output.calls.map(c => [c.name, JSON.parse(c.rawArguments)]),
			[['read_file', { path: 'README.md' }]],
		);
		assert.ok(of('textRetracted').length > 0);
		assert.strictEqual(state.shortfalls, 0);
	});

	it('re-asks with a correction, then once more differently (the exact form, as text), then ends the turn', () => {
		const { state, ctx, notices } = phaseFixture();
		state.step = 1;
		assert.strictEqual(reviewStep(state, ctx, response({ finishReason: 'tool_calls' })), REASK);
		assert.ok(state.nudge?.text, 'the correction waits for the next request');
		assert.ok(!state.nudge?.textMode, 'the first correction keeps native tools');
		const first = state.nudge!.text;
		state.nudge = undefined;
		assert.strictEqual(reviewStep(state, ctx, response({ finishReason: 'tool_calls' })), REASK);
		const second = nudgeOf(state);
		assert.notStrictEqual(second?.text, first, 'the second re-ask is a different remedy');
		assert.strictEqual(second?.textMode, true, 'asked for as a text call this once');
		assert.match(second!.text, /<tool_call>\{"name":/);
		state.nudge = undefined;
		const end = reviewStep(state, ctx, response({ finishReason: 'tool_calls' }));
		assert.ok(isTurnEnd(end));
		assert.strictEqual(end.error?.code, 'modelFormat');
		assert.deepStrictEqual(
			notices().map(n => [n.code, n.level]),
			[
				['reask', 'warning'],
				['reask', 'warning'],
				['noAnswer', 'error'],
			],
		);
	});

	it('a response with work in it starts the shortfall count afresh', () => {
		const { state, ctx } = phaseFixture();
		state.step = 1;
		assert.strictEqual(reviewStep(state, ctx, response()), REASK);
		const good = reviewStep(state, ctx, response({ text: 'The answer is 4.' }));
		assert.ok(good !== REASK && !isTurnEnd(good));
		assert.strictEqual(state.shortfalls, 0);
		assert.strictEqual(reviewStep(state, ctx, response()), REASK, 'a new shortfall is re-asked again');
	});

	it('asks for sampling that breaks repetition after a degenerate response, and folds what was shown', () => {
		const { state, ctx, of } = phaseFixture();
		state.step = 1;
		assert.strictEqual(reviewStep(state, ctx, response({ text: 'la la la', degenerate: true })), REASK);
		assert.strictEqual(state.nudge?.avoidRepetition, true);
		assert.deepStrictEqual(
			of('textRetracted').map(e => e.reason),
			['retry'],
		);
	});

	it('with recovery off, passes the response through untouched', () => {
		const { state, ctx } = phaseFixture([], { recovery: { enabled: false } });
		const text = '<tool_call>{"name":"read_file","arguments":{"path":"README.md"}}</tool_call>';
		const output = reviewStep(state, ctx, response({ text }));
		assert.ok(output !== REASK && !isTurnEnd(output));
		assert.strictEqual(output.calls.length, 0);
		assert.strictEqual(output.text, text);
	});
});

describe('turn phases: fenced shell blocks in text mode', () => {
	const registry = () => new ToolRegistry([...fileTools, runCommand]);

	it('makes run_command calls of a reply ending in ```bash blocks, keeping the prose as the text', () => {
		const { state, ctx, of } = phaseFixture([], { registry: registry(), recovery: { toolMode: 'text' } });
		state.step = 2;
		const output = fencedShellCalls(state, ctx, response({ text: 'Let me look.\n```bash\nls -la\n```' }));
		assert.deepStrictEqual(
			output.calls.map(c => [c.name, c.rawArguments]),
			[['run_command', '{"command":"ls -la"}']],
		);
		// An id Keel makes up passes every known server's rule (Mistral's nine letters or digits).
		assert.match(output.calls[0].id, /^[A-Za-z0-9]{9}$/);
		assert.strictEqual(output.text, 'Let me look.');
		assert.deepStrictEqual(
			of('textRetracted').map(e => e.reason),
			['recovered'],
		);
	});

	it('leaves the reply alone in native mode or when run_command is not offered', () => {
		const reply = response({ text: '```bash\nls\n```' });
		const native = phaseFixture([], { registry: registry(), recovery: { toolMode: 'native' } });
		assert.strictEqual(fencedShellCalls(native.state, native.ctx, reply), reply);
		const without = phaseFixture([], { recovery: { toolMode: 'text' } });
		assert.strictEqual(fencedShellCalls(without.state, without.ctx, reply), reply);
	});
});

describe('turn phases: append the answer', () => {
	it('adds the text to the history, and nothing for a response without text', () => {
		const { state, ctx } = phaseFixture();
		appendAnswer(state, ctx, response());
		assert.strictEqual(state.added.length, 1);
		appendAnswer(state, ctx, response({ text: 'Done.' }));
		assert.deepStrictEqual(state.added.at(-1), { kind: 'assistant', content: 'Done.' });
	});

	it('warns when the final answer is one phrase repeated', () => {
		const { state, ctx, notices } = phaseFixture();
		appendAnswer(state, ctx, response({ text: 'the user-providualize '.repeat(40) }));
		assert.deepStrictEqual(
			notices().map(n => n.code),
			['degenerate'],
		);
	});
});

/** The nudge as the state holds it now (not as the compiler narrowed it after a reset). */
function nudgeOf(state: { nudge?: { text: string; textMode?: boolean } }) {
	return state.nudge;
}
