import type { ChatModel, ReasoningField, TokenUsage, ToolSpec } from '../../llm/chatModel';
import type { CanonicalMessage } from '../../llm/canonical';
import { ReasoningSplitter, type HarmonyCall } from '../../llm/reasoningSplitter';
import type { AgentEvent, ToolCallState } from '../events';
import { looksDegenerate } from './guards';

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
}

/**
 * One model request: streams text and tool-call argument fragments to the UI as they come,
 * and returns the assembled response. Throws the model's AgentError unchanged.
 */
export async function runModelStep(ctx: StepContext): Promise<StepOutput> {
	let text = '';
	let reasoning = '';
	let reasoningField: ReasoningField | undefined;
	let degenerate = false;
	let checkedAt = 0;
	const splitter = new ReasoningSplitter();
	const cards = new Map<number, ToolCallState>();
	const calls: StepCall[] = [];
	let finishReason = 'stop';
	let usage: TokenUsage | undefined;

	const cardFor = (index: number, id?: string, name?: string): ToolCallState => {
		let card = cards.get(index);
		if (!card) {
			card = {
				id: ctx.uniqueId(id, `${ctx.turnId}-s${ctx.step}-c${index}`),
				name: name ?? '',
				title: name ?? 'Tool call',
				argumentsText: '',
				status: 'streaming',
			};
			cards.set(index, card);
		}
		if (name && !card.name) {
			card.name = name;
			card.title = name;
		}
		return card;
	};

	// A per-request signal: HTTP clients hang listeners on it, and a turn of many steps would
	// otherwise pile them onto the turn's signal for its whole life.
	const requestAbort = new AbortController();
	const forwardAbort = () => requestAbort.abort();
	if (ctx.signal.aborted) {
		requestAbort.abort();
	}
	ctx.signal.addEventListener('abort', forwardAbort, { once: true });
	try {
		await consume();
	} finally {
		ctx.signal.removeEventListener('abort', forwardAbort);
	}
	return {
		text,
		calls,
		finishReason,
		usage,
		reasoning,
		reasoningField,
		harmonyCalls: splitter.harmonyCalls,
		degenerate: degenerate || undefined,
	};

	function addText(piece: string): void {
		text += piece;
		ctx.onPartialText(text);
		ctx.emit({ type: 'textDelta', turnId: ctx.turnId, text: piece });
	}

	function addReasoning(piece: string): void {
		reasoning += piece;
		ctx.emit({ type: 'reasoningDelta', turnId: ctx.turnId, text: piece });
	}

	function route(segments: ReturnType<ReasoningSplitter['push']>): void {
		for (const segment of segments) {
			if (segment.kind === 'text') {
				addText(segment.text);
			} else if (segment.kind === 'reasoning') {
				addReasoning(segment.text);
			} else {
				// The answer streamed so far turned out to be reasoning: take it back, show it folded.
				const was = text;
				text = '';
				ctx.onPartialText('');
				ctx.emit({ type: 'textRetracted', turnId: ctx.turnId, reason: 'recovered' });
				addReasoning(was);
			}
		}
	}

	/** Checked every 64 new characters, so a long answer costs little. */
	function repeating(): boolean {
		const size = text.length + reasoning.length;
		if (!ctx.stopDegenerate || size - checkedAt < 64) {
			return false;
		}
		checkedAt = size;
		return looksDegenerate(text) || looksDegenerate(reasoning);
	}

	async function consume(): Promise<void> {
		for await (const event of ctx.model.stream({
			messages: ctx.messages,
			tools: ctx.tools,
			signal: requestAbort.signal,
			avoidRepetition: ctx.avoidRepetition,
		})) {
			switch (event.type) {
				case 'text':
					route(splitter.push(event.text));
					break;
				case 'reasoning':
					reasoningField ??= event.field;
					addReasoning(event.text);
					break;
				case 'toolCallDelta': {
					const card = cardFor(event.index, event.id, event.name);
					card.argumentsText += event.argumentsDelta;
					ctx.emit({ type: 'toolCallUpdated', turnId: ctx.turnId, call: { ...card } });
					break;
				}
				case 'toolCall': {
					const card = cardFor(event.index, event.id, event.name);
					calls.push({ id: card.id, name: event.name, rawArguments: event.rawArguments });
					break;
				}
				case 'finish':
					finishReason = event.reason;
					usage = event.usage;
					break;
			}
			if (repeating()) {
				// Leaving the loop closes the HTTP stream: nothing more is generated or shown.
				degenerate = true;
				requestAbort.abort();
				break;
			}
		}
		route(splitter.end());
	}
}
