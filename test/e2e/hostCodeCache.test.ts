// The host bundle's compiled code is kept between starts, as a user meets it: the first window
// that opens Keel compiles the bundle and keeps V8's code in Keel's per-user storage a few seconds
// later; the next window's extension host loads the bundle from that code, and its chat works.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { keelVsixPath } from '../support/codeServer';
import { launchBrowser, openKeelView, openWorkbench, webviewFrame } from '../support/browser';
import { strictTiers } from '../support/tierGate';
import { text } from '../support/modelDouble';
import { ask, PROMPT_INPUT, testId, useKeel, useModelDouble } from './harness';

const OPENED =
	/chat view opened at .*; the host bundle loaded in (\d+) ms \(compiled code from an earlier start: (\w+)\)/;

(keelVsixPath() || strictTiers() ? describe : describe.skip)("the host bundle's compiled code (e2e)", function () {
	this.timeout(240_000);
	const double = useModelDouble();
	const keel = useKeel(() => ({ settings: { 'keel.model.baseUrl': double().openaiBaseUrl } }));

	it('is kept by the first window that opens Keel, and used by the next one', async () => {
		await keel.openKeel();
		const [, firstLoadMs, firstCache] = await openedLine([]);
		assert.strictEqual(firstCache, 'absent', 'a fresh profile has no compiled code yet');

		const cacheDir = path.join(keel.server.userDataDir, 'User', 'globalStorage', 'keel.keel', 'code-cache');
		const cached = () =>
			fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).filter(f => f.endsWith('.v8cache')) : [];
		for (const deadline = Date.now() + 60_000; cached().length === 0;) {
			if (Date.now() > deadline) throw new Error(`no compiled code was kept in ${cacheDir}`);
			await new Promise(resolve => setTimeout(resolve, 250));
		}
		assert.strictEqual(cached().length, 1);

		const browser = await launchBrowser();
		try {
			const secondLogs = keelLogs();
			const second = await openWorkbench(browser, keel.server.url);
			await openKeelView(second);
			const [, secondLoadMs, secondCache] = await openedLine(secondLogs);
			assert.strictEqual(secondCache, 'used', 'the next window loads the bundle from the kept code');
			console.log(
				`      the host bundle loaded in ${firstLoadMs} ms, then in ${secondLoadMs} ms from the kept code`,
			);
			// The host built from it runs a turn as the first one did.
			const chat = await webviewFrame(second, PROMPT_INPUT, 60_000);
			double().script(text('Answered by the host loaded from kept code.'));
			await ask(chat, 'Does the host still work?');
			await chat
				.locator(`${testId('message-assistant')} >> text=Answered by the host loaded from kept code.`)
				.waitFor({ timeout: 60_000 });
		} finally {
			await browser.close();
		}
	});

	/** Keel's log files (one per extension host) under code-server's log folder. */
	function keelLogs(): string[] {
		const logs = path.join(keel.server.userDataDir, 'logs');
		if (!fs.existsSync(logs)) return [];
		return (fs.readdirSync(logs, { recursive: true, encoding: 'utf8' }) as string[])
			.filter(file => file.endsWith(path.join('keel.keel', 'Keel.log')))
			.map(file => path.join(logs, file));
	}

	/** The "chat view opened" line of an extension host started after `before` was listed. */
	async function openedLine(before: string[]): Promise<RegExpExecArray> {
		for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
			for (const file of keelLogs().filter(file => !before.includes(file))) {
				const line = OPENED.exec(fs.readFileSync(file, 'utf8'));
				if (line) return line;
			}
			await new Promise(resolve => setTimeout(resolve, 100));
		}
		throw new Error('Keel logged no "chat view opened" line in the new window');
	}
});
