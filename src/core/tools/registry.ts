import * as z from 'zod';
import type { ToolSpec } from '../llm/chatModel';
import type { ToolDefinition } from './defineTool';
import { wireSchema } from './schemaForms';

export type ParsedCall =
	| { ok: true; tool: ToolDefinition; input: unknown }
	| { ok: false; errorKind: 'unknownTool' | 'invalidArguments'; message: string; tool?: ToolDefinition };

/** Holds the tools offered to the model, their JSON Schemas, and validates every call. */
export class ToolRegistry {
	private readonly _tools = new Map<string, ToolDefinition>();

	constructor(tools: readonly ToolDefinition<any>[] = []) {
		for (const tool of tools) {
			this.register(tool);
		}
	}

	register(tool: ToolDefinition<any>): void {
		if (this._tools.has(tool.name)) {
			throw new Error(`Tool "${tool.name}" is registered twice`);
		}
		this._tools.set(tool.name, tool);
	}

	/** Tool sources (MCP servers) come and go; built-in tools are never removed. */
	unregister(name: string): boolean {
		return this._tools.delete(name);
	}

	get(name: string): ToolDefinition | undefined {
		return this._tools.get(name);
	}

	list(): ToolDefinition[] {
		return [...this._tools.values()];
	}

	specs(filter: (tool: ToolDefinition) => boolean = () => true): ToolSpec[] {
		return this.list().filter(filter).map(toolSpec);
	}

	/** The card title a stored call had, for sessions drawn again from history; undefined when it no longer parses. */
	titleFor(name: string, rawArguments: string): string | undefined {
		const parsed = this.parse(name, rawArguments);
		if (!parsed.ok) {
			return undefined;
		}
		try {
			return parsed.tool.describe(parsed.input);
		} catch {
			return undefined;
		}
	}

	/** Validates arguments on our side always: servers' `strict` modes are not to be trusted. */
	parse(name: string, rawArguments: string): ParsedCall {
		const tool = this._tools.get(name);
		if (!tool) {
			const names = this.list()
				.map(t => t.name)
				.join(', ');
			return {
				ok: false,
				errorKind: 'unknownTool',
				message: `There is no tool named "${name}". Available tools: ${names}.`,
			};
		}
		let value: unknown;
		try {
			value = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
		} catch (error) {
			return {
				ok: false,
				errorKind: 'invalidArguments',
				tool,
				message: `The arguments for ${name} are not valid JSON (${(error as Error).message}). Send a single JSON object matching the schema.`,
			};
		}
		const result = tool.input.safeParse(value);
		if (!result.success) {
			const issues = result.error.issues
				.map(issue => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
				.join('; ');
			return {
				ok: false,
				errorKind: 'invalidArguments',
				tool,
				message: `Invalid arguments for ${name}: ${issues}. Fix them and call again.`,
			};
		}
		return { ok: true, tool, input: result.data };
	}
}

/**
 * What a request carries for a tool: its schema in the form every server can compile
 * (schemaForms.ts). Calls are still validated against the whole schema, here, on Keel's side.
 */
export function toolSpec(tool: ToolDefinition): ToolSpec {
	const schema = tool.parameters ?? (z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>);
	return { name: tool.name, description: tool.description, parameters: wireSchema(schema) };
}
