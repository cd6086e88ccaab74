/**
 * What the readers of calls written as text share: the tools they anchor on, and a call they
 * found (callExtractor.ts, jsonCalls.ts) before the judge decides it (callJudge.ts).
 */
export interface OfferedTool {
	name: string;
	parameters: Record<string, unknown>;
}

export interface Candidate {
	name: string;
	/** Parsed arguments (values from text encodings are strings until the schema coerces them). */
	args?: Record<string, unknown>;
	/** The arguments as text, when a dialect parser read them and they are not an object. */
	raw?: string;
	/** Why it cannot run as written: cut off, or named in a call position with nothing after it. */
	problem?: { kind: 'incomplete' | 'empty'; detail: string };
	/** The call's extent in the text, widened over the wrapper around it. */
	start: number;
	end: number;
	/** The call itself, before widening: two calls whose wrappers touch share markup, not text. */
	core?: [number, number];
	/** The call stood in a wrapper (tag, token, bracket, fence) rather than bare in the prose. */
	wrapped: boolean;
	/** Calls found in one JSON value (a list of calls) share its extent. */
	group?: number;
	/** JSON whose arguments were its other scalar fields: a call only if they validate. */
	loose?: boolean;
}
