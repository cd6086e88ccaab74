import * as assert from 'assert';
import * as fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { runTurn } from '../../src/core/agent/loop/runAgent';
import { ToolRegistry } from '../../src/core/tools/registry';
import { startModelDouble, text, type ModelDouble, type Wire } from '../support/modelDouble';
import { modelOn } from '../support/resilience/harness';
import { fastRecovery } from '../support/resilience/runScenario';
import { encodeCall, encodingChoice } from '../support/resilience/callEncodings';
import { intendedCall, recordingTools, type Execution } from '../support/resilience/genTools';

// Several calls written as text in one reply, through the real loop, each wire's adapter and
// HTTP to the model double: every call runs once, in the order written, and the answer the user
// reads holds none of their wrapping.
const WIRES: Wire[] = ['openai', 'ollama', 'anthropic'];

const reply = fc
	.record({
		calls: fc.uniqueArray(intendedCall, { minLength: 2, maxLength: 3, selector: c => JSON.stringify(c) }),
		encoding: encodingChoice.filter(e => !['keyValue', 'keyValueTags'].includes(e.name)),
		layout: fc.constantFrom('eachTagged', 'eachToken', 'pythonList', 'jsonArray'),
		chunks: fc.integer({ min: 1, max: 30 }),
	})
	.map(r => {
		const encoded = r.calls.map(c => encodeCall(c.tool, c.args, r.encoding).text);
		const python = r.calls.map(c => encodeCall(c.tool, c.args, { ...r.encoding, name: 'python' }).text);
		const json = r.calls.map(c => JSON.stringify({ name: c.tool, arguments: c.args }));
		const body = {
			eachTagged: () => encoded.map(c => `<tool_call>\n${c}\n</tool_call>`).join('\n'),
			eachToken: () => encoded.map(c => `<|tool_call_begin|>${c}<|tool_call_end|>`).join(''),
			pythonList: () => `<|tool_call_start|>[${python.join(', ')}]<|tool_call_end|>`,
			jsonArray: () => `<tool_call>[${json.join(', ')}]</tool_call>`,
		}[r.layout]();
		return { ...r, text: `I will do these now.\n${body}` };
	});

async function runReply(double: ModelDouble, wire: Wire, replyText: string, chunks: number) {
	double.reset();
	double.script({ kind: 'reply', text: replyText, textChunks: chunks }, text('Done.'), text('Done.'));
	const ran: Execution[] = [];
	const outcome = await runTurn(
		{
			model: modelOn(double, wire),
			registry: new ToolRegistry(recordingTools(ran)),
			approvals: undefined,
			approvalSettings: { autoApprove: { read: true, write: true, exec: true } },
			workspace: { rootName: 'groups' } as never,
			systemPrompt: 'You are a careful agent. Use the tools.',
			maxSteps: 4,
			emit: () => undefined,
			recovery: fastRecovery,
		},
		[],
		'Please take care of the task.',
		`t${Math.random().toString(36).slice(2, 8)}`,
		new AbortController().signal,
	);
	const shown = outcome.messages
		.filter(m => m.kind === 'assistant')
		.map(m => m.content)
		.join('\n');
	return { ran, shown };
}

describe('several calls written as text in one reply, through the loop on three wires', function () {
	this.timeout(120_000);
	let double: ModelDouble;
	before(async () => {
		double = await startModelDouble();
	});
	after(() => double.close());

	for (const wire of WIRES) {
		it(`${wire}: each call runs once in the order written, and no wrapping is shown`, async () => {
			await fc.assert(
				fc.asyncProperty(reply, async r => {
					const { ran, shown } = await runReply(double, wire, r.text, r.chunks);
					assert.deepStrictEqual(
						ran.map(x => x.name),
						r.calls.map(c => c.tool),
						JSON.stringify(r.text),
					);
					ran.forEach((x, i) =>
						assert.ok(isDeepStrictEqual(x.input, { ...r.calls[i].args }), JSON.stringify(r.text)),
					);
					assert.ok(!/<\||\|>|<\/|\[\w|```/.test(shown), `wrapping shown: ${JSON.stringify(shown)}`);
				}),
				{ numRuns: 25, seed: 31 },
			);
		});
	}
});
