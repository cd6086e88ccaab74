import type { CanonicalMessage } from '../../../llm/canonical';
import type { ToolSpec } from '../../../llm/chatModel';
import { tryParseJson } from '../../../util/json';
import { FENCED_SHELL_HINT } from './fencedShell';

/**
 * Text-mode tool calling, for models whose native tool calling is broken on their server:
 * the catalog goes into the system prompt, calls come back as `<tool_call>` text, and the
 * history is replayed in the same text form so the model sees one consistent dialect.
 */
export function textModeInstructions(tools: readonly ToolSpec[]): string {
	const catalog = tools
		.map(tool => `- ${tool.name}: ${tool.description} Arguments: ${compactSchema(tool.parameters)}`)
		.join('\n');
	return [
		'To use a tool, reply with exactly one block and nothing after it:',
		'<tool_call>{"name": "TOOL_NAME", "arguments": {...}}</tool_call>',
		'The result comes back in the next message. Tools:',
		catalog,
		...(tools.some(tool => tool.name === 'run_command') ? [FENCED_SHELL_HINT] : []),
	].join('\n');
}

/** `{path: string, offset?: integer}`: a third of the tokens of the JSON Schema, same information. */
export function compactSchema(schema: Record<string, unknown>): string {
	const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown[] }>;
	const required = new Set((schema.required ?? []) as string[]);
	const fields = Object.entries(properties).map(([key, sub]) => {
		const type = sub.enum
			? sub.enum.map(v => JSON.stringify(v)).join('|')
			: Array.isArray(sub.type)
				? sub.type.join('|')
				: String(sub.type ?? 'any');
		return `${key}${required.has(key) ? '' : '?'}: ${type}`;
	});
	return `{${fields.join(', ')}}`;
}

/** A call the model can copy: required fields filled with placeholders of the right type. */
export function exampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
	const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown[] }>;
	const required = (schema.required ?? Object.keys(properties).slice(0, 1)) as string[];
	const example: Record<string, unknown> = {};
	for (const key of required) {
		const sub = properties[key] ?? {};
		const type = Array.isArray(sub.type) ? sub.type[0] : sub.type;
		example[key] = sub.enum
			? sub.enum[0]
			: type === 'number' || type === 'integer'
				? 1
				: type === 'boolean'
					? true
					: type === 'array'
						? []
						: type === 'object'
							? {}
							: '...';
	}
	return example;
}

/** Canonical history → the text dialect: calls become assistant text, results user text. */
export function toTextModeMessages(messages: readonly CanonicalMessage[]): CanonicalMessage[] {
	const out: CanonicalMessage[] = [];
	for (const message of messages) {
		if (message.kind === 'tool_call') {
			const args = message.data.arguments ?? tryParseJson(message.data.rawArguments) ?? message.data.rawArguments;
			const block = `<tool_call>${JSON.stringify({ name: message.data.name, arguments: args })}</tool_call>`;
			const last = out[out.length - 1];
			if (last && last.kind === 'assistant') {
				out[out.length - 1] = { kind: 'assistant', content: `${last.content}\n${block}` };
			} else {
				out.push({ kind: 'assistant', content: block });
			}
		} else if (message.kind === 'tool_result') {
			out.push({
				kind: 'user',
				content: `<tool_result name="${message.data.name}">\n${message.content}\n</tool_result>`,
			});
		} else {
			out.push(message);
		}
	}
	return out;
}

/**
 * Which dialect a model gets this step. `auto` starts native (or what was remembered for the
 * model) and switches to text after repeated native failures, remembering the switch.
 */
export class ToolModeState {
	private _mode: 'native' | 'text';
	private _failures = 0;

	constructor(
		private readonly _setting: 'auto' | 'native' | 'text',
		private readonly _threshold: number,
		private readonly _modelId: string,
		private readonly _memory:
			| { get(id: string): 'native' | 'text' | undefined; set(id: string, mode: 'native' | 'text'): void }
			| undefined,
		private readonly _onSwitch: (failures: number) => void,
	) {
		this._mode = _setting === 'auto' ? (_memory?.get(_modelId) ?? 'native') : _setting;
	}

	get mode(): 'native' | 'text' {
		return this._mode;
	}

	/** The server refused native tools outright: text mode now, whatever the failure count; false when already there. */
	forceText(): boolean {
		if (this._mode === 'text') {
			return false;
		}
		this._mode = 'text';
		this._memory?.set(this._modelId, 'text');
		return true;
	}

	nativeFailure(): void {
		if (this._setting !== 'auto' || this._mode === 'text' || ++this._failures < this._threshold) {
			return;
		}
		this._mode = 'text';
		this._memory?.set(this._modelId, 'text');
		this._onSwitch(this._failures);
	}
}
