import { createHash } from 'crypto';
import type { CanonicalMessage } from '../../llm/canonical';
import type { ToolSpec } from '../../llm/chatModel';
import { tokensForChars } from '../../util/tokens';

export type LoopVerdict = 'ok' | 'warn' | 'stop';

/**
 * Doom-loop detection over calls *and* their outputs: the same call answered by the same
 * output `repeats` times in a row, or an A-B-A-B cycle. Same call with a new output (polling
 * a changing file) is not a loop. Warns once, stops the second time.
 */
export class LoopGuard {
	private readonly _history: string[] = [];
	private _warned = false;

	constructor(private readonly _repeats = 3) {}

	observe(name: string, rawArguments: string, output: string): LoopVerdict {
		this._history.push(`${name}\u0000${canonicalArgs(rawArguments)}\u0000${hash(output)}`);
		if (!this._isLoop()) {
			return 'ok';
		}
		if (this._warned) {
			return 'stop';
		}
		this._warned = true;
		// Start counting afresh so the model gets a real chance to change approach.
		this._history.length = 0;
		return 'warn';
	}

	/** What the last loop looked like, for the user's notice. */
	describeLast(): string {
		return this._kind === 'cycle'
			? 'two calls alternating with the same results (A-B-A-B)'
			: `same call with the same result repeated ${this._repeats} times`;
	}

	private _kind: 'repeat' | 'cycle' = 'repeat';

	private _isLoop(): boolean {
		const h = this._history;
		const n = h.length;
		if (n >= this._repeats && h.slice(n - this._repeats).every(s => s === h[n - 1])) {
			this._kind = 'repeat';
			return true;
		}
		this._kind = 'cycle';
		return n >= 4 && h[n - 1] === h[n - 3] && h[n - 2] === h[n - 4] && h[n - 1] !== h[n - 2];
	}
}

function canonicalArgs(raw: string): string {
	try {
		return JSON.stringify(sortKeys(JSON.parse(raw)));
	} catch {
		return raw.trim();
	}
}

function sortKeys(value: unknown): unknown {
	if (Array.isArray(value)) {
		return value.map(sortKeys);
	}
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.keys(value)
				.sort()
				.map(key => [key, sortKeys((value as Record<string, unknown>)[key])]),
		);
	}
	return value;
}

function hash(text: string): string {
	return createHash('sha1').update(text).digest('hex');
}

/** The usual characters-per-token ratio over the whole request: good enough to stay clear of the window, and costs nothing. */
export function estimateTokens(messages: readonly CanonicalMessage[], tools: readonly ToolSpec[]): number {
	let chars = 0;
	for (const message of messages) {
		chars += message.content.length + 16;
	}
	chars += JSON.stringify(tools).length;
	return tokensForChars(chars);
}

export interface CompactionResult {
	messages: CanonicalMessage[];
	/** Tool outputs replaced by a stub. */
	compacted: number;
	/** Their calls' ids, so the session keeps them stubbed. */
	stubbedIds: string[];
	/** "read_file ×3, grep": what was dropped, for the notice. */
	summary: string;
	estimate: number;
}

/** The one-line stub an output is replaced by: the same text every time, so requests keep their prefix. */
export function stubFor(message: Extract<CanonicalMessage, { kind: 'tool_result' }>): CanonicalMessage {
	const stub = `[output of ${message.data.name} removed to save context (${message.content.length} chars); call the tool again if you need it]`;
	return { kind: 'tool_result', content: stub, data: { ...message.data, output: stub } };
}

/** The history with the outputs the session already compacted replaced by their stubs. */
export function withStubs(messages: CanonicalMessage[], stubbed: ReadonlySet<string>): CanonicalMessage[] {
	if (stubbed.size === 0) {
		return messages;
	}
	return messages.map(m =>
		m.kind === 'tool_result' && stubbed.has(m.data.toolCallId) && !isStub(m) ? stubFor(m) : m,
	);
}

function isStub(message: CanonicalMessage): boolean {
	return message.content.startsWith('[output of ') && message.content.endsWith('call the tool again if you need it]');
}

/**
 * Keeps a request inside the budget by replacing old tool outputs (oldest first, never the
 * last `keepRecent` results) with a one-line stub. The stored history is not touched.
 */
export function compactToolOutputs(
	messages: readonly CanonicalMessage[],
	tools: readonly ToolSpec[],
	budgetTokens: number,
	keepRecent = 2,
): CompactionResult {
	const out = [...messages];
	let estimate = estimateTokens(out, tools);
	const stubbedIds: string[] = [];
	const names = new Map<string, number>();
	const resultIndexes = out.flatMap((m, i) => (m.kind === 'tool_result' ? [i] : []));
	for (const index of resultIndexes.slice(0, Math.max(0, resultIndexes.length - keepRecent))) {
		if (estimate <= budgetTokens) {
			break;
		}
		const message = out[index];
		if (message.kind !== 'tool_result' || message.content.length < 200 || isStub(message)) {
			continue;
		}
		const stub = stubFor(message);
		estimate -= tokensForChars(message.content.length - stub.content.length);
		out[index] = stub;
		stubbedIds.push(message.data.toolCallId);
		names.set(message.data.name, (names.get(message.data.name) ?? 0) + 1);
	}
	const summary = [...names].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
	return { messages: out, compacted: stubbedIds.length, stubbedIds, summary, estimate };
}

/**
 * Ollama cuts prompts longer than num_ctx from the front without an error (its log says
 * "truncating input prompt"). The only outside sign is a prompt token count far below ours.
 */
export function looksTruncated(estimate: number, promptTokens: number | undefined): boolean {
	// Truncation only happens at a real window (Ollama's smallest default is 2048), so a small
	// count is a server that counts differently (templated tool schemas), not a cut prompt.
	return promptTokens !== undefined && promptTokens >= 1024 && promptTokens < estimate * 0.6;
}

/**
 * A prompt the server read only part of. A server that counts only what it evaluated (Ollama, with
 * the previous request's prefix in its cache) is held to the part that was new (`newTokens`): a
 * count near that part is the cache at work; under it, or well past it while still far below the
 * whole, the server read neither the new part alone nor everything, so it cut the prompt.
 */
export function promptWasCut(estimate: number, promptTokens: number | undefined, newTokens?: number): boolean {
	if (!looksTruncated(estimate, promptTokens) || promptTokens === undefined) {
		return false;
	}
	if (newTokens === undefined || newTokens >= estimate) {
		return true;
	}
	return promptTokens < newTokens * 0.6 || promptTokens > cachedReadCeiling(newTokens);
}

/** The most a server with a warm cache reads for `newTokens` new tokens: tokenizers differ, templates add. */
function cachedReadCeiling(newTokens: number): number {
	return newTokens * 1.5 + 256;
}

/**
 * Degenerate repetition (cline#944: "the user-providualize the user-providualize …"): the tail
 * of the answer is one short phrase over and over. Checked on the finished text only.
 */
export function looksDegenerate(text: string): boolean {
	const tail = text.slice(-1200);
	if (tail.length < 300) {
		return false;
	}
	for (let period = 4; period <= 80; period++) {
		let same = 0;
		for (let i = tail.length - 1; i >= period && tail[i] === tail[i - period]; i--) {
			same++;
		}
		// Words repeating, not layout: a rule of "=====" or a list of zeros is legitimate output.
		if (same >= Math.max(240, period * 8) && /\p{L}{2,}/u.test(tail.slice(-period))) {
			return true;
		}
	}
	return false;
}
