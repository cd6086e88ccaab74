// Keel in a remote window (Remote-SSH, WSL, a dev container): the host tells the engine where it
// runs, and a loopback model address that does not answer is explained as the remote machine.
// The model double is real HTTP; "down" is a double that was started and then closed, so its
// port refuses connections as a stopped server's does.
import * as assert from 'assert';
import { defaultApprovalSettings } from '../../src/core/agent/approval/approvalPolicy';
import { createChatModel, resolveProvider, type ProviderKind } from '../../src/core/llm/catalog/providers';
import { ChatSession } from '../../src/core/session/chatSession';
import { ToolRegistry } from '../../src/core/tools/registry';
import { InMemoryWorkspace } from '../fakes/inMemoryWorkspace';
import { startModelDouble, text } from '../support/modelDouble';

function session(provider: ProviderKind, baseUrl: string, remote: string | undefined) {
	const resolved = resolveProvider({
		provider,
		baseUrl,
		model: 'qwen3',
		contextWindow: 8192,
		requestTimeoutSeconds: 30,
	});
	return new ChatSession({
		sessionId: 'remote',
		createModel: async () => createChatModel(resolved, undefined, undefined, remote ? { remote } : {}),
		modelLabel: () => 'qwen3',
		registry: new ToolRegistry([]),
		workspace: new InMemoryWorkspace({}),
		approvalSettings: () => defaultApprovalSettings,
		maxSteps: () => 5,
		systemPrompt: () => 'You are Keel.',
		recovery: () => ({ backoffBaseMs: 1, backoffMaxMs: 10, streamIdleTimeoutMs: 2000 }),
	});
}

describe('a model server on loopback, seen from a remote window', function () {
	this.timeout(30_000);
	let downUrl: string;

	before(async () => {
		const double = await startModelDouble();
		downUrl = double.url;
		await double.close();
	});

	for (const provider of ['ollama', 'llamacpp'] as const) {
		it(`says 127.0.0.1 is the remote machine and how to reach the user's server (${provider})`, async () => {
			const base = provider === 'ollama' ? downUrl : `${downUrl}/v1`;
			const outcome = await session(provider, base, 'ssh-remote').send('hello');
			assert.strictEqual(outcome.reason, 'failed');
			assert.strictEqual(outcome.error?.code, 'modelUnreachable');
			const message = outcome.error!.message;
			assert.match(message, /No model server answered at http:\/\/127\.0\.0\.1:\d+/);
			assert.match(message, /Keel runs in an SSH remote, so 127\.0\.0\.1 is that remote machine, not your own/);
			const port = new URL(downUrl).port;
			assert.ok(message.includes(`ssh -R ${port}:127.0.0.1:${port} <host>`), message);
			assert.match(
				message,
				/set keel\.model\.baseUrl to an address the remote machine can reach, or run the model server there/,
			);
		});
	}

	it('says nothing about remotes in a local window', async () => {
		const outcome = await session('ollama', downUrl, undefined).send('hello');
		assert.strictEqual(outcome.error?.code, 'modelUnreachable');
		assert.doesNotMatch(outcome.error!.message, /remote/);
	});

	it('talks to a server that answers on loopback in a remote window as anywhere', async () => {
		const double = await startModelDouble();
		try {
			double.script(text('hello from the remote side'));
			const outcome = await session('llamacpp', double.openaiBaseUrl, 'wsl').send('hi');
			assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
		} finally {
			await double.close();
		}
	});
});
