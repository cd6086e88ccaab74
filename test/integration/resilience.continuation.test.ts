// A call the output limit cut off is continued by the server, through the real loop, the real
// adapter of each wire and HTTP to the model double taught assistant prefill: llama.cpp
// continues a trailing assistant message unless started with --no-prefill-assistant (its server
// README), Ollama's /api/chat continues the last assistant message, Anthropic documents
// "Prefill Claude's response"; OpenAI's API starts a new reply instead. Generated contents
// (quotes, backslashes, newlines, tabs, accents, emoji) cut at any point, natively or as text.

import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { startModelDouble, text, toolCall, type RecordedRequest, type Wire } from '../support/modelDouble';
import { continuedCall, isCorrection, readConversation } from '../support/resilience/conversation';
import { harness } from '../support/resilience/harness';

const PATH = 'out/copy.txt';

/**
 * A model whose write is longer than the output limit: every fresh attempt is cut at `cut`
 * characters of its arguments (the limit does not move), unless a correction told it to write
 * less, which this model obeys only when `obeys`. Continuing its own open call, it writes the rest.
 */
function longWriter(content: string, cut: number, asText: boolean, obeys: boolean) {
	const args = { path: PATH, content };
	const json = JSON.stringify(args);
	const finishReason = 'length';
	return (req: RecordedRequest) => {
		const conv = readConversation(req);
		if (conv.results.some(r => r.startsWith(`wrote ${PATH}`))) {
			return text(`Done: wrote ${PATH}.`);
		}
		const rest = req.continues === undefined ? undefined : continuedCall(req.continues, 'write_file', args);
		if (rest !== undefined) {
			return text(rest);
		}
		if (obeys && isCorrection(conv.lastUser)) {
			return toolCall('write_file', args);
		}
		const begun = json.slice(0, cut);
		// Ollama parses a native call itself and answers a cut one with its 500 (a reflection case,
		// resilience.ollama.test.ts): what reaches Keel cut there is a call written as text.
		return asText || conv.textMode || req.wire === 'ollama'
			? text(`<tool_call>{"name": "write_file", "arguments": ${begun}`, { finishReason })
			: toolCall('write_file', begun, { finishReason, split: 3 });
	};
}

const content = fc
	.array(fc.constantFrom('a', 'Z', ' ', '"', '\\', '\n', '\t', 'é', '😀', '{', '}', ':', ',', '<', '/'), {
		minLength: 1,
		maxLength: 300,
	})
	.map(parts => parts.join(''));

describe('a call cut off by the output limit is continued, not asked for again', function () {
	this.timeout(600_000);

	it('where the server continues its open message: one more request, the whole content written once, on every wire', async () => {
		await fc.assert(
			fc.asyncProperty(
				content,
				fc.double({ min: 0.05, max: 0.95, noNaN: true }),
				fc.constantFrom<Wire>('openai', 'ollama', 'anthropic'),
				fc.boolean(),
				async (body, at, wire, asText) => {
					const json = JSON.stringify({ path: PATH, content: body });
					const cut = Math.max(1, Math.floor(json.length * at));
					const double = await startModelDouble();
					try {
						double.script(...Array.from({ length: 6 }, () => longWriter(body, cut, asText, false)));
						const t = harness(double, wire);
						const outcome = await t.run(`Write the text to ${PATH}.`);
						assert.equal(outcome.reason, 'completed', outcome.error?.message);
						assert.equal(t.files.files.get(PATH), body, 'the whole content, exactly');
						assert.equal(t.files.writeCount(PATH), 1);
						assert.equal(double.modelRequests.length, 3, 'the cut reply, its rest, the answer');
						assert.ok(
							double.modelRequests[1].continues !== undefined,
							'the second request ends with the open call',
						);
						assert.ok(
							t.notices().some(n => n.code === 'truncatedCall' && /continue/.test(n.text)),
							'the chat says the call was cut and continued',
						);
					} finally {
						await double.close();
					}
				},
			),
			{ numRuns: 40 },
		);
	});

	it('a server that starts a new reply instead (OpenAI): nothing half-written, and the usual corrections follow', async () => {
		await fc.assert(
			fc.asyncProperty(content, fc.double({ min: 0.05, max: 0.95, noNaN: true }), async (body, at) => {
				const json = JSON.stringify({ path: PATH, content: body });
				const cut = Math.max(1, Math.floor(json.length * at));
				const double = await startModelDouble({ server: { prefill: 'restart' } });
				try {
					double.script(...Array.from({ length: 8 }, () => longWriter(body, cut, false, true)));
					const t = harness(double, 'openai');
					const outcome = await t.run(`Write the text to ${PATH}.`);
					assert.equal(outcome.reason, 'completed', outcome.error?.message);
					assert.equal(t.files.files.get(PATH), body);
					assert.equal(t.files.writeCount(PATH), 1, 'never a half file, never twice');
					assert.ok(
						t.notices().some(n => n.code === 'reask'),
						'then corrected as before',
					);
				} finally {
					await double.close();
				}
			}),
			{ numRuns: 15 },
		);
	});
});
