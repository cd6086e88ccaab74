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

/** A call's parts, under `function` (OpenAI) or beside it (some gateways), with or without an id or an index. */
type Delta = {
	index?: number;
	id?: string | null;
	name?: string | null;
	arguments?: unknown;
	function?: { name?: string | null; arguments?: unknown } | null;
};

/**
 * What is known of a call's arguments so far without reading them again: a long call arrives in
 * thousands of fragments, and reading the whole text on each one would cost its square. Whether
 * the text is one JSON object is parsed at most when it could be (starts with "{", ends with "}"),
 * cached until the next fragment, and within a budget of a few times the text's length.
 */
interface CallShape {
	first: string;
	last: string;
	object: boolean | undefined;
	parsed: number;
}

/** Parsing done for one call's checks, as a multiple of its length: past it, fragments are appended. */
const PARSE_BUDGET = 4;

export class ToolCallAssembler {
	private readonly _calls = new Map<number, AssembledCall>();
	/** Wire index → our index: Ollama streams every parallel call with index 0, each with its own id. */
	private readonly _slots = new Map<number, number>();
	private readonly _shapes = new Map<AssembledCall, CallShape>();

	/** Adds one delta; returns the call it belongs to and the argument text it added (none for a re-send). */
	add(wireDelta: Delta, fallbackIndex: number): { call: AssembledCall; appended: string } {
		const delta = normalised(wireDelta);
		const wireIndex = typeof delta.index === 'number' ? delta.index : fallbackIndex;
		const rawArgs = delta.function?.arguments;
		const args = argumentsText(rawArgs);
		const argsObject = isObjectJson(args);
		const byId = delta.id ? [...this._calls.values()].find(call => call.id === delta.id) : undefined;
		const slot = this._slots.get(wireIndex) ?? wireIndex;
		let call = byId ?? this._calls.get(slot);
		if (call && !byId && this._startsAnotherCall(call, delta, args, argsObject)) {
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
		return { call, appended: this._reconcile(call, args, argsObject, isPlainObject(rawArgs)) };
	}

	/**
	 * Adds a piece of arguments by what it holds, whatever shape the server streams them in: a
	 * string piece is appended; a piece that starts with the whole text so far is that text
	 * grown (servers that resend the accumulated arguments) and replaces it; an exact repeat of
	 * a complete object is dropped; an object sent as an object after an object is merged key by
	 * key (servers that stream arguments as partial objects). Returns the text added.
	 */
	private _reconcile(call: AssembledCall, args: string, argsObject: boolean, objectValued: boolean): string {
		if (!args || (argsObject && this._isResent(call, args))) {
			return '';
		}
		const current = call.rawArguments;
		if (current && args.length > current.length && args.startsWith(current)) {
			this._append(call, args, true);
			this._shape(call).object = undefined;
			return args.slice(current.length);
		}
		if (argsObject && this._isObject(call)) {
			const merged = objectValued ? mergeObjects(JSON.parse(current), JSON.parse(args)) : args;
			this._append(call, typeof merged === 'string' ? merged : JSON.stringify(merged), true);
			return '';
		}
		this._append(call, args, false);
		return args;
	}

	/** Calls in index order; a missing id is generated so results can still be matched. */
	finish(makeId: (index: number) => string): AssembledCall[] {
		return [...this._calls.values()]
			.sort((a, b) => a.index - b.index)
			.map(call => ({ ...call, id: call.id || makeId(call.index) }));
	}

	private _shape(call: AssembledCall): CallShape {
		let shape = this._shapes.get(call);
		if (!shape) this._shapes.set(call, (shape = { first: '', last: '', object: false, parsed: 0 }));
		return shape;
	}

	private _append(call: AssembledCall, args: string, replaces: boolean): void {
		const shape = this._shape(call);
		call.rawArguments = replaces ? args : call.rawArguments + args;
		const trimmed = args.trim();
		if (replaces) {
			shape.first = trimmed[0] ?? '';
			shape.last = trimmed[trimmed.length - 1] ?? '';
		} else if (trimmed) {
			shape.first ||= trimmed[0];
			shape.last = trimmed[trimmed.length - 1];
		}
		shape.object = replaces ? true : undefined;
	}

	/** Whether the call's text so far is one JSON object (cached; parsed only when it could be, within the budget). */
	private _isObject(call: AssembledCall): boolean {
		const shape = this._shape(call);
		if (shape.object === undefined) {
			const could = shape.first === '{' && shape.last === '}';
			const affordable =
				shape.parsed + call.rawArguments.length <= PARSE_BUDGET * call.rawArguments.length + 4096;
			if (could && affordable) shape.parsed += call.rawArguments.length;
			shape.object = could && affordable && isObjectJson(call.rawArguments);
		}
		return shape.object;
	}

	/** The complete arguments sent again (the same object, or the whole text repeated). */
	private _isResent(call: AssembledCall, incoming: string): boolean {
		if (!this._isObject(call)) {
			return false;
		}
		const current = call.rawArguments;
		if (current.length === incoming.length && current === incoming) {
			return true;
		}
		try {
			return JSON.stringify(JSON.parse(current)) === JSON.stringify(JSON.parse(incoming));
		} catch {
			return false;
		}
	}

	/** A new id, or a new name or other complete arguments after complete ones, on an index in use: a second call. */
	private _startsAnotherCall(call: AssembledCall, delta: Delta, args: string, argsObject: boolean): boolean {
		if (delta.id && call.id && delta.id !== call.id) {
			return true;
		}
		const renamed = !!delta.function?.name && delta.function.name !== call.name;
		if (!renamed && !argsObject) {
			return false;
		}
		if (!this._isObject(call)) {
			return false;
		}
		// Arguments alone, as an object after an object, continue the call (merged); with the name again they are a whole second call.
		return renamed || (argsObject && !!delta.function?.name && !this._isResent(call, args));
	}
}

/** The call's name and arguments read under `function` or beside it. */
function normalised(delta: Delta): Delta {
	const fn = delta.function && typeof delta.function === 'object' ? delta.function : {};
	return {
		index: delta.index,
		id: delta.id,
		function: { name: fn.name ?? delta.name, arguments: fn.arguments ?? delta.arguments },
	};
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Two partial argument objects as one: new keys are added; for a key in both, a string that
 * starts with the one held replaces it, another string is appended to it, an object is merged
 * in turn, and any other value replaces the one held.
 */
function mergeObjects(held: Record<string, unknown>, incoming: Record<string, unknown>): Record<string, unknown> {
	const out: Record<string, unknown> = { ...held };
	for (const [key, value] of Object.entries(incoming)) {
		const old = out[key];
		if (typeof old === 'string' && typeof value === 'string') {
			out[key] = value.startsWith(old) ? value : old + value;
		} else if (isPlainObject(old) && isPlainObject(value)) {
			out[key] = mergeObjects(old, value);
		} else {
			out[key] = value;
		}
	}
	return out;
}

/** Arguments as text; some servers send them as an object, not as JSON text. */
function argumentsText(args: unknown): string {
	if (args === undefined || args === null || args === '') {
		return '';
	}
	return typeof args === 'string' ? args : JSON.stringify(args);
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
