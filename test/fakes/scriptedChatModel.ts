import type { ChatModel, ChatRequest, ModelEvent } from '../../src/core/llm/chatModel';
import type { CanonicalMessage } from '../../src/core/llm/canonical';

/** Events to yield; an Error to throw before any; or events followed by an error (a broken stream). */
export type ScriptedStep =
	ModelEvent[] | Error | { events: ModelEvent[]; error: Error } | ((request: ChatRequest) => ModelEvent[] | Error);

/**
 * A model that answers each request with the next scripted step and records every request,
 * so a test can assert what the loop sent. A fake, not a mock: no expectations, just data.
 */
export class ScriptedChatModel implements ChatModel {
	readonly id = 'scripted';
	readonly requests: Array<{ messages: CanonicalMessage[]; toolNames: string[] }> = [];
	private readonly _steps: ScriptedStep[];

	constructor(steps: ScriptedStep[]) {
		this._steps = [...steps];
	}

	async *stream(request: ChatRequest): AsyncIterable<ModelEvent> {
		this.requests.push({
			messages: structuredClone([...request.messages]),
			toolNames: request.tools.map(t => t.name),
		});
		const next = this._steps.shift();
		if (next === undefined) {
			throw new Error('ScriptedChatModel: no scripted step left');
		}
		const step = typeof next === 'function' ? next(request) : next;
		if (step instanceof Error) {
			throw step;
		}
		const events = Array.isArray(step) ? step : step.events;
		for (const event of events) {
			if (request.signal?.aborted) {
				throw Object.assign(new Error('aborted'), { name: 'AbortError' });
			}
			await Promise.resolve();
			yield event;
		}
		if (!Array.isArray(step)) {
			throw step.error;
		}
	}
}

export function textStep(text: string): ModelEvent[] {
	return [
		{ type: 'text', text },
		{ type: 'finish', reason: 'stop' },
	];
}

export function callStep(...calls: Array<{ name: string; args: unknown; id?: string }>): ModelEvent[] {
	const events: ModelEvent[] = [];
	calls.forEach((call, index) => {
		const raw = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
		const id = call.id ?? `call_${index}_${Math.random().toString(36).slice(2, 8)}`;
		events.push({ type: 'toolCallDelta', index, id, name: call.name, argumentsDelta: raw });
		events.push({ type: 'toolCall', index, id, name: call.name, rawArguments: raw });
	});
	events.push({ type: 'finish', reason: 'tool_calls' });
	return events;
}
