import type { ChatModel, ServerFacts } from '../../llm/chatModel';
import { anySignal } from '../../util/abort';

/** The window a turn plans for, and what to tell the user when it is not keel.model.contextWindow. */
export interface WindowInForce {
	window: number;
	/** For the context meter: why the window is smaller than the setting. */
	note?: string;
	/** Said once (a notice and a notification), keyed so the same server and window is not said again. */
	warning?: { key: string; text: string };
}

/** What the server says about itself, within `timeoutMs`; nothing when it says nothing or is slow to. */
export async function askServer(model: ChatModel, signal: AbortSignal, timeoutMs = 5000): Promise<ServerFacts> {
	if (!model.server) {
		return {};
	}
	const limit = anySignal(signal, AbortSignal.timeout(timeoutMs));
	const timedOut = new Promise<ServerFacts>(resolve =>
		limit.addEventListener('abort', () => resolve({}), { once: true }),
	);
	return Promise.race([model.server.describe(limit).catch(() => ({})), timedOut]);
}

const grouped = (n: number) => n.toLocaleString('en-US');

/**
 * The window Keel plans for: keel.model.contextWindow, unless the server runs less. llama.cpp,
 * LM Studio and vLLM say what they run; Ollama runs the `num_ctx` Keel sends, cut down to what
 * the model was trained for, and /api/ps shows what it loaded (`askedBefore`: the window Keel
 * asked for earlier in the session, so a model Ollama loaded smaller than asked is noticed).
 */
export function windowInForce(configured: number, facts: ServerFacts, askedBefore?: number): WindowInForce {
	if (facts.kind === 'ollama') {
		return ollamaWindow(configured, facts, askedBefore);
	}
	const running = facts.running;
	if (running !== undefined && running < configured) {
		return {
			window: running,
			note: `the server runs ${grouped(running)} tokens (${facts.source ?? 'as it reports'}); keel.model.contextWindow is ${grouped(configured)}`,
			warning: {
				key: `running:${facts.kind ?? '?'}:${running}:${configured}`,
				text: runningWarning(configured, facts, running),
			},
		};
	}
	const trained = facts.trained;
	if (running === undefined && trained !== undefined && trained < configured) {
		return trainedWindow(configured, trained);
	}
	return { window: configured };
}

function ollamaWindow(configured: number, facts: ServerFacts, askedBefore: number | undefined): WindowInForce {
	const asked = facts.trained !== undefined ? Math.min(configured, facts.trained) : configured;
	const loaded = facts.running;
	if (askedBefore !== undefined && loaded !== undefined && loaded < Math.min(asked, askedBefore)) {
		return {
			window: loaded,
			note: `Ollama loaded the model with ${grouped(loaded)} tokens (/api/ps); Keel asked for ${grouped(askedBefore)}`,
			warning: {
				key: `ollama-loaded:${loaded}:${askedBefore}`,
				text: `Ollama loaded the model with a ${grouped(loaded)}-token context although Keel asked for ${grouped(askedBefore)} (num_ctx), so Keel now plans for ${grouped(loaded)} tokens and compacts sooner. Ollama may be short of memory for more: choose a smaller model or quantization, or set keel.model.contextWindow to ${grouped(loaded)} to match.`,
			},
		};
	}
	return asked < configured ? trainedWindow(configured, asked) : { window: configured };
}

function trainedWindow(configured: number, trained: number): WindowInForce {
	return {
		window: trained,
		note: `the model was trained for ${grouped(trained)} tokens; keel.model.contextWindow is ${grouped(configured)}`,
		warning: {
			key: `trained:${trained}:${configured}`,
			text: `The model was trained for ${grouped(trained)} tokens, fewer than keel.model.contextWindow (${grouped(configured)}): Keel plans for ${grouped(trained)} tokens (and asks an Ollama server for that much). Set keel.model.contextWindow to ${grouped(trained)} to match.`,
		},
	};
}

/** What the user can change, in the words of the server they run. */
function runningWarning(configured: number, facts: ServerFacts, running: number): string {
	const of =
		facts.trained !== undefined && facts.trained > running
			? ` (the model was trained for ${grouped(facts.trained)})`
			: '';
	const head = `The server runs a ${grouped(running)}-token context window${of}, smaller than keel.model.contextWindow (${grouped(configured)}), so Keel plans for ${grouped(running)} tokens: it compacts old tool outputs sooner and asks for shorter answers.`;
	const match = `or set keel.model.contextWindow to ${grouped(running)} to match`;
	switch (facts.kind) {
		case 'llamacpp':
			return `${head} For more, restart llama-server with a larger --ctx-size${facts.slots && facts.slots > 1 ? ` (its ${facts.slots} slots share it: --parallel 1 gives one request all of it)` : ''}, ${match}.`;
		case 'lmstudio':
			return `${head} For more, load the model in LM Studio with a larger Context Length, ${match}.`;
		case 'vllm':
			return `${head} For more, restart vLLM with a larger --max-model-len, ${match}.`;
		case 'ollama':
		case undefined:
			return `${head} For more, raise the server's context size, ${match}.`;
	}
}
