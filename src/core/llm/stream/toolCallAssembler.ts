/**
 * Assembles streamed tool calls. OpenAI-compatible servers send the id and name in the first
 * delta for an index and only argument fragments afterwards; some (Ollama) send whole calls
 * at once, some repeat the id, some send a finished call again whole. Keyed by index, with the
 * id as the stronger key: a call sent again under its index or its id is merged, never doubled.
 */
export interface AssembledCall {
	index: number;
	id: string;
	name: string;
	rawArguments: string;
}

type Delta = { index?: number; id?: string | null; function?: { name?: string | null; arguments?: unknown } | null };

export class ToolCallAssembler {
	private readonly _calls = new Map<number, AssembledCall>();
	/** Wire index → our index: Ollama streams every parallel call with index 0, each with its own id. */
	private readonly _slots = new Map<number, number>();

	/** Adds one delta; returns the call it belongs to and the argument text it added (none for a re-send). */
	add(delta: Delta, fallbackIndex: number): { call: AssembledCall; appended: string } {
		const wireIndex = typeof delta.index === 'number' ? delta.index : fallbackIndex;
		const args = argumentsText(delta.function?.arguments);
		const byId = delta.id ? [...this._calls.values()].find(call => call.id === delta.id) : undefined;
		const slot = this._slots.get(wireIndex) ?? wireIndex;
		let call = byId ?? this._calls.get(slot);
		if (call && !byId && startsAnotherCall(call, delta, args)) {
			call = undefined;
		}
		if (!call) {
			const index = this._calls.has(slot) ? Math.max(...this._calls.keys()) + 1 : slot;
			call = { index, id: '', name: '', rawArguments: '' };
			this._calls.set(index, call);
		}
		this._slots.set(wireIndex, call.index);
		if (delta.id && !call.id) {
			call.id = delta.id;
		}
		if (delta.function?.name && !call.name) {
			call.name = delta.function.name;
		}
		let appended = '';
		if (args && !isResent(call.rawArguments, args)) {
			const replaces = isObjectJson(call.rawArguments) && isObjectJson(args);
			appended = replaces ? '' : args;
			call.rawArguments = replaces ? args : call.rawArguments + args;
		}
		return { call, appended };
	}

	/** Calls in index order; a missing id is generated so results can still be matched. */
	finish(makeId: (index: number) => string): AssembledCall[] {
		return [...this._calls.values()]
			.sort((a, b) => a.index - b.index)
			.map(call => ({ ...call, id: call.id || makeId(call.index) }));
	}
}

/** Arguments as text; some servers send them as an object, not as JSON text. */
function argumentsText(args: unknown): string {
	if (args === undefined || args === null || args === '') {
		return '';
	}
	return typeof args === 'string' ? args : JSON.stringify(args);
}

/** A new id, or a new name or other complete arguments after complete ones, on an index in use: a second call. */
function startsAnotherCall(call: AssembledCall, delta: Delta, args: string): boolean {
	if (delta.id && call.id && delta.id !== call.id) {
		return true;
	}
	if (!isObjectJson(call.rawArguments)) {
		return false;
	}
	const renamed = !!delta.function?.name && delta.function.name !== call.name;
	return renamed || (isObjectJson(args) && !isResent(call.rawArguments, args));
}

/** The complete arguments sent again (the same object, or the whole text repeated). */
function isResent(current: string, incoming: string): boolean {
	if (!isObjectJson(current)) {
		return false;
	}
	if (current === incoming) {
		return true;
	}
	try {
		return JSON.stringify(JSON.parse(current)) === JSON.stringify(JSON.parse(incoming));
	} catch {
		return false;
	}
}

function isObjectJson(text: string): boolean {
	if (!text.trim().startsWith('{')) {
		return false;
	}
	try {
		const value = JSON.parse(text);
		return value !== null && typeof value === 'object' && !Array.isArray(value);
	} catch {
		return false;
	}
}
