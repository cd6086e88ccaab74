// Calls written as text, generated from independent parts (replyGrammar.ts), through the real
// loop, each wire's real adapter and HTTP to the model double: every complete call to an
// offered tool runs once with its arguments and its wrapper is not shown; nothing of the
// negative set runs. The bench (npm run bench:resilience) runs thousands; this runs a sample.

import * as assert from 'node:assert/strict';
import { startModelDouble, type ModelDouble, type Wire } from '../support/modelDouble';
import { runGenCase } from '../support/resilience/generativeRun';
import { sampleCases } from '../support/resilience/replyGrammar';

describe('resilience — calls written as text in any shape, through the loop on every wire', function () {
	this.timeout(120_000);
	let double: ModelDouble;
	before(async () => (double = await startModelDouble()));
	after(() => double.close());

	const { positive, negative } = sampleCases(2026, 90, 45);
	for (const wire of ['openai', 'ollama', 'anthropic'] as const satisfies readonly Wire[]) {
		it(`${wire}: each complete call runs once, as written, and none of its wrapper is the answer`, async () => {
			for (const c of positive.map(p => ({ ...p, parts: { ...p.parts, wire } })).slice(0, 30)) {
				const r = await runGenCase(double, c, 'general');
				assert.ok(
					r.salvaged,
					`${JSON.stringify(c.text || c.reasoning)} → ran ${JSON.stringify(r.ran)}, shown ${JSON.stringify(r.shown)}`,
				);
			}
		});

		it(`${wire}: prose naming tools, examples, half calls and unoffered tools never run`, async () => {
			for (const c of negative.map(n => ({ ...n, parts: { ...n.parts, wire } })).slice(0, 15)) {
				const r = await runGenCase(double, c, 'general');
				assert.deepEqual(r.ran, [], JSON.stringify(c.text));
			}
		});
	}

	it('the dialect parsers alone miss most of these shapes (the general extractor is what salvages them)', async () => {
		let salvaged = 0;
		for (const c of positive.slice(0, 30)) {
			salvaged += (await runGenCase(double, c, 'dialects')).salvaged ? 1 : 0;
		}
		assert.ok(salvaged < 15, `dialects alone salvaged ${salvaged} of 30`);
	});
});
