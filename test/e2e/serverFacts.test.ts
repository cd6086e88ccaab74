// What a local server says about itself, as the user meets it in real VS Code driven in
// Chromium. The model double answers as llama.cpp at `-c 4096` of a 262,144-token model
// (/props, /v1/models meta, `prompt_progress` frames with `return_progress: true`, its
// reasoning budget), as the real llama-server does (test/support/modelDouble/servers.ts).
import * as assert from 'assert';
import { runCommand } from '../support/browser';
import { text } from '../support/modelDouble';
import { ask, freshChat, testId, useKeel, useModelDouble } from './harness';

const LLAMA = { kind: 'llamacpp', nCtx: 4096, nCtxTrain: 262_144, totalSlots: 4 } as const;
const WORDS = [
	'cache',
	'parser',
	'index',
	'schema',
	'buffer',
	'token',
	'module',
	'branch',
	'socket',
	'thread',
	'lexer',
];

describe('Keel and the server it talks to: window, prefill, reasoning (e2e)', function () {
	this.timeout(240_000);
	const double = useModelDouble({ models: ['keel-noise'], server: LLAMA });
	const keel = useKeel(() => ({
		settings: {
			'keel.model.provider': 'llamacpp',
			'keel.model.baseUrl': double().openaiBaseUrl,
			'keel.model.name': 'keel-noise',
			'keel.model.contextWindow': 32768,
			'keel.model.reasoningBudget': 256,
			// Short, so the silent prefill below outlasts it several times over.
			'keel.recovery.streamIdleTimeoutSeconds': 5,
		},
	}));

	beforeEach(async () => {
		double().reset();
		double().setServer(LLAMA);
		await freshChat(keel);
	});

	it('warns once that the server runs 4,096 tokens, with the setting to open, and the meter counts against 4,096', async () => {
		double().script(text('First.'), text('Second.'));
		const chat = await keel.webview();
		await ask(chat, 'hello');
		const warning = chat.locator(`${testId('notice')}[data-code="serverWindow"]`);
		await warning.waitFor();
		assert.match(
			(await warning.textContent()) ?? '',
			/runs a 4,096-token context window \(the model was trained for 262,144\)/,
		);
		assert.match((await warning.textContent()) ?? '', /--ctx-size/);
		await warning.getByRole('button', { name: 'Open Setting' }).waitFor();
		const meter = chat.locator(testId('context-meter'));
		await meter.waitFor();
		assert.strictEqual(await meter.getAttribute('data-window'), '4096');
		assert.match(
			(await meter.getAttribute('title')) ?? '',
			/the server runs 4,096 tokens \(llama\.cpp \/props n_ctx \(per slot\)\)/,
		);
		await keel.screenshot('server-window-warning');
		await chat.locator(`${testId('message-assistant')}[data-streaming="false"]`).waitFor();
		await ask(chat, 'again');
		await chat.locator(testId('message-assistant')).filter({ hasText: 'Second.' }).waitFor();
		assert.strictEqual(await warning.count(), 1, 'said once');
	});

	it('shows the prefill progress the server streams: tokens processed of the total, and the cached part', async () => {
		double().script({ ...text('Read.'), prefillMs: 6000, usage: { promptTokens: 48_000, cachedTokens: 30_000 } });
		const chat = await keel.webview();
		await ask(chat, 'read the whole repository');
		const line = chat.locator(testId('prefill-progress'));
		await line.filter({ hasText: /of 48,000 tokens \(30,000 from its cache\)/ }).waitFor();
		assert.match(
			(await line.textContent()) ?? '',
			/The server is reading the prompt: [\d,]+ of 48,000 tokens \(30,000 from its cache\) · \d+ s/,
		);
		await keel.screenshot('prefill-progress');
		await chat.locator(testId('message-assistant')).filter({ hasText: 'Read.' }).waitFor();
		assert.strictEqual(await line.count(), 0, 'the line goes when the first token comes');
		assert.strictEqual(double().modelRequests.length, 1);
	});

	it('says so when reasoning ran past the budget and the answer comes without more thinking', async () => {
		// An older llama-server that ignores the per-request budget: Keel stops the reasoning at twice the budget.
		double().setServer({ ...LLAMA, takesBudget: false });
		const reasoning = Array.from(
			{ length: 300 },
			(_, i) => `Thought ${i}: weigh the ${WORDS[(i * 7) % 11]} again.`,
		).join(' ');
		double().script({ ...text('never'), reasoning, textChunks: 60, delayMs: 20 }, text('Here is the answer.'));
		const chat = await keel.webview();
		await ask(chat, 'think hard');
		const notice = chat.locator(`${testId('notice')}[data-code="reask"]`);
		await notice.waitFor();
		assert.match((await notice.textContent()) ?? '', /reasoned past 512 tokens \(keel\.model\.reasoningBudget\)/);
		await chat.locator(testId('message-assistant')).filter({ hasText: 'Here is the answer.' }).waitFor();
		assert.strictEqual(
			double().modelRequests[1].body.reasoning_budget_tokens,
			0,
			'the re-ask asks for no more thinking',
		);
		await keel.screenshot('reasoning-stopped');
	});

	it('a silent prefill three times the idle timeout: the chat shows the time waited, nothing is sent again, the answer comes', async () => {
		// A vLLM server streams nothing while it reads the prompt (no progress, no pings): only the time can be shown.
		double().setServer({ kind: 'vllm', maxModelLen: 32_768 });
		double().script({ ...text('Read at last.'), prefillMs: 16_000 });
		const chat = await keel.webview();
		await ask(chat, 'read everything');
		const line = chat.locator(testId('prefill-progress'));
		// Past the 5 s idle timeout, still waiting, still the first request.
		await line
			.filter({
				hasText: /Waiting for the model's first token \(the server is reading the prompt\) · ([7-9]|1\d) s/,
			})
			.waitFor({ timeout: 30_000 });
		assert.strictEqual(double().modelRequests.length, 1);
		await keel.screenshot('prefill-waiting');
		await chat
			.locator(testId('message-assistant'))
			.filter({ hasText: 'Read at last.' })
			.waitFor({ timeout: 60_000 });
		assert.strictEqual(await line.count(), 0, 'the line goes when the first token comes');
		assert.strictEqual(double().modelRequests.length, 1, 'one request: never sent again while the server worked');
		assert.strictEqual(await chat.locator(`${testId('notice')}[data-code="streamRetry"]`).count(), 0);
	});

	it('Select Model shows the window the server runs beside the one the model was trained for', async () => {
		await keel.openKeel();
		await runCommand(keel.page, 'Keel: Select Model');
		const row = keel.page.locator('.quick-input-list .monaco-list-row', { hasText: 'keel-noise' }).first();
		await row.waitFor();
		assert.match((await row.textContent()) ?? '', /4,096 ctx running · 262,144 trained/);
		await keel.screenshot('select-model-windows');
		await keel.page.keyboard.press('Escape');
	});
});
