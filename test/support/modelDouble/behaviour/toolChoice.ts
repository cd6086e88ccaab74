// What a server does with a forced tool choice (OpenAI `tool_choice: "required"` or a named
// function, Anthropic `{type: "any"}` or `{type: "tool"}`), as the public record has it:
//
// - enforce: the server constrains decoding to a call of an offered tool (the named one), with
//   arguments its grammar allows: vLLM and SGLang (guided decoding), OpenAI and Anthropic.
// - ignore: accepted and dropped; the model answers as it would have: Ollama on both its
//   OpenAI and Anthropic layers (ollama#17921, v0.32.15; #8421), LM Studio for "required"
//   (lmstudio#1904, via vectorize-io/hindsight#1563).
// - llamacpp: "required" enforced (its grammar: common/chat-auto-parser-generator.cpp), a named
//   choice downgraded to "auto": the server reads `tool_choice` as a string, logs "Wrong type
//   supplied for parameter 'tool_choice', using default value" and goes on (server-common.h
//   json_value; PR #26849 closed). #27217 and #27767 report "required" not enforced on
//   reasoning templates: use `ignore` for those.
// - refuse: the request is refused before the model runs, in the wire's envelope: Anthropic's
//   "Thinking may not be enabled when tool_choice forces tool use." (extended thinking; see
//   UKGovernmentBEIS/inspect_ai#2333), OpenAI's `unsupported_value` phrasing for a model that
//   takes no forced choice (Kimi K2.6/K2.7 per vercel/ai#19553).

import type { DataStep, ReplyStep, Wire } from '../types';

export type ToolChoiceBehaviour = 'enforce' | 'ignore' | 'refuse' | 'llamacpp';

/** What the request forces: any call, or a call of one named tool; undefined when nothing is forced. */
export type Forced = { kind: 'required' } | { kind: 'named'; name: string };

export function forcedChoice(wire: Wire, body: any): Forced | undefined {
	const choice = body?.tool_choice;
	if (!choice || !Array.isArray(body?.tools) || body.tools.length === 0) return undefined;
	if (wire === 'openai') {
		if (choice === 'required') return { kind: 'required' };
		const name = choice?.function?.name;
		return typeof name === 'string' ? { kind: 'named', name } : undefined;
	}
	if (wire === 'anthropic') {
		if (choice.type === 'any') return { kind: 'required' };
		return choice.type === 'tool' && typeof choice.name === 'string'
			? { kind: 'named', name: choice.name }
			: undefined;
	}
	// Ollama's native /api/chat has no such field at all.
	return undefined;
}

/** Does this server constrain this request's output? */
export function enforces(behaviour: ToolChoiceBehaviour | undefined, forced: Forced | undefined): boolean {
	if (!forced || !behaviour) return false;
	if (behaviour === 'enforce') return true;
	return behaviour === 'llamacpp' && forced.kind === 'required';
}

export function refusal(wire: Wire): { status: number; message: string; type: string; code: string | null } {
	return wire === 'anthropic'
		? {
				status: 400,
				message: 'Thinking may not be enabled when tool_choice forces tool use.',
				type: 'invalid_request_error',
				code: null,
			}
		: {
				status: 400,
				message: "Unsupported value: 'tool_choice' does not support 'required' with this model.",
				type: 'invalid_request_error',
				code: 'unsupported_value',
			};
}

interface OfferedTool {
	name: string;
	schema: Record<string, any>;
}

function offeredTools(body: any): OfferedTool[] {
	return (body?.tools ?? []).map((t: any) => ({
		name: t.function?.name ?? t.name,
		schema: t.function?.parameters ?? t.input_schema ?? {},
	}));
}

/**
 * The step as an enforcing server lets it out: a reply that already is a call the grammar
 * allows passes; anything else becomes the call decoding was held to (the named tool, else the
 * offered tool the reply names, else the first), with the reply's arguments where they fit the
 * schema and placeholders of the right type where they do not.
 */
export function constrain(step: DataStep, forced: Forced, body: any): DataStep {
	if (step.kind !== 'reply') return step;
	const tools = offeredTools(body);
	const allowed = (name: string) =>
		forced.kind === 'named' ? name === forced.name : tools.some(tool => tool.name === name);
	const calls = step.toolCalls ?? [];
	if (calls.length > 0 && calls.every(call => allowed(call.name) && fits(call.arguments, tools, call.name))) {
		return { ...step, text: '', textAfter: undefined, finishReason: undefined };
	}
	const said = `${step.text ?? ''} ${calls.map(c => c.name).join(' ')}`;
	const name =
		forced.kind === 'named'
			? forced.name
			: (tools.find(tool => said.includes(tool.name))?.name ?? tools[0]?.name ?? 'tool');
	const schema = tools.find(tool => tool.name === name)?.schema ?? {};
	const given = calls.find(call => call.name === name)?.arguments;
	const reply: ReplyStep = {
		kind: 'reply',
		text: '',
		toolCalls: [{ name, arguments: JSON.stringify(fill(parsed(given), schema)) }],
	};
	return reply;
}

function fits(rawArguments: string, tools: OfferedTool[], name: string): boolean {
	const value = parsed(rawArguments);
	if (!value) return false;
	const schema = tools.find(tool => tool.name === name)?.schema ?? {};
	return (schema.required ?? []).every((key: string) => key in value && value[key] !== null);
}

function parsed(raw: string | undefined): Record<string, unknown> | undefined {
	try {
		const value = JSON.parse(raw ?? '');
		return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

/** The given values the schema has a field for, and every required field filled. */
function fill(given: Record<string, unknown> | undefined, schema: Record<string, any>): Record<string, unknown> {
	const properties: Record<string, any> = schema.properties ?? {};
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(given ?? {})) {
		if (key in properties && value !== null) out[key] = value;
	}
	for (const key of schema.required ?? []) {
		if (!(key in out)) out[key] = placeholder(properties[key] ?? {});
	}
	return out;
}

function placeholder(schema: Record<string, any>): unknown {
	const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
	if (Array.isArray(schema.enum)) return schema.enum.find((v: unknown) => v !== null);
	if (type === 'number' || type === 'integer') return 1;
	if (type === 'boolean') return true;
	if (type === 'array') return [];
	if (type === 'object') return fill({}, schema);
	return 'x';
}
