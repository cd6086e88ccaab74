// The captured answers of the real llama.cpp server, one JSON file per behaviour under
// fixtures/: what was asked, what the server answered (status, headers, body or the raw SSE
// text), what it logged meanwhile, and the public reference the behaviour matches. Ids,
// timestamps and timings differ on every run; field names, statuses and texts do not.
import * as fs from 'fs';
import * as path from 'path';
import type { LlamaServer } from './launch';
import { jsonOrText, sseFrames, type RawResponse } from './rawHttp';

export interface Fixture {
	name: string;
	/** What the fixture shows, in one or two sentences. */
	shows: string;
	/** Public docs or issues this behaviour matches. */
	references: string[];
	/** The server's command line, paths replaced by placeholders. */
	server: string[];
	request?: { method: string; path: string; body?: unknown };
	response?: {
		status: number;
		headers: Record<string, string>;
		/** Parsed JSON, or the raw text. */
		body?: unknown;
		/** The raw SSE text, byte for byte, when the answer was a stream. */
		sse?: string;
		/** The SSE payloads parsed, for reading. */
		frames?: unknown[];
		headersAtMs?: number;
		ms: number;
		clientHungUp?: boolean;
	};
	/** Further observations (a second request, /slots, timings). */
	observed?: Record<string, unknown>;
	/** What the server logged while it handled the request. */
	log?: string[];
}

const FIXTURE_DIR = path.resolve(__dirname, '../../../../../test/support/servers/llamacpp/fixtures');

/** Where fixtures live in the repository (not under out/). */
export function fixtureDir(): string {
	return FIXTURE_DIR;
}

export function readFixture(name: string): Fixture {
	return JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, `${name}.json`), 'utf8')) as Fixture;
}

/** A fixture's response part from a raw response; SSE kept as text and parsed frames. */
export function responsePart(raw: RawResponse): NonNullable<Fixture['response']> {
	const isSse = /event-stream/.test(raw.headers['content-type'] ?? '');
	const headers = pick(raw.headers, [
		'content-type',
		'content-length',
		'transfer-encoding',
		'access-control-allow-origin',
	]);
	return {
		status: raw.status,
		headers,
		...(isSse ? { sse: raw.body, frames: sseFrames(raw.body) } : { body: withoutPaths(jsonOrText(raw.body)) }),
		...(raw.headersAt === undefined ? {} : { headersAtMs: raw.headersAt }),
		ms: raw.ms,
		...(raw.aborted ? { clientHungUp: true } : {}),
	};
}

/** The server's command line without this machine's paths. */
export function serverLine(server: LlamaServer): string[] {
	const [binary, ...args] = server.args;
	return [path.basename(binary), ...args].map(arg =>
		arg.endsWith('.gguf')
			? '<noise model: keel-noise-qwen3.gguf>'
			: arg.endsWith('.jinja')
				? `<${path.basename(arg)}>`
				: arg,
	);
}

/** The colour codes a -v server writes around its debug lines. */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The log lines a server wrote after `from` (a log().length taken before the request), paths removed. */
export function logSince(server: LlamaServer, from: number, max = 40): string[] {
	const lines = server
		.log()
		.slice(from)
		.split('\n')
		.map(line =>
			line.replace(ANSI_COLOUR, '').replace(/\/\S+\/(llama\.cpp-node-llama-cpp-[^/\s]+)\/\S*/g, '<cache>'),
		)
		// Debug lines (a -v server) are the server's working, not what it says about the request.
		.filter(line => !/^\d+\.\d+\.\d+\.\d+ D /.test(line))
		.filter(line => line.trim());
	return lines.length > max
		? [...lines.slice(0, max / 2), `… ${lines.length - max} lines …`, ...lines.slice(-max / 2)]
		: lines;
}

/** This machine's paths (model, template, cache) in any string of a body, replaced by their file names. */
export function withoutPaths(value: unknown): unknown {
	if (typeof value === 'string') {
		return value.replace(/\/[^\s"']*\/([^/\s"']+\.(?:gguf|jinja))/g, '<$1>');
	}
	if (Array.isArray(value)) return value.map(withoutPaths);
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutPaths(v)]));
	}
	return value;
}

/** A request body with long strings shortened, so a fixture stays readable; the shape is kept. */
export function abbreviate(value: unknown, limit = 400): unknown {
	if (typeof value === 'string') {
		return value.length > limit
			? `${value.slice(0, 120)}… (${value.length.toLocaleString('en-US')} characters in all)`
			: value;
	}
	if (Array.isArray(value)) {
		if (value.length > 12) {
			return [
				...value.slice(0, 3).map(v => abbreviate(v, limit)),
				`… ${value.length - 3} more of the same shape`,
			];
		}
		return value.map(v => abbreviate(v, limit));
	}
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, abbreviate(v, limit)]));
	}
	return value;
}

export function writeFixtures(fixtures: Fixture[], dir = FIXTURE_DIR): void {
	fs.mkdirSync(dir, { recursive: true });
	for (const fixture of fixtures) {
		fs.writeFileSync(path.join(dir, `${fixture.name}.json`), `${JSON.stringify(fixture, null, '\t')}\n`);
	}
}

function pick(headers: Record<string, string>, keys: string[]): Record<string, string> {
	return Object.fromEntries(keys.filter(key => headers[key] !== undefined).map(key => [key, headers[key]]));
}
