// What a tool card tells the user beyond "done", in real VS Code: how much of a command's
// output the filters kept (and the unfiltered text on request, from the same store read_output
// pages), a read answered from the session's cache, and the model's reasoning folded apart
// from its answer. Commands run in the real Docker sandbox; the model is the double.
import * as assert from 'assert';
import type { Frame, Locator } from 'playwright-core';
import { text, toolCalls } from '../support/modelDouble';
import { ask, freshChat, testId, useKeel, useModelDouble } from './harness';

/** A command whose output the find/tree rule truncates: 301 lines, the middle dropped. */
const MANY_FILES = 'mkdir -p /tmp/cards && cd /tmp/cards && touch $(seq -f entry-%g 1 300) && find .';

/** Waits for a card to finish, approving it if the policy asks. */
async function finished(chat: Frame, card: Locator): Promise<void> {
	const deadline = Date.now() + 150_000;
	while (Date.now() < deadline) {
		const status = await card.getAttribute('data-status');
		if (status === 'succeeded' || status === 'failed') {
			return;
		}
		if (status === 'awaitingApproval') {
			await card.locator(testId('tool-approve')).click();
		}
		await chat.waitForTimeout(200);
	}
	throw new Error(`the card did not finish (status ${await card.getAttribute('data-status')})`);
}

describe('Keel tool card details (e2e)', function () {
	this.timeout(240_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({
		settings: {
			'keel.model.baseUrl': double().openaiBaseUrl,
			'keel.shell.backend': 'docker',
			// An image already on the machine: the test is about the card, not the image build.
			'keel.shell.image': 'debian:bookworm-slim',
			'keel.approval.autoApproveCommands': true,
		},
	}));

	beforeEach(async () => {
		double().reset();
		await freshChat(keel);
	});

	it("says how much of a command's output was filtered, and Show unfiltered reveals all of it", async () => {
		double().script(
			toolCalls([{ name: 'run_command', arguments: { command: MANY_FILES } }]),
			text('Listed the files.'),
		);
		const chat = await keel.webview();
		await ask(chat, 'Make 300 files and list them');
		const card = chat.locator(`${testId('tool-card')}[data-tool-name="run_command"]`);
		await card.waitFor();
		await finished(chat, card);
		assert.strictEqual(await card.getAttribute('data-status'), 'succeeded', (await card.textContent()) ?? '');
		const filtered = card.locator(testId('card-filtered'));
		await filtered.waitFor();
		// 301 lines of find, and the line count of however the sandbox ends its output.
		assert.match(
			(await filtered.textContent()) ?? '',
			/^30[12] → \d+ lines \(\d+% filtered(, (partial|fallback))?\)$/,
		);
		assert.match((await filtered.getAttribute('title')) ?? '', /find-tree/, 'the rule is named in the tooltip');
		const kept = Number(/→ (\d+) lines/.exec((await filtered.textContent()) ?? '')![1]);
		assert.ok(kept < 301, `the card shows fewer lines than ran (${kept})`);

		await card.locator(`${testId('tool-output')} summary`).click();
		const shown = (await card.locator(`${testId('tool-output')} pre`).textContent()) ?? '';
		const filteredEntries = shown.match(/entry-\d+/g)?.length ?? 0;
		assert.ok(filteredEntries < 300, `the filtered result leaves entries out (${filteredEntries})`);

		await card.locator(testId('show-unfiltered')).click();
		const raw = card.locator(testId('unfiltered-output'));
		await raw.waitFor();
		// The bounded block draws 200 lines first; the rest on request, as for any long output.
		await raw.locator(testId('tool-output-show-all')).click();
		const rawText = (await raw.locator('pre').textContent()) ?? '';
		const entries = new Set(rawText.match(/entry-\d+/g));
		assert.strictEqual(entries.size, 300, 'every file the command listed is in the unfiltered output');
		assert.doesNotMatch(rawText, /Keel filtered this output/, "the raw text is the command's own");
		assert.match(
			(await card.locator(testId('unfiltered-label')).textContent()) ?? '',
			/Unfiltered output \([\d,]+ characters\)/,
		);
		await keel.screenshot('card-unfiltered');
		await card.locator(testId('show-filtered')).click();
		await raw.waitFor({ state: 'detached' });
		assert.strictEqual(
			await card.locator(`${testId('tool-output')} pre`).textContent(),
			shown,
			'back to the filtered result',
		);
	});

	it('marks a repeated read as answered from the cache', async () => {
		double().script(
			toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]),
			toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]),
			text('Read it twice.'),
		);
		const chat = await keel.webview();
		await ask(chat, 'Read the README twice');
		await chat.locator(`${testId('message-assistant')}[data-streaming="false"]`).waitFor();
		const cards = chat.locator(`${testId('tool-card')}[data-tool-name="read_file"]`);
		assert.strictEqual(await cards.count(), 2);
		assert.strictEqual(await cards.nth(0).locator(testId('card-cached')).count(), 0, 'the first read ran');
		assert.strictEqual(await cards.nth(1).locator(testId('card-cached')).textContent(), 'cached');
		assert.strictEqual(await cards.nth(1).getAttribute('data-status'), 'succeeded');
	});

	it('names the kind of failure on a failed card', async () => {
		double().script(
			toolCalls([{ name: 'read_file', arguments: { path: 42 } }]),
			text('The path was wrong.'),
			text('The path was wrong.'),
		);
		const chat = await keel.webview();
		await ask(chat, 'Read something');
		const failed = chat.locator(`${testId('tool-card')}[data-status="failed"]`).first();
		await failed.waitFor();
		const chip = failed.locator(testId('card-error-category'));
		assert.strictEqual(await chip.getAttribute('data-category'), 'type_mismatch');
		assert.strictEqual(await chip.textContent(), 'wrong arguments');
		assert.strictEqual(
			await chat
				.locator(`${testId('tool-card')}[data-status="succeeded"] ${testId('card-error-category')}`)
				.count(),
			0,
		);
	});

	it("folds the model's reasoning into a thinking block, apart from the answer", async () => {
		const reasoning = 'The user greets me; a short friendly reply is enough.';
		double().script({ ...text('Hello there, how can I help?', { chunks: 4 }), reasoning });
		const chat = await keel.webview();
		await ask(chat, 'Hi');
		const answer = chat.locator(`${testId('message-assistant')}[data-streaming="false"]`);
		await answer.waitFor();
		const thinking = chat.locator(testId('thinking'));
		await thinking.waitFor();
		assert.strictEqual(await thinking.getAttribute('open'), null, 'folded until the user opens it');
		assert.strictEqual(await thinking.locator('pre').isVisible(), false);
		await thinking.locator('summary').click();
		await thinking.locator('pre').waitFor({ state: 'visible' });
		assert.strictEqual(await thinking.locator('pre').textContent(), reasoning);
		assert.strictEqual((await answer.textContent())?.trim(), 'Hello there, how can I help?');
		assert.doesNotMatch(
			(await answer.textContent()) ?? '',
			/friendly reply/,
			'the reasoning is not part of the answer',
		);
	});
});
