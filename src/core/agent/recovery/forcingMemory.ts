import type { ChatModel, ToolChoice } from '../../llm/chatModel';
import type { ForceKind, ForcingVerdict } from '../../llm/forcing';

/**
 * What each server and model did with a forced call, kept across sessions: Check Model measures
 * it, and the loop writes what it saw (a forced request answered without a call: ignored; a
 * forced request the server rejected: refused; a call: honoured). What was seen wins over what
 * the server's kind is known for (llm/forcing.ts).
 */
export interface ForcingMemory {
	get(modelId: string, kind: ForceKind): ForcingVerdict | undefined;
	set(modelId: string, kind: ForceKind, verdict: ForcingVerdict): void;
}

export class InMemoryForcingMemory implements ForcingMemory {
	private readonly _seen = new Map<string, ForcingVerdict>();
	get(modelId: string, kind: ForceKind) {
		return this._seen.get(`${kind} ${modelId}`);
	}
	set(modelId: string, kind: ForceKind, verdict: ForcingVerdict) {
		this._seen.set(`${kind} ${modelId}`, verdict);
	}
}

/** Whether a forced call of this kind may go to this model: never where it is known to be ignored or refused. */
export function mayForce(model: ChatModel, memory: ForcingMemory | undefined, kind: ForceKind): boolean {
	const known = memory?.get(model.id, kind) ?? model.forcing?.[kind];
	return known === 'honoured' || known === 'unknown';
}

/** The forced call to ask for: the named tool where that is honoured, else any call, else none. */
export function chooseForce(
	model: ChatModel,
	memory: ForcingMemory | undefined,
	tool: string | undefined,
): ToolChoice | undefined {
	if (tool && mayForce(model, memory, 'named')) {
		return { kind: 'named', name: tool };
	}
	return mayForce(model, memory, 'required') ? { kind: 'required' } : undefined;
}

export function forceKind(choice: ToolChoice): ForceKind {
	return choice.kind === 'named' ? 'named' : 'required';
}
