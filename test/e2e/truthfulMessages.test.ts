// Messages that tell the truth, through the chat in real VS Code: a write refused in Plan mode
// says Plan mode refused it and how to switch; a failed edit gives one reason; retry counters
// agree with the sentence that gives up; a server's context advice names that server only;
// Keel's own text shows no raw Markdown backticks; and, with Docker absent, the first shell
// card says before it runs that the command runs unsandboxed in the terminal, with the setting.
import * as assert from 'assert';
import type { Frame } from 'playwright-core';
import { httpError, text, toolCalls } from '../support/modelDouble';
import { ask, cleanChat, explainFailure, testId, useKeel, useModelDouble } from './harness';

/** Every piece of Keel's own text the chat shows: notices, the banner, cards' titles, policy and caution lines. */
async function keelText(chat: Frame): Promise<string[]> {
	const selectors = ['notice', 'error-banner', 'tool-title', 'tool-policy', 'tool-caution', 'continue-prompt'];
	return (await Promise.all(selectors.map(s => chat.locator(testId(s)).allInnerTexts()))).flat();
}

describe('Keel messages that tell the truth (e2e)', function () {
	this.timeout(300_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({
		settings: {
			'keel.model.baseUrl': double().openaiBaseUrl,
			'keel.recovery.maxRetriesPerTurn': 3,
			'keel.recovery.backoffBaseSeconds': 0,
			'keel.shell.backend': 'auto',
		},
		// Docker is absent for this window: the engine's socket is a path where nothing listens.
		env: { DOCKER_HOST: 'unix:///nonexistent/keel-no-docker.sock' },
	}));
	const chat = () => cleanChat(keel);
	const done = (c: Frame, answer: string) =>
		c
			.locator(testId('message-assistant'))
			.filter({ hasText: answer })
			.waitFor({ timeout: 60_000 })
			.catch(error => explainFailure(c, error));

	it('a write refused in Plan mode says Plan mode refused it and how to switch, not a rule the user never wrote', async () => {
		double().script(
			toolCalls([{ name: 'write_file', arguments: { path: 'notes.md', content: 'x' } }]),
			text('Plan: write notes.md in Act mode.'),
		);
		const c = await chat();
		await ask(c, '/plan');
		await c
			.locator(`${testId('notice')}[data-code="mode"]`)
			.last()
			.waitFor();
		await ask(c, 'write notes.md');
		await done(c, 'Plan: write notes.md in Act mode.');
		const card = c.locator(`${testId('tool-card')}[data-tool-name="write_file"]`);
		assert.strictEqual(await card.getAttribute('data-status'), 'denied');
		const why = await card.locator(testId('tool-policy')).innerText();
		assert.match(
			why,
			/^Plan mode allows only read-only tools\. Switch to Act mode \(\/act, or the mode menu beside Send\)/,
		);
		assert.doesNotMatch(why, /permission rule/);
		await ask(c, '/act');
	});

	it('a failed edit shows one reason, as a wrong argument, not a policy', async () => {
		double().script(
			toolCalls([
				{ name: 'edit_file', arguments: { path: 'README.md', old_string: 'not in the file', new_string: 'x' } },
			]),
			text('The text was not there.'),
		);
		const c = await chat();
		await ask(c, 'edit the README');
		await done(c, 'The text was not there.');
		const card = c.locator(`${testId('tool-card')}[data-tool-name="edit_file"]`);
		assert.strictEqual(await card.locator(testId('card-error-category')).innerText(), 'wrong arguments');
		assert.strictEqual(
			await card.locator(testId('tool-output')).locator('pre, .tool-output-text').first().innerText(),
			'old_string was not found in README.md. Read the file again and copy the text exactly (without line numbers).',
		);
		assert.doesNotMatch(await card.innerText(), /\[tool_error\]|not allowed here|suggestion:/);
	});

	it('the retry counters agree with the sentence that gives up', async () => {
		double().script(httpError(503, 'busy'), httpError(503, 'busy'), httpError(503, 'busy'), httpError(503, 'busy'));
		const c = await chat();
		await ask(c, 'hello');
		const banner = c.locator(testId('error-banner'));
		await banner.waitFor({ timeout: 60_000 }).catch(error => explainFailure(c, error));
		const counters = (await c.locator(testId('notice')).allInnerTexts()).flatMap(
			t => /— (\d+)\/(\d+)$/.exec(t) ?? [],
		);
		const last = (await c.locator(testId('notice')).allInnerTexts()).at(-1)!;
		assert.match(last, /— 3\/3$/, `the last retry line: ${last} (${counters.join(' ')})`);
		assert.match(
			await banner.innerText(),
			/Gave up after 3 retries this turn: the turn's retries are used up \(keel\.recovery\.maxRetriesPerTurn = 3\)\./,
		);
	});

	it("a prompt the server cut short is explained without another server's advice", async () => {
		double().script({ ...text('Short.'), usage: { promptTokens: 2048 } });
		const c = await chat();
		await ask(c, `Summarise: ${'a long line of context. '.repeat(2000)}`);
		await done(c, 'Short.');
		const notice = c.locator(`${testId('notice')}[data-code="truncated"]`);
		await notice.waitFor();
		assert.match(await notice.innerText(), /it is probably cutting the conversation/);
		assert.doesNotMatch(await notice.innerText(), /Ollama|OLLAMA|num_ctx/);
	});

	it('with Docker absent, the first shell card says before it runs that it runs unsandboxed in the terminal, with the setting', async () => {
		double().script(toolCalls([{ name: 'run_command', arguments: { command: 'echo hi' } }]), text('Ran it.'));
		const c = await chat();
		await ask(c, 'run echo hi');
		const card = c.locator(`${testId('tool-card')}[data-tool-name="run_command"]`);
		await card
			.locator(testId('tool-approve'))
			.waitFor({ timeout: 60_000 })
			.catch(error => explainFailure(c, error));
		const caution = card.locator(testId('tool-caution'));
		assert.match(
			await caution.innerText(),
			/Docker is not available, so this command runs unsandboxed in a VS Code terminal on your machine/,
		);
		assert.strictEqual(await caution.locator('code').innerText(), 'keel.shell.backend');
		assert.strictEqual(await caution.locator(testId('action-openSetting')).count(), 1);
		await keel.screenshot('truthful-unsandboxed-card');
		await card.locator(testId('tool-deny')).click();
		await done(c, 'Ran it.');
	});

	it("no text of Keel's own shows raw Markdown backticks", async () => {
		double().script(toolCalls([{ name: 'run_command', arguments: { command: 'ls -la' } }]), text('Listed.'));
		const c = await chat();
		await ask(c, 'list the files');
		const card = c.locator(`${testId('tool-card')}[data-tool-name="run_command"]`);
		await card.locator(testId('tool-approve')).waitFor({ timeout: 60_000 });
		assert.strictEqual(await card.locator(`${testId('tool-title')} code`).innerText(), 'ls -la');
		const texts = await keelText(c);
		assert.ok(texts.length > 0);
		for (const shown of texts) {
			assert.doesNotMatch(shown, /`/, `raw backticks in: ${shown}`);
		}
		await card.locator(testId('tool-deny')).click();
		await done(c, 'Listed.');
	});
});
