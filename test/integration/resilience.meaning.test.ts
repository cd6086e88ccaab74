// Errors that cannot succeed as sent, whatever their status code — a quota sent as 429, out of
// memory as 500 or 503, a wait of hours, each also inside a 200 stream — through the real loop
// and HTTP on every wire: never retried blindly, and the user reads the server's own words and
// what to do. An error nobody recognises is sent at most three times, then shown as it came.

import * as assert from 'node:assert/strict';
import { makeScenarios } from '../support/resilience/scenarios';
import { MEANING_HOPELESS, SERVER_WORDS } from '../support/resilience/meaningFaults';
import { runScenario } from '../support/resilience/runScenario';

const ADVICE: Record<(typeof MEANING_HOPELESS)[number], RegExp> = {
	quota: /billing or balance problem, not a rate limit.*top up/,
	outOfMemory: /does not fit in the memory.*smaller model.*context size/,
	// A plan's usage limit is a quota with a reset time: either way the user reads when.
	longWait: /(?:wait until|resets) \d\d:\d\d \(in about \d+ h\)/,
	unknownForever: /does not recognise this error; it was sent 3 times/,
};

describe('resilience — errors by what they mean, through the loop on every wire', function () {
	this.timeout(60_000);
	for (const fault of MEANING_HOPELESS) {
		it(`${fault}: ends without blind retries, in the server's words, saying what to do`, async () => {
			// Five variants per class: every envelope and status the class has, on the three wires.
			for (const scenario of makeScenarios(5, 3, [fault]).filter((_, i) => i % 3 === 0 || i < 3)) {
				const result = await runScenario(scenario, true);
				const where = `${scenario.wire} v${scenario.variant}`;
				assert.equal(result.reason, 'failed', where);
				assert.equal(result.requests, fault === 'unknownForever' ? 3 : 1, where);
				assert.match(result.outcome.error!.message, SERVER_WORDS[fault], where);
				assert.match(result.outcome.error!.message, ADVICE[fault], where);
			}
		});
	}
});
