// Advice names the server the user runs: a llama.cpp or cloud user is never told to run
// `ollama pull`, and an Ollama user is never told about llama.cpp's flags. Every provider
// kind, at any address and with any model name, through every message that gives advice.
import * as assert from 'assert';
import fc from 'fast-check';
import { TurnGuards } from '../../../../../src/core/agent/guards/turnGuards';
import { defaultRecoverySettings } from '../../../../../src/core/agent/recovery/recoverySettings';
import { describeModelFailure } from '../../../../../src/core/llm/stream/httpErrors';
import { PROVIDERS, type ProviderKind } from '../../../../../src/core/llm/catalog/providers';
import { serverHints } from '../../../../../src/core/llm/stream/serverHints';

const SERVER_WORDS: Record<string, RegExp> = {
	ollama: /ollama/i,
	llamacpp: /llama\.cpp|llama-server/i,
	lmstudio: /LM Studio/,
};

/** The other servers' names must not appear in what `kind`'s user reads. */
function assertOnlyItsOwn(kind: ProviderKind, text: string): void {
	for (const [other, words] of Object.entries(SERVER_WORDS)) {
		if (other !== kind && !(kind === 'custom' && other === 'llamacpp')) {
			assert.doesNotMatch(text, words, `${kind}: ${text}`);
		}
	}
}

describe('server hints', () => {
	const kinds = Object.keys(PROVIDERS) as ProviderKind[];
	const host = fc.constantFrom('127.0.0.1', 'localhost', 'models.example.com', '10.0.0.7');
	const port = fc.constantFrom(11434, 8080, 1234, 8000, 443);
	const model = fc.stringMatching(/^[a-z][a-z0-9.:-]{0,20}$/);

	it('unreachable and unknown-model errors advise only the provider in use', () => {
		fc.assert(
			fc.property(fc.constantFrom(...kinds), host, port, model, (kind, h, p, m) => {
				const endpoint = { baseUrl: `http://${h}:${p}/v1`, model: m, provider: kind };
				const unreachable = describeModelFailure({ connection: true }, endpoint).message;
				const missing = describeModelFailure({ status: 404, body: '{"error":"model not found"}' }, endpoint);
				assertOnlyItsOwn(kind, unreachable);
				assertOnlyItsOwn(kind, missing.message);
				assert.strictEqual(missing.code, 'modelNotFound');
				if (kind === 'ollama') {
					assert.match(unreachable, /ollama serve/);
					assert.match(missing.message, new RegExp(`ollama pull ${m.replace(/[.]/g, '\\.')}`));
				}
			}),
		);
	});

	it("a prompt the server cut short is explained with that server's own setting", () => {
		for (const kind of kinds) {
			const notices: string[] = [];
			const guards = new TurnGuards(
				{ ...defaultRecoverySettings, serverContextHint: serverHints(kind).context },
				(_level, _code, text) => notices.push(text),
			);
			guards.plan('x'.repeat(40_000), [], [], false, false);
			guards.checkTruncation(2048);
			assert.strictEqual(notices.length, 1, kind);
			assertOnlyItsOwn(kind, notices[0]);
			if (kind === 'ollama') {
				assert.match(notices[0], /OLLAMA_CONTEXT_LENGTH/);
			}
		}
	});
});
