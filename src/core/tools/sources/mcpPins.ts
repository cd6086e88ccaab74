/**
 * Rug pulls: a server can change what the model is told about a tool after the user allowed
 * it. Each tool's whole definition (name, title, annotations, description, input and output
 * schema: everything the model may see) is pinned as a hash the first time it is seen; a new
 * or changed definition, or a name the server lists twice (which one would the model get?),
 * is held back until the user approves it.
 */
import { createHash } from 'crypto';

export interface ToolShape {
	name: string;
	[field: string]: unknown;
}

/** JSON with keys in a fixed order, so the same definition always hashes the same. */
function stable(value: unknown): string {
	if (Array.isArray(value)) {
		return `[${value.map(stable).join(',')}]`;
	}
	if (value && typeof value === 'object') {
		return `{${Object.keys(value)
			.sort()
			.map(k => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** name → hash of every definition listed under that name (two under one name hash differently from one). */
export function pinHashes(tools: readonly ToolShape[]): Record<string, string> {
	const byName = new Map<string, ToolShape[]>();
	for (const tool of tools) {
		byName.set(tool.name, [...(byName.get(tool.name) ?? []), tool]);
	}
	return Object.fromEntries(
		[...byName].map(([name, list]) => [name, createHash('sha256').update(stable(list)).digest('hex').slice(0, 32)]),
	);
}

/** Names listed more than once: never offered, whatever was approved. */
export function duplicateNames(tools: readonly ToolShape[]): string[] {
	const seen = new Set<string>();
	const twice = new Set<string>();
	for (const tool of tools) {
		(seen.has(tool.name) ? twice : seen).add(tool.name);
	}
	return [...twice];
}

/** Tools new or changed since `pinned` (all of them are "new" when nothing was pinned). */
export function changedSince(pinned: Record<string, string> | undefined, hashes: Record<string, string>): string[] {
	return Object.keys(hashes).filter(name => pinned?.[name] !== hashes[name]);
}
