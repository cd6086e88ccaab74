// A way out of every stop, and nothing left lingering, through the chat in real VS Code: a loop
// the guard stopped asks Continue or Stop like the step cap; a turn whose retries gave up has
// Retry; a stopped answer says so; each said once (no notification while the chat is in view);
// the step cap's notification, shown while the chat was hidden, closes when the chat's Continue
// answers it; a banner about the model server clears when the model changes; a denied card
// says denied; the proposed-change diff closes when the call is decided; a /compact that could
// not summarise says so.
import * as assert from 'assert';
import type { Frame, Locator, Page } from 'playwright-core';
import { runCommand } from '../support/browser';
import { httpError, text, toolCalls } from '../support/modelDouble';
import { ask, cleanChat, explainFailure, testId, useKeel, useModelDouble } from './harness';

const sameRead = () => toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]);

async function notifications(page: Page): Promise<string[]> {
	return page.locator('.notification-toast').allInnerTexts();
}

/** The answer lands when the host says so: waits until the prompt is no longer pending. */
async function settled(c: Frame, prompt: Locator): Promise<void> {
	const state = () => prompt.getAttribute('data-state', { timeout: 1_000 }).catch(() => 'gone');
	for (let i = 0; i < 100 && (await state()) === 'pending'; i++) {
		await c.waitForTimeout(100);
	}
}

type PromptAnswer = 'continue-turn' | 'stop-turn' | 'leave';

/**
 * Answers the chat's Continue-or-Stop prompts in the order they come, by what each says; returns
 * the prompt left unanswered ('leave'), or the last one once `until` shows.
 */
async function answerPrompts(c: Frame, decide: (shown: string) => PromptAnswer, until?: Locator): Promise<Locator> {
	for (let k = 0; k < 12; k++) {
		const prompt = c.locator(testId('continue-prompt')).nth(k);
		const next = until ? prompt.or(until).first() : prompt;
		await next.waitFor({ timeout: 30_000 }).catch(error => explainFailure(c, error));
		if (until && (await until.count())) {
			return prompt;
		}
		if ((await prompt.getAttribute('data-state')) !== 'pending') {
			continue;
		}
		const choice = decide(await prompt.innerText());
		if (choice === 'leave') {
			return prompt;
		}
		await prompt.locator(testId(choice)).click();
		await settled(c, prompt);
		if (choice === 'stop-turn') {
			return prompt;
		}
	}
	throw new Error('more Continue prompts than this test expects');
}

describe('Keel: a way out of every stop, and nothing lingers (e2e)', function () {
	this.timeout(300_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({
		settings: {
			'keel.model.baseUrl': double().openaiBaseUrl,
			'keel.recovery.maxRetriesPerTurn': 2,
			'keel.recovery.backoffBaseSeconds': 0,
			'keel.agent.maxSteps': 2,
		},
	}));
	const chat = () => cleanChat(keel);
	// Each test starts from a quiet chat and an empty script, whatever the one before left running.
	beforeEach(async () => {
		const shown = await keel.openKeel();
		const stop = shown.locator(testId('stop'));
		if (await stop.count()) {
			await stop.click();
			await shown.locator(testId('send')).waitFor();
		}
		double().reset();
	});
	const answer = (c: Frame, words: string) =>
		c
			.locator(`${testId('message-assistant')}[data-streaming="false"]`)
			.filter({ hasText: words })
			.waitFor({ timeout: 60_000 })
			.catch(error => explainFailure(c, error));

	it('a loop the guard stopped asks Continue or Stop; Continue goes on with the guard off for the turn, said once', async () => {
		double().script(...Array.from({ length: 7 }, sameRead), text('Done after the loop.'));
		const c = await chat();
		await ask(c, 'read the readme until it changes');
		// The step cap asks every two requests: Continue each time until the loop check asks.
		const loop = await answerPrompts(c, shown => (shown.includes('repeating itself') ? 'leave' : 'continue-turn'));
		assert.match(
			await loop.innerText(),
			/Continue anyway \(the loop check stays off for the rest of this turn\)\?/,
		);
		assert.deepStrictEqual(await notifications(keel.page), [], 'no notification while the chat is in view');
		await loop.locator(testId('continue-turn')).click();
		await settled(c, loop);
		await answerPrompts(c, () => 'continue-turn', c.locator(testId('message-assistant')));
		await answer(c, 'Done after the loop.');
		assert.strictEqual(await c.locator(testId('error-banner')).count(), 0);
	});

	it('Stop at a loop ends the turn as the user stopped it: no error, no second message', async () => {
		double().script(...Array.from({ length: 6 }, sameRead), text('never'));
		const c = await chat();
		await ask(c, 'read again');
		await answerPrompts(c, shown => (shown.includes('repeating itself') ? 'stop-turn' : 'continue-turn'));
		await c.locator(testId('send')).waitFor();
		await c.locator(`${testId('continue-prompt')}[data-state="stopped"]`).waitFor();
		assert.strictEqual(await c.locator(testId('error-banner')).count(), 0);
		assert.strictEqual(await c.locator(`${testId('notice')}[data-code="loopStopped"]`).count(), 0);
		assert.strictEqual(await c.locator(testId('message-assistant')).filter({ hasText: 'never' }).count(), 0);
	});

	it('after retries give up, Retry sends the turn again and its answer shows; the counter agrees', async () => {
		double().script(httpError(500, 'down'), httpError(500, 'down'), httpError(500, 'down'), text('Back up.'));
		const c = await chat();
		await ask(c, 'are you there?');
		const banner = c.locator(testId('error-banner'));
		await banner.waitFor({ timeout: 60_000 });
		assert.match(await banner.innerText(), /Gave up after 2 retries this turn/);
		await banner.locator(testId('action-retryTurn')).click();
		await answer(c, 'Back up.');
		await banner.waitFor({ state: 'detached' });
		assert.strictEqual(await c.locator(testId('message-user')).count(), 1, 'the prompt once, not twice');
		const sent = double().modelRequests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
		assert.strictEqual(sent.filter(m => m.role === 'user').length, 1);
	});

	it('a stopped answer is marked as stopped', async () => {
		double().script(
			text('One two three four five six seven eight nine ten eleven twelve.', { chunks: 12, delayMs: 500 }),
		);
		const c = await chat();
		await ask(c, 'count slowly');
		await c.locator(testId('message-assistant')).waitFor();
		await c.locator(testId('stop')).click();
		await c.locator(testId('answer-stopped')).waitFor();
		assert.strictEqual(await c.locator(`${testId('message-assistant')}[data-stopped="true"]`).count(), 1);
	});

	it("the step cap's notification shows only while the chat is hidden, and closes when the chat's Continue answers", async () => {
		double().script(
			toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]),
			toolCalls([{ name: 'list_directory', arguments: { path: '.' } }]),
			text('Finished after continuing.'),
		);
		const c = await chat();
		await ask(c, 'look around');
		await keel.page.locator('.part.activitybar a.action-label[aria-label^="Explorer"]').first().click();
		const toast = keel.page.locator('.notification-toast', { hasText: 'Keel has made 2 model requests' });
		await toast.waitFor({ timeout: 30_000 });
		await keel.screenshot('ways-out-step-cap-notification');
		const shown = await keel.openKeel();
		await shown
			.locator(`${testId('continue-prompt')}[data-state="pending"]`)
			.locator(testId('continue-turn'))
			.click();
		await toast.waitFor({ state: 'detached', timeout: 10_000 });
		await answer(shown, 'Finished after continuing.');
	});

	it('a banner that no model server answered clears when the model changes', async () => {
		double().script(httpError(404, { error: { message: 'model "glm-4.7-flash" not found' } }));
		const c = await chat();
		await ask(c, 'hi');
		const banner = c.locator(`${testId('error-banner')}[data-code="modelNotFound"]`);
		await banner.waitFor({ timeout: 30_000 }).catch(error => explainFailure(c, error));
		assert.strictEqual(await banner.locator(testId('action-selectModel')).count(), 1);
		await ask(c, '/model other-model');
		await banner.waitFor({ state: 'detached', timeout: 15_000 });
		await ask(c, '/model glm-4.7-flash');
	});

	it('a denied card says denied; the proposed-change diff tab closes when the call is decided', async () => {
		double().script(
			toolCalls([{ name: 'write_file', arguments: { path: 'notes.md', content: 'hello' } }]),
			text('Not written.'),
		);
		const c = await chat();
		await ask(c, 'write notes.md');
		const card = c.locator(`${testId('tool-card')}[data-tool-name="write_file"]`);
		await card.locator(testId('tool-approve')).waitFor();
		await card.locator(testId('tool-open-diff')).first().click();
		const tab = keel.page.locator('.tabs-container .tab', { hasText: 'Keel: proposed change' });
		await tab.waitFor({ timeout: 15_000 });
		await card.locator(testId('tool-deny')).click();
		await answer(c, 'Not written.');
		assert.strictEqual(await card.getAttribute('data-status'), 'denied');
		assert.strictEqual(await card.locator(testId('tool-policy')).innerText(), 'You denied it.');
		await tab.waitFor({ state: 'detached', timeout: 15_000 });
	});

	it('a /compact that could not summarise says so and leaves the conversation', async () => {
		double().script(text('First answer.'), httpError(500, 'down'));
		const c = await chat();
		await ask(c, 'first question');
		await answer(c, 'First answer.');
		await ask(c, '/compact');
		const notice = c.locator(testId('notice'), { hasText: 'Could not compact' });
		await notice.waitFor({ timeout: 30_000 }).catch(error => explainFailure(c, error));
		assert.match(await notice.innerText(), /The conversation was left as it was\.$/);
		assert.strictEqual(await c.locator(testId('message-user')).count(), 1);
		await runCommand(keel.page, 'View: Focus Active Editor Group').catch(() => undefined);
	});
});
