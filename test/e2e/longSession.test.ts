// Reopening a long conversation from the session history, as a user meets it in real VS Code
// (code-server) driven by Chromium: the newest answer shows first, and scrolling up with the wheel
// pages the older turns in: every turn comes on screen, in order, once, down to the first prompt,
// and each wheel step moves what was on screen by the step, never elsewhere (a page arriving above
// keeps the row being read in place, rows brought in at the top do not push it).
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

/** What the chat shows: each row in the viewport (its key and top edge) and the prompts among them, top to bottom. */
interface View {
	scrollTop: number;
	height: number;
	rows: { key: string; top: number }[];
	prompts: number[];
	/** Every prompt in the DOM (the viewport and the rows rendered around it), top to bottom. */
	rendered: number[];
}

async function view(chat: Frame): Promise<View> {
	return chat.locator(testId('messages')).evaluate(el => {
		const box = el.getBoundingClientRect();
		const rows = [...el.querySelectorAll('.row')].map(row => {
			const rect = row.getBoundingClientRect();
			const prompt = row.querySelector('[data-testid="message-user"]');
			const turn = Number(/Question (\d+) of the long chat/.exec(prompt?.textContent ?? '')?.[1] ?? NaN);
			return {
				key: row.getAttribute('data-key') ?? '',
				top: rect.top - box.top,
				bottom: rect.bottom - box.top,
				prompt,
				turn,
			};
		});
		const visible = rows.filter(r => r.bottom > 0 && r.top < el.clientHeight);
		return {
			scrollTop: el.scrollTop,
			height: el.clientHeight,
			rows: visible.map(r => ({ key: r.key, top: r.top })),
			prompts: visible.filter(r => r.prompt).map(r => r.turn),
			rendered: rows.filter(r => r.prompt).map(r => r.turn),
		};
	});
}

/** Waits until the chat's scroll offset has held still for a few frames (a wheel may animate, a page may arrive). */
async function settled(chat: Frame): Promise<View> {
	let last = await view(chat);
	for (let still = 0, tries = 0; still < 3 && tries < 100; tries++) {
		await new Promise(resolve => setTimeout(resolve, 50));
		const next = await view(chat);
		still = next.scrollTop === last.scrollTop && next.rows[0]?.key === last.rows[0]?.key ? still + 1 : 0;
		last = next;
	}
	return last;
}

(keelVsixPath() || strictTiers() ? describe : describe.skip)(
	'a long chat reopened from the history (e2e)',
	function () {
		this.timeout(300_000);
		const keel = useKeel();

		it('opens with the newest answer; scrolling up shows every older turn, in order, once, and never jumps', async () => {
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
			const opened = await settled(chat);
			assert.ok(
				opened.prompts.length > 0 && opened.prompts.at(-1) === TURNS,
				`the newest turn shows first (${opened.prompts.join(', ')})`,
			);
			assert.ok(!opened.rendered.includes(1), 'the first turns are not sent on open');

			// Scroll up with the wheel half a viewport at a time, as a reader would, noting what each view shows.
			const messages = chat.locator(testId('messages'));
			await messages.hover();
			const order: number[] = [];
			const left = new Set<number>();
			let before = opened;
			for (let step = 0; step < 2_000 && !(before.prompts.includes(1) && before.scrollTop === 0); step++) {
				const wheel = Math.round(before.height / 2);
				await keel.page.mouse.wheel(0, -wheel);
				const after = await settled(chat);
				const where = `step ${step}: prompts on screen ${before.prompts.join(',')} → ${after.prompts.join(',')}`;

				// The view moves by the wheel, not to somewhere else: a row on screen before is on screen
				// after, moved down by no more than the wheel's step.
				const moved = after.rows.flatMap(row => {
					const was = before.rows.find(r => r.key === row.key);
					return was ? [row.top - was.top] : [];
				});
				assert.ok(moved.length > 0, `${where}: the view jumped away from every row it showed`);
				assert.ok(
					moved.every(by => by >= -2 && by <= wheel + 2),
					`${where}: the rows moved by ${moved.map(Math.round).join(', ')} px for a ${wheel} px wheel step`,
				);
				// The rendered prompts are the conversation's, each once and in order.
				after.rendered.forEach((turn, i) =>
					assert.ok(
						Number.isInteger(turn) && (i === 0 || turn === after.rendered[i - 1] + 1),
						`${where}: the prompts in the list follow each other (${after.rendered.join(', ')})`,
					),
				);
				// Each prompt comes on screen once, above the ones before it, and once gone stays gone.
				// New prompts come in at the top: read each view bottom to top.
				for (const turn of [...before.prompts].reverse().concat([...after.prompts].reverse())) {
					if (!order.includes(turn)) {
						order.push(turn);
					}
				}
				before.prompts.filter(turn => !after.prompts.includes(turn)).forEach(turn => left.add(turn));
				const back = after.prompts.filter(turn => left.has(turn));
				assert.deepStrictEqual(back, [], `${where}: prompts that had scrolled out of view came back`);
				before = after;
			}
			const expected = Array.from({ length: TURNS }, (_, i) => TURNS - i);
			assert.deepStrictEqual(
				order,
				expected,
				'every turn came on screen while scrolling up, newest to first, each once',
			);
			assert.strictEqual(await chat.locator(testId('load-older')).count(), 0, 'nothing older is left to load');
		});
	},
);
