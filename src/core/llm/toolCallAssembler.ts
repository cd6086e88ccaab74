/**
 * Assembles streamed tool calls. OpenAI-compatible servers send the id and name in the first
 * delta for an index and only argument fragments afterwards; some (Ollama) send whole calls
 * at once, some repeat the id. Keyed by index, never by id.
 */
export interface AssembledCall {
	index: number;
	id: string;
	name: string;
	rawArguments: string;
}

export class ToolCallAssembler {
	private readonly _calls = new Map<number, AssembledCall>();
	/** Wire index → our index: Ollama streams every parallel call with index 0, each with its own id. */
	private readonly _slots = new Map<number, number>();

	add(
		delta: { index?: number; id?: string | null; function?: { name?: string | null; arguments?: unknown } | null },
		fallbackIndex: number,
	): AssembledCall {
		const wireIndex = typeof delta.index === 'number' ? delta.index : fallbackIndex;
		let index = this._slots.get(wireIndex) ?? wireIndex;
		let call = this._calls.get(index);
		if (call && startsAnotherCall(call, delta)) {
			index = Math.max(...this._calls.keys()) + 1;
			call = undefined;
		}
		this._slots.set(wireIndex, index);
		if (!call) {
			call = { index, id: '', name: '', rawArguments: '' };
			this._calls.set(index, call);
		}
		if (delta.id && !call.id) {
			call.id = delta.id;
		}
		if (delta.function?.name && !call.name) {
			call.name = delta.function.name;
		}
		const args = delta.function?.arguments;
		if (args !== undefined && args !== null && args !== '') {
			// Some servers send the arguments as an object, not as JSON text.
			call.rawArguments += typeof args === 'string' ? args : JSON.stringify(args);
		}
		return call;
	}

	/** Calls in index order; a missing id is generated so results can still be matched. */
	finish(makeId: (index: number) => string): AssembledCall[] {
		return [...this._calls.values()]
			.sort((a, b) => a.index - b.index)
			.map(call => ({ ...call, id: call.id || makeId(call.index) }));
	}
}

/** A new id, or a new name after complete arguments, on an index already in use: a second call. */
function startsAnotherCall(
	call: AssembledCall,
	delta: { id?: string | null; function?: { name?: string | null } | null },
): boolean {
	if (delta.id && call.id && delta.id !== call.id) {
		return true;
	}
	if (delta.function?.name && call.name && call.rawArguments) {
		try {
			JSON.parse(call.rawArguments);
			return true;
		} catch {
			return false;
		}
	}
	return false;
}
