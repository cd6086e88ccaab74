/**
 * The session's cache of idempotent tool results: the same call with the same arguments
 * returns what it returned before, without running again, until its TTL runs out or a write
 * touches a path it covers. Small models re-read the same file many times per task.
 *
 * Cacheable: reads, listings, searches, fetches, diagnostics. Never: commands, writes,
 * anything from an MCP server or another tool source (opaque, may have side effects).
 */
import type { ToolDefinition, ToolResult } from './defineTool';

export const CACHEABLE_TOOLS: ReadonlySet<string> = new Set([
	'read_file',
	'list_directory',
	'find_path',
	'grep',
	'fetch',
	'web_scrape',
	'diagnostics',
	'search_code',
]);

export interface CacheSettings {
	enabled: boolean;
	/** Entry lifetime; 0 keeps entries until a write or the end of the session. */
	ttlSeconds: number;
}

export const defaultCacheSettings: CacheSettings = { enabled: true, ttlSeconds: 300 };

interface Entry {
	result: ToolResult;
	at: number;
	/** Workspace-relative paths the result depends on; '' is the whole workspace; none for URLs. */
	covers: string[];
}

const MAX_SESSIONS = 20;

export interface CacheStats {
	hits: number;
	misses: number;
	invalidations: number;
}

export function isCacheable(tool: Pick<ToolDefinition, 'name' | 'effect'>): boolean {
	return CACHEABLE_TOOLS.has(tool.name) && (tool.effect === 'read' || tool.effect === 'network');
}

/** Key order must not matter: `{a,b}` and `{b,a}` are one call. */
export function canonicalArguments(value: unknown): string {
	if (Array.isArray(value)) {
		return `[${value.map(canonicalArguments).join(',')}]`;
	}
	if (value && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, v]) => v !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalArguments(v)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

export function normalisePath(path: string): string {
	const clean = path
		.replace(/\\/g, '/')
		.replace(/^(?:\.\/)+/, '')
		.replace(/\/+$/, '');
	return clean === '.' ? '' : clean;
}

/** `./a.txt`, `a.txt` and `a.txt/` name one file: one cache entry. */
function withNormalisedPaths(input: unknown): unknown {
	if (!input || typeof input !== 'object' || Array.isArray(input)) {
		return input;
	}
	const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
	for (const key of ['path', 'from', 'to', 'cwd']) {
		if (typeof out[key] === 'string') {
			out[key] = normalisePath(out[key] as string);
		}
	}
	return out;
}

function overlaps(a: string, b: string): boolean {
	return a === '' || b === '' || a === b || b.startsWith(`${a}/`) || a.startsWith(`${b}/`);
}

export class ToolResultCache {
	private readonly _sessions = new Map<string, Map<string, Entry>>();
	readonly stats: CacheStats = { hits: 0, misses: 0, invalidations: 0 };

	constructor(private readonly _now: () => number = Date.now) {}

	key(tool: string, input: unknown): string {
		return `${tool}\0${canonicalArguments(withNormalisedPaths(input))}`;
	}

	get(sessionId: string, key: string, settings: CacheSettings): ToolResult | undefined {
		const entry = this._sessions.get(sessionId)?.get(key);
		if (entry && settings.ttlSeconds > 0 && this._now() - entry.at > settings.ttlSeconds * 1000) {
			this._sessions.get(sessionId)!.delete(key);
		} else if (entry) {
			this.stats.hits++;
			return entry.result;
		}
		this.stats.misses++;
		return undefined;
	}

	set(sessionId: string, key: string, result: ToolResult, covers: string[]): void {
		let session = this._sessions.get(sessionId);
		if (!session) {
			session = new Map();
			this._sessions.set(sessionId, session);
			// Chats that ended long ago: only the most recent ones keep their entries.
			while (this._sessions.size > MAX_SESSIONS) {
				this._sessions.delete(this._sessions.keys().next().value as string);
			}
		}
		session.set(key, { result, at: this._now(), covers: covers.map(normalisePath) });
		// Bounded: a long session must not keep every result it ever saw.
		while (session.size > 500) {
			session.delete(session.keys().next().value as string);
		}
	}

	/** A write to `paths` (workspace-relative; '' = anything) drops every entry covering them, in every session. */
	invalidatePaths(paths: readonly string[]): void {
		const written = paths.map(normalisePath);
		for (const session of this._sessions.values()) {
			for (const [key, entry] of session) {
				if (entry.covers.some(c => written.some(w => overlaps(c, w)))) {
					session.delete(key);
					this.stats.invalidations++;
				}
			}
		}
	}

	/** Results that change without a file changing (VS Code's problems after a language server ran). */
	invalidateTool(tool: string): void {
		for (const session of this._sessions.values()) {
			for (const key of session.keys()) {
				if (key.startsWith(`${tool}\0`)) {
					session.delete(key);
					this.stats.invalidations++;
				}
			}
		}
	}

	clearSession(sessionId: string): void {
		this._sessions.delete(sessionId);
	}
}

/** What a cached result of this call depends on: its path subjects, the workspace when it has none, nothing for URLs. */
export function coveredPaths(tool: ToolDefinition, input: unknown): string[] {
	if (tool.effect === 'network') {
		return [];
	}
	const subjects = safeSubjects(tool, input).filter(s => s.kind === 'path');
	const paths = subjects.flatMap(s => s.values);
	return paths.length ? paths : [''];
}

/** Paths a write touches; a command can touch anything (''). */
export function writtenPaths(tool: ToolDefinition, input: unknown): string[] {
	if (tool.effect === 'exec') {
		return [''];
	}
	const paths = safeSubjects(tool, input)
		.filter(s => s.kind === 'path')
		.flatMap(s => s.values);
	return paths.length ? paths : [''];
}

function safeSubjects(tool: ToolDefinition, input: unknown) {
	try {
		return tool.subjects?.(input) ?? [];
	} catch {
		return [];
	}
}
