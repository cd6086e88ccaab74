import { estimateTokens } from '../agent/guards/guards';
import { expectedPrefill } from '../agent/memory/sessionMemory';
import type { ChatModel, ChatRequest, ModelEvent } from '../llm/chatModel';
import type { RequestSample, ToolCallMode } from './types';

/**
 * The model as the loop sees it, with a stopwatch: every request's time to first token, its
 * duration, the usage and timings the server sent, and Keel's own estimate of the prompt (a
 * server that read fewer tokens than that cut the prompt). Passes every event through untouched.
 */
export class MeteredChatModel implements ChatModel {
	readonly samples: RequestSample[] = [];
	mode: ToolCallMode = 'native';
	/** The trial's previous request: a server with a prompt cache reads only what this one adds to it. */
	private _previous: { messages: ChatRequest['messages']; estimate: number } | undefined;

	constructor(
		private readonly _model: ChatModel,
		private readonly _now: () => number = () => performance.now(),
	) {}

	get server(): ChatModel['server'] {
		return this._model.server;
	}

	get id(): string {
		return this._model.id;
	}

	get forcing() {
		return this._model.forcing;
	}

	async *stream(request: ChatRequest): AsyncIterable<ModelEvent> {
		const started = this._now();
		const estimate = estimateTokens(request.messages, request.tools);
		const sample: RequestSample = {
			mode: this.mode,
			durationMs: 0,
			estimatedPromptTokens: estimate,
			newPromptTokens: expectedPrefill(this._previous, request.messages, estimate),
			failed: true,
		};
		this._previous = { messages: request.messages, estimate };
		this.samples.push(sample);
		try {
			for await (const event of this._model.stream(request)) {
				if (sample.ttftMs === undefined && isToken(event)) {
					sample.ttftMs = this._now() - started;
				}
				if (event.type === 'finish') {
					sample.finishReason = event.reason;
					sample.promptTokens = event.usage?.promptTokens;
					// Ollama counts only the prompt it evaluated (a cached prefix is not in the count).
					sample.countsNewOnly =
						event.usage?.prefilledTokens !== undefined &&
						event.usage.prefilledTokens === event.usage.promptTokens;
					sample.completionTokens = event.usage?.completionTokens;
					sample.server = event.usage?.timings;
					sample.failed = false;
				}
				yield event;
			}
		} finally {
			sample.durationMs = this._now() - started;
		}
	}

	/** A new trial is a new conversation: nothing of the last one's prompt is reused. */
	startTrial(mode: ToolCallMode): void {
		this.mode = mode;
		this._previous = undefined;
	}

	/** The samples since `from` (one trial's), for its figures. */
	since(from: number): RequestSample[] {
		return this.samples.slice(from);
	}
}

function isToken(event: ModelEvent): boolean {
	return (
		(event.type === 'text' && event.text.length > 0) ||
		(event.type === 'reasoning' && event.text.length > 0) ||
		event.type === 'toolCallDelta' ||
		event.type === 'toolCall'
	);
}
