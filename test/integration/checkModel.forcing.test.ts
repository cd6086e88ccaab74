// Check Model measures what a server does with a forced tool call, through the real adapters
// and HTTP to the model double taught the three behaviours servers have (enforce: vLLM, SGLang,
// the cloud APIs; ignore: Ollama, LM Studio "required"; refuse: a 400), and keeps the verdict
// where the chat's loop reads it before it ever forces a call.
import * as assert from 'node:assert/strict';
import { InMemoryForcingMemory } from '../../src/core/agent/recovery/forcingMemory';
import { reportMarkdown } from '../../src/core/checkModel/markdown';
import {
	startModelDouble,
	text,
	toolCall,
	type ModelDouble,
	type RecordedRequest,
	type ServerBehaviour,
} from '../support/modelDouble';
import { checkAgainst } from '../support/checkModel/runAgainst';

/** A model that calls get_weather when asked about the weather, and otherwise answers in words. */
function model(req: RecordedRequest) {
	const prompt = JSON.stringify(req.body.messages ?? []);
	if (req.constrained) {
		const name = req.constrained.kind === 'named' ? req.constrained.name : 'get_weather';
		return toolCall(name, name === 'get_time' ? { zone: 'Europe/Paris' } : { city: 'Paris' });
	}
	return /weather/i.test(prompt) ? toolCall('get_weather', { city: 'Paris' }) : text('Hello there, good day to you.');
}

describe('Check Model — what the server does with a forced call', function () {
	this.timeout(60_000);
	let double: ModelDouble;
	afterEach(() => double?.close());

	const cases: Array<[ServerBehaviour['toolChoice'], string, RegExp]> = [
		['enforce', 'honoured', /Forced tool calls are enforced by this server\. Keel forces a call as its last step/],
		['ignore', 'ignored', /accepted and ignored.*Keel never forces a call on this server/],
		['refuse', 'refused', /refused by this server/],
	];
	for (const [toolChoice, verdict, said] of cases) {
		it(`a server that ${toolChoice}s it: both kinds ${verdict}, in the report and in the memory the loop reads`, async () => {
			double = await startModelDouble({ models: ['double'], server: { toolChoice } });
			double.script(...Array.from({ length: 3 }, () => model));
			const memory = new InMemoryForcingMemory();
			const { report } = await checkAgainst(double, 'openai', { tasks: [], forcingMemory: memory });
			assert.deepEqual(report.forcing && [report.forcing.required, report.forcing.named], [verdict, verdict]);
			assert.match(report.forcing!.detail, said);
			assert.match(reportMarkdown(report), /Forced calls: /);
			const id = `openai:${double.openaiBaseUrl}#double`;
			assert.equal(memory.get(id, 'required'), verdict);
			assert.equal(memory.get(id, 'named'), verdict);
			const forced = double.modelRequests.filter(r => r.body.tool_choice !== undefined);
			assert.deepEqual(
				forced.map(r => r.body.tool_choice),
				['required', { type: 'function', function: { name: 'get_time' } }],
			);
		});
	}

	it("Ollama's native API has no way to ask: nothing is sent, the report says so", async () => {
		double = await startModelDouble({ models: ['double'], server: { toolChoice: 'enforce' } });
		double.script(model);
		const { report } = await checkAgainst(double, 'ollama', { tasks: [] });
		assert.equal(report.forcing?.required, 'notAsked');
		assert.match(report.forcing!.detail, /no way to force a tool call/);
		assert.equal(double.modelRequests.length, 1, 'only the one-call probe');
	});
});
