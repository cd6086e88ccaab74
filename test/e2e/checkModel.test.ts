// Keel: Check Model as a user meets it in real VS Code: started from the empty chat (and
// cancelled), run from the palette through to the report in an editor tab, its recommendation
// applied to the user settings, exported as Markdown, and compared with a second report. The
// screenshot of the report in docs/ is taken here.
import * as assert from 'assert';
import Docker from 'dockerode';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'jsonc-parser';
import type { Frame } from 'playwright-core';
import { SCRATCH_PREFIX } from '../../src/core/checkModel/scratch';
import { LABEL } from '../../src/core/exec/sandbox/sandboxSpec';
import { runCommand, webviewFrame } from '../support/browser';
import { personality, scriptPersonality } from '../support/checkModel/personalities';
import { REPO_ROOT } from '../support/codeServer';
import { testId, useKeel, useModelDouble } from './harness';

const DOCS_SCREENSHOT = path.join(REPO_ROOT, 'docs', 'images', 'check-model-report.png');

/** Check Model's scratch folders in the temporary folder the extension host uses (the same machine). */
function scratchFolders(): string[] {
	return fs.readdirSync(os.tmpdir()).filter(name => name.startsWith(SCRATCH_PREFIX));
}

/** Sandbox containers, running or not, whose workspace is one of Check Model's scratch folders. */
async function sandboxesOver(prefix: string): Promise<string[]> {
	const docker = new Docker();
	if (
		!(await docker.ping().then(
			() => true,
			() => false,
		))
	) {
		return [];
	}
	const all = await docker.listContainers({ all: true, filters: { label: [LABEL] } });
	return all
		.filter(c => c.Mounts.some(m => path.basename(path.dirname(m.Source ?? '')).startsWith(prefix)))
		.map(c => c.Id);
}

describe('Keel: Check Model (e2e)', function () {
	this.timeout(900_000);
	const double = useModelDouble({ models: ['double'] });
	const keel = useKeel(() => ({
		settings: {
			'keel.model.baseUrl': double().openaiBaseUrl,
			'keel.model.name': 'double',
			'keel.checkModel.trials': 1,
		},
	}));
	const notification = (text: string) =>
		keel.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();

	/** The report's webview once it shows a report of `model` (the panel is reused). */
	async function reportFrame(): Promise<Frame> {
		const frame = await webviewFrame(keel.page, testId('verdict'), 600_000);
		await frame.locator(testId('verdict')).waitFor();
		return frame;
	}

	it('the empty chat starts a check, and Cancel stops it with nothing kept', async () => {
		double().reset();
		scriptPersonality(double(), personality('textOnly').step);
		// Another program's leftover in the shared temporary folder is not this check's to remove.
		const before = new Set(scratchFolders());
		const ours = () => scratchFolders().filter(name => !before.has(name));
		const sandboxesBefore = new Set(await sandboxesOver(SCRATCH_PREFIX));
		const chat = await keel.openKeel();
		await chat.locator(testId('empty-check-model')).click();
		const progress = notification('Keel: Check Model — double');
		await progress.waitFor({ timeout: 120_000 });
		// Cancel once the suite is under way: a task is running in the scratch folder.
		await progress.filter({ hasText: /Task \d+\/\d+/ }).waitFor({ timeout: 120_000 });
		assert.ok(ours().length > 0, 'the check works in a scratch folder');
		await progress.locator('.monaco-button', { hasText: 'Cancel' }).click();
		await notification('Check Model was cancelled').waitFor({ timeout: 120_000 });
		assert.deepEqual(ours(), [], 'no scratch folder is left');
		assert.deepEqual(
			(await sandboxesOver(SCRATCH_PREFIX)).filter(id => !sandboxesBefore.has(id)),
			[],
			'no sandbox container is left',
		);
	});

	it('runs from the palette to the report, and Apply writes the recommendation to the user settings', async () => {
		double().reset();
		scriptPersonality(double(), personality('textOnly').step);
		await runCommand(keel.page, 'Keel: Check Model');
		const report = await reportFrame();
		assert.match(await report.locator('h1').innerText(), /Check Model: double/);
		assert.match(
			await report.locator(testId('verdict')).innerText(),
			/Works well\. double works well with Keel using text tool calls/,
		);
		const toolMode = report.locator(testId('recommendation-keel.recovery.toolMode'));
		assert.match(await toolMode.innerText(), /auto\s+text\s+Text-mode calls needed Keel to repair fewer calls/);
		assert.match(
			await report.locator(testId('recovery-textCall')).innerText(),
			/call written as text, recovered\s+\d+\s+0/,
		);
		assert.match(await report.locator(testId('overall-native')).innerText(), /pass@1 100%/);
		await report.locator(`${testId('chart-pass')} canvas`).waitFor();
		// The cancelled check's message would cover a corner of the picture.
		await runCommand(keel.page, 'Notifications: Clear All Notifications');
		fs.mkdirSync(path.dirname(DOCS_SCREENSHOT), { recursive: true });
		await (await report.frameElement()).screenshot({ path: DOCS_SCREENSHOT });

		// The charts are drawn (Chart.js on a canvas of the theme's colours), below the tables.
		const chart = report.locator(`${testId('chart-time')} canvas`);
		await chart.scrollIntoViewIfNeeded();
		const box = await chart.boundingBox();
		assert.ok(box && box.width > 100 && box.height > 100, `the time chart has a size: ${JSON.stringify(box)}`);
		await keel.screenshot('check-model-charts');
		await report.locator(testId('apply')).scrollIntoViewIfNeeded();

		await report.locator(testId('apply')).click();
		const applied = report.locator(testId('applied'));
		await applied.waitFor();
		assert.match(await applied.innerText(), /Written to your user settings: keel\.recovery\.toolMode\./);
		const settings = parse(fs.readFileSync(path.join(keel.server.userDataDir, 'User/settings.json'), 'utf8'));
		assert.equal(settings['keel.recovery.toolMode'], 'text');
	});

	it('exports the report as Markdown, and compares it with a second one side by side', async () => {
		let report = await reportFrame();
		await report.locator(testId('export')).click();
		const editor = keel.page.locator('.editor-instance .view-lines', { hasText: '# Keel Check Model: double' });
		await editor.first().waitFor({ timeout: 60_000 });

		double().reset();
		scriptPersonality(double(), personality('clean').step);
		await runCommand(keel.page, 'Keel: Check Model');
		await notification('Keel: Check Model — double').waitFor({ timeout: 120_000 });
		// The second report replaces the first: native is as good now, so back from the text mode just applied.
		report = await webviewFrame(keel.page, testId('compare'), 600_000);
		await report
			.locator(testId('recommendation-keel.recovery.toolMode'))
			.filter({ hasText: /text\s*native/ })
			.waitFor({ timeout: 600_000 });
		const options = report.locator(`${testId('compare')} option`);
		assert.equal(await options.count(), 2, 'the first report is offered for comparison');
		await report.locator(testId('compare')).selectOption({ index: 1 });
		const side = report.locator(testId('comparison'));
		await side.waitFor();
		assert.match(await side.innerText(), /Better tool calls\s+native\s+text/);
	});
});
