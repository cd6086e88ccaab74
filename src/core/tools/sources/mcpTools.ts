/**
 * An MCP server's tools as Keel tools: namespaced by server (`mcp_<server>_<tool>`), arguments
 * validated against the server's own JSON Schema with Ajv (Keel's repair and coercion run
 * first, from the same schema, see callRepair.ts), effect 'exec' so they ask by default and
 * never run in an untrusted workspace, and results turned into text the model and the card read.
 */
import { createHash } from 'crypto';
import * as z from 'zod';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ValidateFunction } from 'ajv';
import type { ToolContext, ToolDefinition, ToolResult } from '../defineTool';
import { redactDeep } from '../../gate/redact/redact';
import { mcpSdk } from './mcpSdk';

/** Providers cap tool names (OpenAI: 64 characters of [a-zA-Z0-9_-]). */
export const MAX_TOOL_NAME = 64;
const MAX_DESCRIPTION = 1024;

export interface McpToolCaller {
	call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

/**
 * Keel's name for a server's tool. Two servers, or a server and Keel, never get the same
 * name, so a permission rule names one server's tool only. The readable form
 * `mcp_<server>_<tool>` is used when it is unambiguous: a server name without "_" or ".",
 * declared in one place only (`unique`), a tool name of [A-Za-z0-9_-], 64 characters at most
 * (the first "_" after "mcp_" then always ends the server's name). Any other gets
 * `mcpx_<hash>_<tool, cleaned>`, the hash (sha256) taken over where the server is declared,
 * its name and the tool's name, so it differs for every server and tool.
 */
export function mcpToolName(server: string, tool: string, identity = server, unique = true): string {
	const readable = `mcp_${server}_${tool}`;
	if (unique && /^[A-Za-z0-9-]+$/.test(server) && /^[A-Za-z0-9_-]+$/.test(tool) && readable.length <= MAX_TOOL_NAME) {
		return readable;
	}
	const hash = BigInt(
		`0x${createHash('sha256')
			.update(JSON.stringify([identity, server, tool]))
			.digest('hex')
			.slice(0, 16)}`,
	)
		.toString(36)
		.padStart(13, '0')
		.slice(0, 12);
	const clean = tool.replace(/[^A-Za-z0-9_-]/g, '_');
	return `mcpx_${hash}_${clean}`.slice(0, MAX_TOOL_NAME);
}

export function mcpToolDefinition(
	server: string,
	tool: Tool,
	caller: McpToolCaller,
	shape: (result: ToolResult, context: ToolContext) => Promise<ToolResult>,
	name = mcpToolName(server, tool.name),
): ToolDefinition<Record<string, unknown>> {
	const parameters = schemaFor(tool);
	const input = jsonSchemaInput(parameters);
	const title = tool.annotations?.title ?? tool.title ?? tool.name;
	const description = `[MCP ${server}] ${tool.description ?? title}`;
	return {
		name,
		description:
			description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description,
		input,
		parameters,
		source: `mcp:${server}`,
		effect: 'exec',
		// The server's own word and nothing else: a tool that says it changes nothing may run beside other reads.
		readsOnly: () => tool.annotations?.readOnlyHint === true,
		describe: args => `${server}: ${title}${summarize(args)}`,
		async execute(args, context) {
			const result = await caller.call(tool.name, args, context.signal);
			return shape(toToolResult(result), context);
		},
	};
}

/** A zod input that validates with Ajv against a tool's own JSON Schema (its errors become the usual "Invalid arguments" reply). */
export function jsonSchemaInput(parameters: Record<string, unknown>): z.ZodType<Record<string, unknown>> {
	const validate = validatorFor(parameters);
	return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
		if (validate && !validate(value)) {
			for (const error of validate.errors ?? []) {
				ctx.addIssue({
					code: 'custom',
					path: error.instancePath.split('/').filter(Boolean),
					message: error.message ?? 'is invalid',
				});
			}
		}
	});
}

function schemaFor(tool: Tool): Record<string, unknown> {
	const schema: Record<string, unknown> = { ...(tool.inputSchema as Record<string, unknown>) };
	delete schema.$schema;
	schema.type = 'object';
	schema.properties ??= {};
	return schema;
}

/** A schema Ajv cannot compile is not a reason to lose the tool: the server validates too. */
function validatorFor(schema: Record<string, unknown>): ValidateFunction | undefined {
	const { Ajv } = mcpSdk();
	try {
		return new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
	} catch {
		return undefined;
	}
}

function summarize(args: Record<string, unknown>): string {
	const first = Object.entries(args).find(([, v]) => typeof v === 'string' || typeof v === 'number');
	if (!first) {
		return '';
	}
	const text = String(first[1]);
	return ` (${first[0]}: ${text.length > 60 ? `${text.slice(0, 59)}…` : text})`;
}

/**
 * Text as is; images and audio as a line saying what arrived (the canonical history is text);
 * embedded resources with their text; links; structured content as JSON when no text came
 * with it. `isError` makes it a failed result the model reads and can act on.
 */
export function toToolResult(result: CallToolResult): ToolResult {
	const parts: string[] = [];
	let images = 0;
	for (const item of result.content ?? []) {
		switch (item.type) {
			case 'text':
				parts.push(item.text);
				break;
			case 'image':
				images++;
				parts.push(`[image: ${item.mimeType}, ${base64Bytes(item.data)} bytes — not shown to the model]`);
				break;
			case 'audio':
				parts.push(`[audio: ${item.mimeType} — not shown to the model]`);
				break;
			case 'resource': {
				const resource = item.resource as { uri: string; mimeType?: string; text?: string };
				parts.push(
					typeof resource.text === 'string'
						? `[resource ${resource.uri}]\n${resource.text}`
						: `[resource ${resource.uri} (${resource.mimeType ?? 'binary'})]`,
				);
				break;
			}
			case 'resource_link':
				parts.push(
					`[link ${item.uri}${item.name ? ` — ${item.name}` : ''}${item.description ? `: ${item.description}` : ''}]`,
				);
				break;
		}
	}
	if (result.structuredContent !== undefined && !parts.some(p => p.trim() !== '')) {
		// Redacted value by value before it becomes JSON text: escaped, a key body is one line of "\n"s.
		parts.push(JSON.stringify(redactDeep(result.structuredContent).value, null, 2));
	}
	const text = parts.join('\n') || '(the tool returned nothing)';
	const fields = { source: 'mcp', ...(images ? { images } : {}) };
	return result.isError
		? { ok: false, display: `The tool reported an error: ${text}`, ...fields }
		: { ok: true, display: text, ...fields };
}

function base64Bytes(data: string): number {
	const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
	return Math.floor((data.length * 3) / 4) - padding;
}
