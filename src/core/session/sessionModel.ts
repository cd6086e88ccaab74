import type { HostUpdate } from '../../shared/protocol';
import type { ChatItem, SessionView } from '../../shared/views';
import type { AgentEvent } from '../agent/events';
import type { CanonicalMessage } from '../llm/canonical';

/**
 * Projects the agent's event stream into the render model the webview draws, and says what
 * changed as protocol updates. The host stamps versions and posts; nothing here knows VS Code.
 */
export class SessionModel {
	private _view: SessionView;
	private readonly _assistantByTurn = new Map<string, string>();
	private _counter = 0;

	constructor(sessionId: string, modelLabel: string) {
		this._view = { sessionId, busy: false, items: [], modelLabel };
	}

	get view(): SessionView {
		return this._view;
	}

	setModelLabel(label: string): void {
		this._view = { ...this._view, modelLabel: label };
	}

	/** Applies one event; returns the updates to send (possibly none). */
	apply(event: AgentEvent): HostUpdate[] {
		switch (event.type) {
			case 'turnStarted': {
				this._view.error = undefined;
				this._view.busy = true;
				const item: ChatItem = { kind: 'user', id: `${event.turnId}-user`, text: event.prompt };
				this._view.items.push(item);
				return [{ type: 'didSetStatus', busy: true }, { type: 'didUpsertItem', item }];
			}
			case 'textDelta': {
				let id = this._assistantByTurn.get(event.turnId);
				if (!id) {
					id = `${event.turnId}-a${++this._counter}`;
					this._assistantByTurn.set(event.turnId, id);
					const item: ChatItem = { kind: 'assistant', id, text: event.text, streaming: true };
					this._view.items.push(item);
					return [{ type: 'didUpsertItem', item }];
				}
				const item = this._find(id);
				if (item?.kind === 'assistant') {
					item.text += event.text;
				}
				return [{ type: 'didAppendText', itemId: id, text: event.text }];
			}
			case 'toolCallUpdated': {
				// Text after a tool call starts a new bubble, so the order on screen follows the turn.
				return [...this._closeAssistant(event.turnId), this._upsert({ kind: 'tool', id: event.call.id, call: { ...event.call } })];
			}
			case 'notice':
				return [this._upsert({ kind: 'notice', id: `notice-${++this._counter}`, level: event.level, code: event.code, text: event.text })];
			case 'textRetracted': {
				const id = this._assistantByTurn.get(event.turnId);
				const item = id ? this._find(id) : undefined;
				this._assistantByTurn.delete(event.turnId);
				if (item?.kind !== 'assistant') {
					return [];
				}
				item.streaming = false;
				item.retracted = event.reason;
				return [{ type: 'didUpsertItem', item: { ...item } }];
			}
			case 'continueRequested':
				return [...this._closeAssistant(event.turnId), this._upsert({ kind: 'continue', id: event.id, text: event.text, state: 'pending' })];
			case 'continueDecided': {
				const item = this._find(event.id);
				return item?.kind === 'continue' ? [this._upsert({ ...item, state: event.proceed ? 'continued' : 'stopped' })] : [];
			}
			case 'turnFinished': {
				const updates = this._closeAssistant(event.turnId);
				this._view.busy = false;
				this._view.error = event.error && event.reason === 'failed' ? event.error : undefined;
				updates.push({ type: 'didSetStatus', busy: false, error: this._view.error });
				return updates;
			}
			case 'messageAppended':
			case 'reasoningDelta':
			case 'usage':
				return [];
		}
	}

	/** Rebuilds the view from stored history (a resumed session), with no live turn. */
	/** `titleFor` gives restored cards the title they had live ("Read src/app.ts"), not the bare tool name. */
	static fromHistory(sessionId: string, modelLabel: string, history: readonly CanonicalMessage[], titleFor?: (name: string, rawArguments: string) => string | undefined): SessionModel {
		const model = new SessionModel(sessionId, modelLabel);
		const results = new Map(history.flatMap(m => (m.kind === 'tool_result' ? [[m.data.toolCallId, m] as const] : [])));
		history.forEach((message, index) => {
			const id = `h${index}`;
			if (message.kind === 'user') {
				model._view.items.push({ kind: 'user', id, text: message.content });
			} else if (message.kind === 'assistant') {
				model._view.items.push({ kind: 'assistant', id, text: message.content, streaming: false });
			} else if (message.kind === 'tool_call') {
				const result = results.get(message.data.id);
				const status = !result || result.data.errorKind === 'interrupted' ? 'interrupted' : result.data.ok ? 'succeeded' : result.data.errorKind === 'denied' ? 'denied' : result.data.errorKind === 'cancelled' ? 'cancelled' : 'failed';
				model._view.items.push({
					kind: 'tool',
					id: message.data.id,
					call: { id: message.data.id, name: message.data.name, title: titleFor?.(message.data.name, message.data.rawArguments) ?? message.data.name, argumentsText: message.data.rawArguments, status, output: result?.content },
				});
			}
		});
		return model;
	}

	private _closeAssistant(turnId: string): HostUpdate[] {
		const id = this._assistantByTurn.get(turnId);
		if (!id) {
			return [];
		}
		this._assistantByTurn.delete(turnId);
		const item = this._find(id);
		if (item?.kind !== 'assistant') {
			return [];
		}
		item.streaming = false;
		return [{ type: 'didUpsertItem', item: { ...item } }];
	}

	private _upsert(item: ChatItem): HostUpdate {
		const index = this._view.items.findIndex(existing => existing.id === item.id);
		if (index >= 0) {
			this._view.items[index] = item;
		} else {
			this._view.items.push(item);
		}
		return { type: 'didUpsertItem', item };
	}

	private _find(id: string): ChatItem | undefined {
		return this._view.items.find(item => item.id === id);
	}
}
