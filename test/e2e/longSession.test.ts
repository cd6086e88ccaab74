// Reopening a long conversation from the session history, as a user meets it in real VS Code
// (code-server) driven by Chromium: the newest answer shows first, and scrolling up pages the
// older turns in, in order, each once, down to the first prompt.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Frame } from 'playwright-core';
import type { CanonicalMessage } from '../../src/core/llm/canonical';
import { SessionStore } from '../../src/core/store/sessionStore';
import { keelVsixPath } from '../support/codeServer';
import { strictTiers } from '../support/tierGate';
import { testId, useKeel } from './harness';

const TURNS = 300;
const question = (turn: number) => `Question ${turn} of the long chat`;

/** A stored conversation of TURNS turns: a prompt, a file read with its output, an answer. */
function writeSession(file: string): void {
	const store = SessionStore.open(file);
	const output = Array.from({ length: 30 }, (_, i) => `${String(i + 1).padStart(4)}  line ${i} of README.md`).join(
		'\n',
	);
	for (let turn = 1; turn <= TURNS; turn++) {
		const append = (message: CanonicalMessage) => store.append('long', message, { turnId: `t${turn}` });
		const id = `call_${turn}`;
		const rawArguments = JSON.stringify({ path: 'README.md', offset: 1, limit: turn });
		append({ kind: 'user', content: question(turn) });
		append({
			kind: 'tool_call',
			content: `read_file(${rawArguments})`,
			data: { id, name: 'read_file', arguments: JSON.parse(rawArguments), rawArguments },
		});
		append({ kind: 'tool_result', content: output, data: { toolCallId: id, name: 'read_file', output, ok: true } });
		append({ kind: 'assistant', content: `Answer ${turn}.` });
	}
	store.close();
}

/** The workspace's storage folder, once VS Code has made it for the window (its meta.json may come later). */
async function workspaceStorage(userDataDir: string): Promise<string> {
	const root = path.join(userDataDir, 'User', 'workspaceStorage');
	for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
		const found = fs.existsSync(root)
			? fs.readdirSync(root).find(entry => fs.statSync(path.join(root, entry)).isDirectory())
			: undefined;
		if (found) {
			return path.join(root, found);
		}
		await new Promise(resolve => setTimeout(resolve, 100));
	}
	const made = fs.existsSync(root) ? fs.readdirSync(root).join(', ') : 'nothing';
	throw new Error(`VS Code made no workspace storage folder under ${root} (it holds ${made})`);
}

/** The turn numbers of the prompts on screen, top to bottom. */
async function promptsOnScreen(chat: Frame): Promise<number[]> {
	const texts = await chat.locator(testId('message-user')).allTextContents();
	return texts.map(t => Number(/Question (\d+) of the long chat/.exec(t)?.[1] ?? NaN));
}

(keelVsixPath() || strictTiers() ? describe : describe.skip)(
	'a long chat reopened from the history (e2e)',
	function () {
		this.timeout(300_000);
		const keel = useKeel();

		it('opens with the newest answer and pages every older turn in, in order, once, as the user scrolls up', async () => {
			const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-long-session-'));
			try {
				writeSession(path.join(folder, 'sessions.db'));
				// The conversation is the workspace's before Keel first opens its history.
				const storage = path.join(await workspaceStorage(keel.server.userDataDir), 'keel.keel');
				fs.mkdirSync(storage, { recursive: true });
				fs.copyFileSync(path.join(folder, 'sessions.db'), path.join(storage, 'sessions.db'));
			} finally {
				fs.rmSync(folder, { recursive: true, force: true });
			}
			const chat = await keel.openKeel();
			await chat.locator(`${testId('message-assistant')} >> text=Answer ${TURNS}.`).waitFor({ timeout: 60_000 });
			const opened = await promptsOnScreen(chat);
			assert.ok(
				opened.length > 0 && opened.at(-1) === TURNS,
				`the newest turn shows first (${opened.join(', ')})`,
			);
			assert.ok(!opened.includes(1), 'the first turns are not sent on open');

			// Scroll up half a viewport at a time, as a reader would, noting the prompts each view shows.
			const seen = new Set<number>();
			const messages = chat.locator(testId('messages'));
			for (let step = 0; step < 2_000 && !seen.has(1); step++) {
				const onScreen = await promptsOnScreen(chat);
				onScreen.forEach((turn, i) => {
					assert.ok(
						Number.isInteger(turn),
						`a prompt on screen reads as one of the conversation's (${onScreen.join(', ')})`,
					);
					if (i > 0) {
						assert.strictEqual(
							turn,
							onScreen[i - 1] + 1,
							`the prompts on screen follow each other: ${onScreen.join(', ')}`,
						);
					}
					seen.add(turn);
				});
				// The mouse wheel, as a reader scrolls: the chat asks for the page before its first item when they reach it.
				await messages.hover();
				await keel.page.mouse.wheel(0, -Math.round((await messages.evaluate(el => el.clientHeight)) / 2));
				await keel.page.waitForTimeout(60);
			}
			const missing = Array.from({ length: TURNS }, (_, i) => i + 1).filter(turn => !seen.has(turn));
			assert.deepStrictEqual(missing, [], 'every turn was on screen at some point while scrolling up');
			assert.strictEqual(await chat.locator(testId('load-older')).count(), 0, 'nothing older is left to load');
		});
	},
);
