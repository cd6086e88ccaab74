import type { ChatModel, ModelEvent, ReasoningField, TokenUsage, ToolChoice, ToolSpec } from '../../llm/chatModel';
import { tokensForChars } from '../../util/tokens';
import type { CanonicalMessage } from '../../llm/canonical';
import { ReasoningSplitter, type HarmonyCall } from '../../llm/stream/reasoningSplitter';
import type { AgentEvent, ToolCallState } from '../events';
import { looksDegenerate } from '../guards/guards';
import { onAbort } from '../../util/abort';
import { boundedCall, CARD_ARGUMENT_CHARS, MAX_ANSWER_CHARS, oversizedAnswerNotice } from './callBounds';
import { isRecord, tryParseJson } from '../../util/json';

/** Arguments longer than this are not watched for their end while streaming: the call starts with the others. */
const WATCHED_ARGUMENT_CHARS = 16 * 1024;

export interface StepCall {
	id: string;
	name: string;
	rawArguments: string;
}

export interface StepOutput {
	text: string;
	calls: StepCall[];
	finishReason: string;
	usage?: TokenUsage;
	/** What the model thought, shown folded; never part of the answer or of the history. */
	reasoning: string;
	/** Which wire field the reasoning came in (absent for <think> or Harmony found in the text). */
	reasoningField?: ReasoningField;
	/** Calls written in Harmony channels inside the text (not yet matched to offered tools). */
	harmonyCalls: HarmonyCall[];
	/** The stream was stopped early because the answer or the reasoning kept repeating itself. */
	degenerate?: boolean;
	/** How much of the text had arrived when the first call began: what follows was written before any result. */
	textBeforeCalls?: number;
	/** Milliseconds from sending the request to its first streamed token (text, reasoning or a call). */
	ttftMs?: number;
	/** The stream was stopped because the reasoning ran past this many tokens with no answer or call yet. */
	reasoningOverBudget?: number;
}

export interface StepContext {
	turnId: string;
	step: number;
	model: ChatModel;
	tools: readonly ToolSpec[];
	messages: readonly CanonicalMessage[];
	signal: AbortSignal;
	emit(event: AgentEvent): void;
	/** Makes a card id unique in the session when the server sent none or reused one. */
	uniqueId(preferred: string | undefined, fallback: string): string;
	/** Text streamed so far is handed back even when the stream throws, so nothing shown is lost. */
	onPartialText(text: string): void;
	/** Sampling that breaks repetition, for the re-ask after degenerate output. */
	avoidRepetition?: boolean;
	/** Off (recovery disabled): degenerate output streams to its end as it did before. */
	stopDegenerate?: boolean;
	/** The forced call this request asks the server for (the last recovery rung), with strict schemas. */
	toolChoice?: ToolChoice;
	/** Reasoning past this many tokens (Keel's estimate) with no answer or call yet is stopped. */
	reasoningBound?: number;
	/**
	 * A call whose arguments are complete while the stream goes on (one JSON object: nothing valid
	 * can follow it), in stream order with its position; the step's calls may still differ from it.
	 */
	onCallComplete?(call: StepCall, index: number): void;
}

/**
 * One model request: streams text and tool-call argument fragments to the UI as they come,
 * and returns the assembled response. Throws the model's AgentError unchanged.
 */
export async function runModelStep(ctx: StepContext): Promise<StepOutput> {
	// A per-request signal: HTTP clients hang listeners on it, and a turn of many steps would
	// otherwise pile them onto the turn's signal for its whole life.
	const requestAbort = new AbortController();
	if (ctx.signal.aborted) {
		requestAbort.abort();
	}
	const forwarding = onAbort(ctx.signal, () => requestAbort.abort());
	const response = new StreamedResponse(ctx);
	try {
		for await (const event of ctx.model.stream({
			messages: ctx.messages,
			tools: ctx.tools,
			signal: requestAbort.signal,
			avoidRepetition: ctx.avoidRepetition,
			...(ctx.toolChoice ? { toolChoice: ctx.toolChoice, strictTools: true } : {}),
		})) {
			response.take(event);
			if (response.repeating() || response.reasoningRanAway() || response.answerRanAway()) {
				// Leaving the loop closes the HTTP stream: nothing more is generated or shown.
				requestAbort.abort();
				break;
			}
		}
		response.end();
	} finally {
		forwarding.dispose();
	}
	return response.output();
}

/** What the repetition check reads of a stream's end (guards.ts looks at its last 1,200 characters). */
const TAIL = 1200;

function tailOf(tail: string, piece: string): string {
	return piece.length >= TAIL ? piece.slice(-TAIL) : (tail + piece).slice(-TAIL);
}

/** A response as it streams in: text and reasoning apart, calls assembled on their cards. */
class StreamedResponse {
	private _text = '';
	private _reasoning = '';
	private _reasoningField: ReasoningField | undefined;
	private _degenerate = false;
	/**
	 * The ends the repetition check reads, kept apart: the whole text is a rope of the pieces that
	 * came, and slicing its end flattens (copies) all of it, once per check on a long answer.
	 */
	private _textTail = '';
	private _reasoningTail = '';
	private _answerStopped = false;
	private _checkedAt = 0;
	private readonly _splitter = new ReasoningSplitter();
	private readonly _cards = new Map<number, ToolCallState>();
	/** Per streamed call, the argument characters that arrived, and the start a card shows once they are many. */
	private readonly _argumentChars = new Map<number, number>();
	private readonly _cardHead = new Map<number, string>();
	/** Per streamed call, its argument text while it is small enough to watch for its end (undefined past that, or once told). */
	private readonly _watched = new Map<number, string | undefined>();
	private readonly _calls: StepCall[] = [];
	private _finishReason = 'stop';
	private _usage: TokenUsage | undefined;
	private _textBeforeCalls: number | undefined;
	private readonly _sentAt = performance.now();
	private _ttftMs: number | undefined;
	private _overBudget: number | undefined;

	constructor(private readonly _ctx: StepContext) {
		// Until the first token the chat shows the wait: the server's progress where it sends some, else the time.
		this._ctx.emit({ type: 'prefill', turnId: this._ctx.turnId, elapsedMs: 0 });
	}

	take(event: ModelEvent): void {
		if (this._ttftMs === undefined && event.type !== 'finish' && event.type !== 'waiting') {
			this._ttftMs = Math.round(performance.now() - this._sentAt);
		}
		switch (event.type) {
			case 'waiting':
				if (this._ttftMs === undefined) {
					this._ctx.emit({
						type: 'prefill',
						turnId: this._ctx.turnId,
						elapsedMs: Math.round(performance.now() - this._sentAt),
						...(event.progress ? { progress: event.progress } : {}),
					});
				}
				break;
			case 'text':
				this._route(this._splitter.push(event.text));
				break;
			case 'reasoning':
				this._reasoningField ??= event.field;
				this._addReasoning(event.text);
				break;
			case 'toolCallDelta': {
				this._textBeforeCalls ??= this._text.length;
				const card = this._cardFor(event.index, event.id, event.name);
				if (this._streamedArguments(event.index, card, event.argumentsDelta)) {
					this._ctx.emit({ type: 'toolCallUpdated', turnId: this._ctx.turnId, call: { ...card } });
				}
				this._watchForEnd(event.index, card, event.argumentsDelta);
				break;
			}
			case 'toolCall': {
				const card = this._cardFor(event.index, event.id, event.name);
				// Past the argument bound, the call goes on (to review, history and the card) as a stand-in.
				this._calls.push(boundedCall({ id: card.id, name: event.name, rawArguments: event.rawArguments }));
				break;
			}
			case 'finish':
				this._finishReason = event.reason;
				this._usage = event.usage;
				break;
		}
	}

	/** What the splitter still holds (an unclosed <think>, a partial tag) once the stream ends. */
	end(): void {
		this._route(this._splitter.end());
		if (this._answerStopped) this._addText(oversizedAnswerNotice(), false);
	}

	/** Checked every 64 new characters, so a long answer costs little. */
	repeating(): boolean {
		const size = this._text.length + this._reasoning.length;
		if (!this._ctx.stopDegenerate || size - this._checkedAt < 64) {
			return false;
		}
		this._checkedAt = size;
		this._degenerate = looksDegenerate(this._textTail) || looksDegenerate(this._reasoningTail);
		return this._degenerate;
	}

	/** Text and reasoning past MAX_ANSWER_CHARS: the answer ends there, with the notice that says so. */
	answerRanAway(): boolean {
		return this._answerStopped;
	}

	/**
	 * Reasoning past the bound with nothing to show for it (no answer, no call) is stopped; the
	 * review asks again for the answer without more thinking. Reasoning that already led to an
	 * answer or a call streams on.
	 */
	reasoningRanAway(): boolean {
		const bound = this._ctx.reasoningBound;
		if (!bound || this._text || this._cards.size > 0 || tokensForChars(this._reasoning.length) <= bound) {
			return false;
		}
		this._overBudget = bound;
		return true;
	}

	output(): StepOutput {
		return {
			text: this._text,
			calls: this._calls,
			finishReason: this._finishReason,
			usage: this._usage,
			reasoning: this._reasoning,
			reasoningField: this._reasoningField,
			harmonyCalls: this._splitter.harmonyCalls,
			degenerate: this._degenerate || undefined,
			...(this._textBeforeCalls !== undefined ? { textBeforeCalls: this._textBeforeCalls } : {}),
			ttftMs: this._ttftMs,
			...(this._overBudget !== undefined ? { reasoningOverBudget: this._overBudget } : {}),
		};
	}

	/**
	 * Adds streamed argument text to the card, up to what a card shows: past it the card says how
	 * much has arrived, updated every 64 KiB, so a runaway call costs each fragment a constant.
	 * Whether the card changed (and is worth an update).
	 */
	private _streamedArguments(index: number, card: ToolCallState, delta: string): boolean {
		const total = (this._argumentChars.get(index) ?? 0) + delta.length;
		this._argumentChars.set(index, total);
		if (total <= CARD_ARGUMENT_CHARS) {
			card.argumentsText += delta;
			return true;
		}
		const before = total - delta.length;
		if (before <= CARD_ARGUMENT_CHARS) {
			this._cardHead.set(index, (card.argumentsText + delta).slice(0, CARD_ARGUMENT_CHARS));
		} else if (Math.floor(before / 65536) === Math.floor(total / 65536)) {
			return false;
		}
		card.argumentsText = `${this._cardHead.get(index)}\n… ${(total - CARD_ARGUMENT_CHARS).toLocaleString('en-US')} more characters so far`;
		return true;
	}

	/**
	 * Tells onCallComplete once a call's arguments are one complete JSON object. Parsed only when
	 * the text could be one (it ends in "}"), and only while it is small: a read's arguments are.
	 */
	private _watchForEnd(index: number, card: ToolCallState, delta: string): void {
		const sofar = this._watched.has(index) ? this._watched.get(index) : '';
		if (sofar === undefined || !this._ctx.onCallComplete) {
			return;
		}
		const text = sofar + delta;
		if (text.length > WATCHED_ARGUMENT_CHARS) {
			this._watched.set(index, undefined);
			return;
		}
		this._watched.set(index, text);
		if (!card.name || !text.trimEnd().endsWith('}')) {
			return;
		}
		if (isRecord(tryParseJson(text))) {
			this._watched.set(index, undefined);
			this._ctx.onCallComplete({ id: card.id, name: card.name, rawArguments: text }, index);
		}
	}

	private _cardFor(index: number, id?: string, name?: string): ToolCallState {
		let card = this._cards.get(index);
		if (!card) {
			card = {
				id: this._ctx.uniqueId(id, `${this._ctx.turnId}-s${this._ctx.step}-c${index}`),
				name: name ?? '',
				title: name ?? 'Tool call',
				argumentsText: '',
				status: 'streaming',
			};
			this._cards.set(index, card);
		}
		if (name && !card.name) {
			card.name = name;
			card.title = name;
		}
		return card;
	}

	/**
	 * What of a piece fits under MAX_ANSWER_CHARS. One event may carry many chunks (a reader that
	 * fell behind hands over all it read), so the bound is kept here, not only between events.
	 */
	private _fitting(piece: string): string {
		const room = MAX_ANSWER_CHARS - this._text.length - this._reasoning.length;
		if (piece.length <= room) return piece;
		this._answerStopped = true;
		return piece.slice(0, Math.max(0, room));
	}

	private _addText(piece: string, bounded = true): void {
		if (bounded) piece = this._fitting(piece);
		if (!piece) return;
		this._text += piece;
		this._textTail = tailOf(this._textTail, piece);
		this._ctx.onPartialText(this._text);
		this._ctx.emit({ type: 'textDelta', turnId: this._ctx.turnId, text: piece });
	}

	private _addReasoning(piece: string): void {
		piece = this._fitting(piece);
		if (!piece) return;
		this._reasoning += piece;
		this._reasoningTail = tailOf(this._reasoningTail, piece);
		this._ctx.emit({ type: 'reasoningDelta', turnId: this._ctx.turnId, text: piece });
	}

	private _route(segments: ReturnType<ReasoningSplitter['push']>): void {
		for (const segment of segments) {
			if (segment.kind === 'text') {
				this._addText(segment.text);
			} else if (segment.kind === 'reasoning') {
				this._addReasoning(segment.text);
			} else {
				// The answer streamed so far turned out to be reasoning: take it back, show it folded.
				const was = this._text;
				this._text = '';
				this._textTail = '';
				this._ctx.onPartialText('');
				this._ctx.emit({ type: 'textRetracted', turnId: this._ctx.turnId, reason: 'recovered' });
				this._addReasoning(was);
			}
		}
	}
}
