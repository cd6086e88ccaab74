// Think-augmented function calling through the real loop, each wire's real adapter and HTTP to
// the model double: the schema sent carries `thinking`, the model's reasoning never reaches the
// tool, the task still completes, and the price shows as tokens. The with/without figures over
// many tasks are in `npm run bench:resilience`.

import * as assert from 'node:assert/strict';
import { makeScenarios, WIRES } from '../support/resilience/scenarios';
import { runScenario } from '../support/resilience/runScenario';

describe('TAFC against the model double', function () {
	this.timeout(120_000);

	for (const wire of WIRES) {
		it(`${wire}: the thinking field is offered, filled, dropped before the tool runs, and costs tokens`, async () => {
			const [scenario] = makeScenarios(1, 3, ['badJson'], [wire]);
			const off = await runScenario({ ...scenario, tafc: false }, true);
			const on = await runScenario({ ...scenario, tafc: true }, true);
			assert.equal(off.completed, true, `without TAFC: ${off.reason}`);
			assert.equal(on.completed, true, `with TAFC: ${on.reason} ${on.outcome.error?.message ?? ''}`);
			// The model filled `thinking` (it is in its calls as written)...
			const written = on.outcome.messages.filter(m => m.kind === 'tool_call').map(m => JSON.stringify(m.data));
			assert.ok(
				written.some(call => call.includes('thinking')),
				`calls as written: ${written.join(' | ')}`,
			);
			// ...and the arguments the tools ran with, shown on the cards, do not carry it.
			const ran = on.events.flatMap(e =>
				e.type === 'toolCallUpdated' && e.call.status === 'succeeded' ? [e.call.argumentsText] : [],
			);
			assert.ok(ran.length >= 3, `calls that ran: ${ran.length}`);
			assert.ok(
				ran.every(args => !args.includes('thinking')),
				`arguments the tools ran with: ${ran.join(' | ')}`,
			);
			assert.ok(on.tokens > off.tokens, `tokens on ${on.tokens} vs off ${off.tokens}`);
			// A script's mistakes do not depend on reasoning: the same fault costs the same corrections.
			assert.equal(on.argumentErrors, off.argumentErrors);
		});
	}
});
