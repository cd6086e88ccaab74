import { estimateTokens } from '../agent/loop/guards';
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

	constructor(
		private readonly _model: ChatModel,
		private readonly _now: () => number = () => performance.now(),
	) {}

	get id(): string {
		return this._model.id;
	}

	async *stream(request: ChatRequest): AsyncIterable<ModelEvent> {
		const started = this._now();
		const sample: RequestSample = {
			mode: this.mode,
			durationMs: 0,
			estimatedPromptTokens: estimateTokens(request.messages, request.tools),
			failed: true,
		};
		this.samples.push(sample);
		try {
			for await (const event of this._model.stream(request)) {
				if (sample.ttftMs === undefined && isToken(event)) {
					sample.ttftMs = this._now() - started;
				}
				if (event.type === 'finish') {
					sample.finishReason = event.reason;
					sample.promptTokens = event.usage?.promptTokens;
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
