// Reload the window in the middle of a session: the same conversation comes back from the
// session store, a call that was waiting for approval shows as interrupted, and the model gets
// a matching "interrupted" result on the next turn instead of the call running.
import * as assert from 'assert';
import { keelVsixPath } from '../support/codeServer';
import { strictTiers } from '../support/tierGate';
import { text, toolCalls } from '../support/modelDouble';
import { ask, testId, useKeel, useModelDouble } from './harness';

(keelVsixPath() || strictTiers() ? describe : describe.skip)('sessions survive a window reload (e2e)', function () {
	this.timeout(240_000);
	const double = useModelDouble();

	const keel = useKeel(() => ({
		settings: { 'keel.model.baseUrl': double().openaiBaseUrl, 'keel.approval.autoApproveReads': false },
	}));

	it('shows the same conversation after a reload, with the pending call interrupted and answered', async () => {
		let chat = await keel.openKeel();
		double().script(text('The first answer is here.', { chunks: 4 }));
		await ask(chat, 'First question');
		await chat.locator(`${testId('message-assistant')}[data-streaming="false"]`).waitFor();

		double().script(toolCalls([{ name: 'read_file', arguments: { path: 'README.md' } }]));
		await ask(chat, 'Now read the README');
		await chat.locator(`${testId('tool-card')}[data-status="awaitingApproval"]`).waitFor();
		await keel.screenshot('reload-before');

		await keel.page.reload();
		chat = await keel.openKeel();
		await chat.locator(`${testId('tool-card')}[data-status="interrupted"]`).waitFor({ timeout: 60_000 });
		const users = await chat.locator(testId('message-user')).allTextContents();
		assert.deepStrictEqual(users, ['First question', 'Now read the README']);
		assert.deepStrictEqual(
			(await chat.locator(testId('message-assistant')).allTextContents()).map(t => t.trim()),
			['The first answer is here.'],
		);
		assert.strictEqual(
			await chat.locator(testId('tool-approve')).count(),
			0,
			'nothing from before the reload can be approved now',
		);
		await keel.screenshot('reload-after');

		double().script(text('Understood, it was interrupted.'));
		await ask(chat, 'What happened?');
		await chat
			.locator(`${testId('message-assistant')}[data-streaming="false"] >> text=Understood, it was interrupted.`)
			.waitFor();
		const last = double().modelRequests[double().modelRequests.length - 1].body.messages;
		const result = last.find((m: { role: string }) => m.role === 'tool');
		assert.match(result.content, /interrupted/);
		assert.strictEqual(
			double().modelRequests.length,
			3,
			'the interrupted call was not sent to the model again as a new step',
		);
	});
});
