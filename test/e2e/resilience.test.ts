// Recovery as the user sees it in real VS Code: a retry line in the chat after a 429, and the
// step-cap question both as chat buttons and as a VS Code notification with Continue.
import * as assert from 'assert';
import { httpError, presets, text, toolCalls, withFaults } from '../support/modelDouble';
import { ask, freshChat, testId, useKeel, useModelDouble } from './harness';

describe('Keel recovery in VS Code (e2e)', function () {
	this.timeout(180_000);
	const double = useModelDouble();

	const keel = useKeel(() => ({
		settings: {
			'keel.model.baseUrl': double().openaiBaseUrl,
			'keel.agent.maxSteps': 2,
			'keel.recovery.backoffBaseSeconds': 0.2,
		},
	}));

	beforeEach(async () => {
		double().reset();
		await freshChat(keel);
	});

	it('shows a retry line after a 429 and then the answer', async () => {
		double().script(presets.openaiRateLimit(1), text('Answered after the retry.'));
		const chat = await keel.webview();
		await ask(chat, 'hello');
		const line = chat.locator(`${testId('notice')}[data-code="transportRetry"]`);
		await line.waitFor();
		assert.match((await line.textContent()) ?? '', /Model busy \(429\), retrying in 1 s — 1\/6/);
		const answer = chat.locator(`${testId('message-assistant')}[data-streaming="false"]`);
		await answer.waitFor();
		assert.match((await answer.textContent()) ?? '', /Answered after the retry/);
		assert.strictEqual(await chat.locator(testId('error-banner')).count(), 0);
		await keel.screenshot('resilience-retry-line');
	});

	it('shows a long Retry-After wait as a notification whose Cancel stops the turn', async () => {
		double().script(presets.openaiRateLimit(20), text('never sent'));
		const chat = await keel.webview();
		await ask(chat, 'hello again');
		const toast = keel.page.locator('.notification-toast', { hasText: 'Model busy (429), retrying in 20 s' });
		await toast.waitFor();
		await keel.screenshot('resilience-retry-progress');
		await toast.getByRole('button', { name: 'Cancel' }).click();
		await chat.locator(testId('send')).waitFor();
		await toast.waitFor({ state: 'detached' });
		assert.strictEqual(double().modelRequests.length, 1, 'no retry after Cancel');
		assert.strictEqual(await chat.locator(testId('error-banner')).count(), 0, 'a cancel is not an error');
	});

	it('folds the text of a broken stream and shows the retried answer once', async () => {
		double().script(
			withFaults(text('First attempt that will break off', { chunks: 6, delayMs: 40 }), { dropAfter: 4 }),
			text('The retried answer.'),
		);
		const chat = await keel.webview();
		await ask(chat, 'answer me');
		const folded = chat.locator(`${testId('message-retracted')}[data-reason="retry"]`);
		await folded.waitFor();
		await chat
			.locator(`${testId('message-assistant')}[data-streaming="false"]`, { hasText: 'The retried answer.' })
			.waitFor();
		assert.strictEqual(
			await chat.locator(testId('message-assistant')).count(),
			1,
			'the failed attempt is not shown as an answer',
		);
		assert.match(
			(await chat.locator(`${testId('notice')}[data-code="streamRetry"]`).textContent()) ?? '',
			/partial answer discarded/,
		);
	});

	it('re-asks an empty answer once, says so inline, and shows the answer that follows', async () => {
		double().script(text(''), text('Here after the nudge.'));
		const chat = await keel.webview();
		await ask(chat, 'say something');
		const line = chat.locator(`${testId('notice')}[data-code="reask"]`);
		await line.waitFor();
		assert.match(
			(await line.textContent()) ?? '',
			/empty answer \(no text, no tool call\); asked it again with a correction/,
		);
		await chat
			.locator(`${testId('message-assistant')}[data-streaming="false"]`, { hasText: 'Here after the nudge.' })
			.waitFor();
		assert.match(JSON.stringify(double().modelRequests[1].body.messages.at(-1)), /Your last reply was empty/);
		await keel.screenshot('resilience-empty-reask');
	});

	it('stops a repeating answer while it streams, folds it, and shows the re-asked answer once', async () => {
		const phrase = 'again and again and again ';
		double().script(text(phrase.repeat(150), { chunks: 150, delayMs: 5 }), text('A short, plain answer.'));
		const chat = await keel.webview();
		await ask(chat, 'tell me');
		await chat.locator(`${testId('message-retracted')}[data-reason="retry"]`).waitFor();
		await chat.locator(`${testId('notice')}[data-code="reask"]`).waitFor();
		await chat
			.locator(`${testId('message-assistant')}[data-streaming="false"]`, { hasText: 'A short, plain answer.' })
			.waitFor();
		assert.strictEqual(
			await chat.locator(testId('message-assistant')).count(),
			1,
			'the repetition is not shown as an answer',
		);
		assert.ok(double().modelRequests[0].response!.frames < 150, 'the stream was closed early');
		await keel.screenshot('resilience-degenerate-folded');
	});

	it('asks Continue / Stop at the step cap, in the chat and as a notification whose Continue goes on', async () => {
		double().script(
			toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]),
			toolCalls([{ name: 'list_directory', arguments: { path: '.' } }]),
			text('Finished after continuing.'),
		);
		const chat = await keel.webview();
		await ask(chat, 'look around');
		await chat.locator(`${testId('continue-prompt')}[data-state="pending"]`).waitFor();
		assert.strictEqual(await chat.locator(testId('continue-turn')).count(), 1);
		assert.strictEqual(await chat.locator(testId('stop-turn')).count(), 1);
		const toast = keel.page.locator('.notification-toast', { hasText: 'Keel has made 2 model requests' });
		await toast.waitFor();
		await keel.screenshot('resilience-step-cap-notification');
		await toast.getByRole('button', { name: 'Continue' }).click();
		await chat.locator(`${testId('continue-prompt')}[data-state="continued"]`).waitFor();
		const answer = chat.locator(`${testId('message-assistant')}[data-streaming="false"]`, {
			hasText: 'Finished after continuing.',
		});
		await answer.waitFor();
	});

	it('stops at the step cap when the user presses Stop in the chat', async () => {
		double().script(
			toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]),
			toolCalls([{ name: 'list_directory', arguments: { path: '.' } }]),
			text('never'),
		);
		const chat = await keel.webview();
		await ask(chat, 'look around again');
		await chat.locator(testId('stop-turn')).click();
		await chat.locator(`${testId('continue-prompt')}[data-state="stopped"]`).waitFor();
		await chat.locator(`${testId('notice')}[data-code="stepLimit"]`).waitFor();
		assert.strictEqual(double().modelRequests.length, 2, 'no request after Stop');
	});
});

describe('Keel doom-loop guard in VS Code (e2e)', function () {
	this.timeout(180_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({ settings: { 'keel.model.baseUrl': double().openaiBaseUrl } }));

	it('warns once, then stops a model repeating the same call with the same result, with a notification', async () => {
		const same = () => toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]);
		double().script(...Array.from({ length: 8 }, same), text('never'));
		const chat = await keel.openKeel();
		await ask(chat, 'read the readme');
		await chat.locator(`${testId('notice')}[data-code="loopWarning"]`).waitFor();
		const stopped = chat.locator(`${testId('notice')}[data-code="loopStopped"]`);
		await stopped.waitFor();
		assert.match((await stopped.textContent()) ?? '', /Stopped: same call with the same result repeated 3 times/);
		const toast = keel.page.locator('.notification-toast', {
			hasText: 'Stopped: same call with the same result repeated',
		});
		await toast.waitFor();
		await keel.screenshot('resilience-loop-stopped');
		assert.strictEqual(double().modelRequests.length, 6, 'three calls, a warning, three more, stop');
	});
});

describe('Keel recovery by principle in VS Code (e2e)', function () {
	this.timeout(180_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({
		settings: { 'keel.model.baseUrl': double().openaiBaseUrl, 'keel.recovery.backoffBaseSeconds': 0.2 },
	}));

	beforeEach(async () => {
		double().reset();
		await freshChat(keel);
	});

	it('runs a call written in a wrapper no parser knows, and shows none of the wrapper', async () => {
		double().script(
			text('Let me look at it.\n<|do_call|>read_file(path="README.md")<|/do_call|>', { chunks: 5 }),
			text('That is the readme.'),
		);
		const chat = await keel.webview();
		await ask(chat, 'what is in the readme?');
		await chat.locator(`${testId('tool-card')}[data-status="succeeded"]`).waitFor();
		await chat
			.locator(`${testId('message-assistant')}[data-streaming="false"]`, { hasText: 'That is the readme.' })
			.waitFor();
		const shown = (await chat.locator(testId('message-assistant')).allTextContents()).join('\n');
		assert.ok(!/do_call|read_file\(/.test(shown), `no wrapper in the answer: ${shown}`);
		assert.match(JSON.stringify(double().modelRequests[1].body.messages), /Keel fixture|README/i);
		await keel.screenshot('resilience-unknown-wrapper');
	});

	it("does not retry a quota sent as a 429, and shows the server's words with what to do", async () => {
		double().script(
			httpError(429, {
				error: {
					message: 'You exceeded your current quota, please check your plan and billing details.',
					type: 'insufficient_quota',
					code: 'insufficient_quota',
				},
			}),
			text('never sent'),
		);
		const chat = await keel.webview();
		await ask(chat, 'hello');
		const banner = chat.locator(testId('error-banner'));
		await banner.waitFor();
		assert.match((await banner.textContent()) ?? '', /exceeded your current quota.*billing or balance problem/s);
		assert.strictEqual(await chat.locator(`${testId('notice')}[data-code="transportRetry"]`).count(), 0);
		assert.strictEqual(double().modelRequests.length, 1, 'never retried');
		await keel.screenshot('resilience-quota-429');
	});

	it('re-asks a reply that announces its next step and stops, then runs the call', async () => {
		double().script(
			text('Now let me read the README:'),
			toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]),
			text('Read it.'),
		);
		const chat = await keel.webview();
		await ask(chat, 'read the readme please');
		const line = chat.locator(`${testId('notice')}[data-code="reask"]`);
		await line.waitFor();
		assert.match((await line.textContent()) ?? '', /said what it would do next/);
		await chat.locator(`${testId('tool-card')}[data-status="succeeded"]`).waitFor();
		await chat.locator(`${testId('message-assistant')}[data-streaming="false"]`, { hasText: 'Read it.' }).waitFor();
		assert.match(JSON.stringify(double().modelRequests[1].body.messages), /said what you would do next/);
	});
});
