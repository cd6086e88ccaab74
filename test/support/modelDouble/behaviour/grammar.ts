// The tool-call grammar a llama.cpp-based server builds from a request's tools, reduced to what
// makes it refuse the request: the model double answers as the real server does, before any
// step is consumed. Each rule is what llama.cpp's own code or a public report shows:
//
// - common/json-schema-to-grammar.cpp turns `maxLength`/`minLength` into `char{min,max}` and
//   `minItems`/`maxItems` into a repetition of the item; src/llama-grammar.cpp refuses a
//   repetition whose rules reach MAX_REPETITION_THRESHOLD (2000): "number of repetitions exceeds
//   sane defaults", and the stacked repetitions multiply. A top-level string max above 2000 is
//   degraded to unbounded (PR #26613); exactly 2000 is refused (#27087); a nested bound of 2000
//   or more is refused (#25746); a list of N items each bounded multiplies (#27859).
// - The whole tools array compiles into one grammar; about 100 KB of schema no longer parses
//   (#25895: 97,102 B → 200, 100,026 B → 400).
// - An object schema with an empty `properties` writes an invalid rule (#25923).
// - An unresolved `$ref` and an invalid regex `pattern` are conversion errors (the converter's
//   `_errors`: "Unresolved $ref …", "Invalid pattern …"), raised as "JSON schema conversion
//   failed:" inside "Unable to generate parser for this template. Automatic parser generation
//   failed: …" (common/chat.cpp).
// - LM Studio 0.4.19+ also refuses a pattern not anchored with ^…$ (lmstudio-bug-tracker#2168),
//   and wraps the engine's answer: "Engine protocol predict request returned 400: {…}"
//   (#2220, #2227, #2236), as HTTP 500 on its Anthropic endpoint.

export type GrammarFlavour = 'llamacpp' | 'lmstudio';

export type Refusal = { kind: 'grammar'; why: string } | { kind: 'conversion'; why: string };

const THRESHOLD = 2000;
/** Between the 97,102 B that compiled and the 100,026 B that did not (#25895). */
export const GRAMMAR_SIZE_CEILING = 98_500;

/** Why the server could not build the grammar for these tools (OpenAI `tools` or Anthropic tools), or undefined. */
export function grammarRefusal(
	tools: unknown[],
	flavour: GrammarFlavour,
	ceiling = GRAMMAR_SIZE_CEILING,
): Refusal | undefined {
	if (Buffer.byteLength(JSON.stringify(tools)) > ceiling) {
		return { kind: 'grammar', why: 'the combined tool-call grammar is too large to parse' };
	}
	for (const tool of tools) {
		const t = tool as Record<string, any>;
		const schema = t.function?.parameters ?? t.input_schema ?? t.parameters ?? {};
		const defs = { ...(schema.definitions ?? {}), ...(schema.$defs ?? {}) };
		const refused = visit(schema, { defs, flavour, bound: 1, depth: 0, refs: [] });
		if (refused) return refused;
	}
	return undefined;
}

interface Walk {
	defs: Record<string, unknown>;
	flavour: GrammarFlavour;
	/** Product of the repetitions this node sits inside. */
	bound: number;
	/** Objects above this node (the arguments object is 0). */
	depth: number;
	refs: string[];
}

function visit(node: unknown, w: Walk): Refusal | undefined {
	if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
	const n = node as Record<string, any>;
	if (typeof n.$ref === 'string') {
		const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(n.$ref)?.[1];
		const target = name === undefined ? undefined : w.defs[name];
		if (target === undefined) return { kind: 'conversion', why: `Unresolved $ref ${n.$ref}` };
		if (w.refs.includes(n.$ref)) return undefined;
		return visit(target, { ...w, refs: [...w.refs, n.$ref] });
	}
	if (typeof n.pattern === 'string') {
		const bad = patternProblem(n.pattern, w.flavour);
		if (bad) return bad;
	}
	const strings = repetition(n.minLength, n.maxLength, w, true);
	if (strings) return strings;
	const items = repetition(n.minItems, n.maxItems, w, false);
	if (items) return items;
	if (n.properties && typeof n.properties === 'object') {
		const props = Object.values(n.properties);
		if (props.length === 0 && n.additionalProperties === false) {
			return { kind: 'grammar', why: 'an object with no properties writes "{" space  space "}"' };
		}
		for (const sub of props) {
			const refused = visit(sub, { ...w, depth: w.depth + 1 });
			if (refused) return refused;
		}
	}
	if (n.items !== undefined) {
		const each = Number.isFinite(n.maxItems) ? Math.max(1, n.maxItems) : 1;
		const refused = visit(Array.isArray(n.items) ? n.items[0] : n.items, { ...w, bound: w.bound * each });
		if (refused) return refused;
	}
	for (const key of ['anyOf', 'oneOf', 'allOf']) {
		for (const branch of Array.isArray(n[key]) ? n[key] : []) {
			const refused = visit(branch, w);
			if (refused) return refused;
		}
	}
	return undefined;
}

/** `{min,max}` as the GBNF parser checks it, inside the repetitions around it. */
function repetition(min: unknown, max: unknown, w: Walk, isString: boolean): Refusal | undefined {
	const lo = typeof min === 'number' ? min : 0;
	let hi = typeof max === 'number' ? max : undefined;
	const tooMany = {
		kind: 'grammar' as const,
		why: 'number of rules that are going to be repeated multiplied by the new repetition exceeds sane defaults, please reduce the number of repetitions or rule complexity',
	};
	if (lo > THRESHOLD)
		return {
			kind: 'grammar',
			why: 'number of repetitions exceeds sane defaults, please reduce the number of repetitions',
		};
	// A top-level string's large bound is degraded to unbounded; nested ones and exactly 2000 are not.
	if (hi !== undefined && isString && w.depth <= 1 && w.bound === 1 && hi > THRESHOLD) hi = undefined;
	if (hi === undefined) return lo * w.bound >= THRESHOLD ? tooMany : undefined;
	return hi * w.bound >= THRESHOLD ? tooMany : undefined;
}

function patternProblem(pattern: string, flavour: GrammarFlavour): Refusal | undefined {
	try {
		new RegExp(pattern, 'u');
	} catch {
		try {
			new RegExp(pattern);
		} catch (error) {
			return { kind: 'conversion', why: `Invalid pattern ${pattern}: ${(error as Error).message}` };
		}
	}
	if (flavour === 'lmstudio' && !(pattern.startsWith('^') && pattern.endsWith('$'))) {
		return { kind: 'conversion', why: "Pattern must start with '^' and end with '$'" };
	}
	return undefined;
}

/** The message llama.cpp sends for a refusal (400, invalid_request_error). */
export function llamaCppMessage(refusal: Refusal): string {
	return refusal.kind === 'grammar'
		? 'Failed to initialize samplers: failed to parse grammar'
		: `Unable to generate parser for this template. Automatic parser generation failed: JSON schema conversion failed:\n${refusal.why}`;
}
