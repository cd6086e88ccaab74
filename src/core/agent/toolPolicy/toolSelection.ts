/**
 * Which tool schemas a request carries. Built-in tools always go; tools from sources (MCP
 * servers, VS Code's tools) go as long as they fit the budget — a count (keel.tools.maxOffered)
 * and a quarter of the context window in estimated tokens — ranked by BM25 relevance to the
 * conversation (MiniSearch). The rest are named in a one-line catalog inside `request_tools`,
 * which the model calls to have any of them offered from its next step on.
 */
import { approxTokens } from '../../util/tokens';
import MiniSearch from 'minisearch';
import * as z from 'zod';
import type { CanonicalMessage } from '../../llm/canonical';
import type { ToolSpec } from '../../llm/chatModel';
import { defineTool, ok, type ToolDefinition } from '../../tools/defineTool';
import type { ToolRegistry } from '../../tools/registry';
import { simplestSchema } from '../../tools/schemaForms';

export const REQUEST_TOOLS = 'request_tools';
export const DEFAULT_MAX_OFFERED = 40;
/** Share of the context window tool schemas may take; the conversation needs the rest. */
export const TOOL_TOKEN_SHARE = 0.25;
/** The catalog lists the most relevant held-back names up to this length; the rest are found by search. */
const MAX_CATALOG_CHARS = 700;
const SEARCH_HITS = 5;
/** Words every description has: matching on them would rank noise. */
const STOP_WORDS = new Set([
	'the',
	'a',
	'an',
	'and',
	'or',
	'of',
	'to',
	'in',
	'on',
	'for',
	'is',
	'are',
	'be',
	'it',
	'its',
	'this',
	'that',
	'with',
	'by',
	'as',
	'at',
	'from',
	'what',
	'which',
	'how',
	'can',
	'you',
	'me',
	'my',
	'please',
	'get',
	'returns',
	'return',
]);

export interface ToolBudget {
	maxOffered: number;
}

type RequestToolsTool = ToolDefinition<{ names?: string[]; search?: string }> & { budget(): ToolBudget };

/**
 * A session's selection: what is offered, in the order first offered, and what is held back
 * for `request_tools`. A requested tool is appended; nothing is removed or reordered, and
 * `request_tools`' description stays as first sent, so each request extends the one before.
 */
export class ToolSelection {
	/** Tools the model asked for by name or search: kept in the simpler form too (simplerTools). */
	readonly requested = new Set<string>();
	/** Sourced tools the simpler form leaves out until the model asks for them. */
	heldBack = new Map<string, ToolSpec>();
	/** request_tools' description in the simpler form, as first sent: later requests extend that one. */
	simplerCatalog?: string;

	constructor(
		public offered: ToolSpec[],
		readonly withheld: Map<string, ToolSpec>,
		/** The current turn's notice; set again at each turn. */
		public notice: (text: string) => void,
	) {}

	request(names: string[], search?: string): string {
		const added: string[] = [];
		const unknown: string[] = [];
		if (search) {
			const hits = rank([...this.withheld.values(), ...this.heldBack.values()], search).hits.slice(
				0,
				SEARCH_HITS,
			);
			names = [...names, ...hits.map(spec => spec.name)];
			if (hits.length === 0) {
				unknown.push(`(nothing matches "${search}")`);
			}
		}
		for (const name of names) {
			const spec = this.withheld.get(name);
			if (spec) {
				this.withheld.delete(name);
				this.offered.push(spec);
				this.requested.add(name);
				added.push(name);
			} else if (this.heldBack.delete(name)) {
				this.requested.add(name);
				added.push(name);
			} else if (!this.offered.some(s => s.name === name)) {
				unknown.push(name);
			}
		}
		if (added.length) {
			this.notice(`The model asked for ${added.join(', ')}; offered from its next step on.`);
		}
		return (
			[
				added.length ? `Now offered: ${added.join(', ')}. Call them in your next step.` : '',
				unknown.length ? `No such tool: ${unknown.join(', ')}.` : '',
			]
				.filter(Boolean)
				.join(' ') || 'Those tools are already offered.'
		);
	}
}

const turns = new WeakMap<AbortSignal, ToolSelection>();

export function createRequestToolsTool(budget: () => ToolBudget): RequestToolsTool {
	const tool = defineTool({
		name: REQUEST_TOOLS,
		description: requestDescription([]),
		input: z
			.object({
				names: z.array(z.string()).optional().describe('Exact tool names from the list in this description'),
				search: z
					.string()
					.optional()
					.describe('Words describing the tool you need; the best matches are offered'),
			})
			.refine(input => (input.names?.length ?? 0) > 0 || !!input.search?.trim(), 'give "names" or "search"'),
		effect: 'read',
		// It changes what the loop offers, which the review of the reply that called it reads: in its turn, never early.
		readsOnly: () => false,
		describe: input =>
			`Request tools: ${[...(input.names ?? []), ...(input.search ? [`"${input.search}"`] : [])].join(', ')}`,
		async execute(input, context) {
			const turn = turns.get(context.signal);
			return ok(
				turn
					? turn.request(input.names ?? [], input.search?.trim())
					: 'Every tool is already offered in this request.',
			);
		},
	});
	return { ...tool, budget };
}

function requestDescription(withheld: string[]): string {
	let list = withheld.join(', ');
	if (list.length > MAX_CATALOG_CHARS) {
		const cut = list.lastIndexOf(', ', MAX_CATALOG_CHARS);
		const shown = list.slice(0, cut);
		list = `${shown} and ${withheld.length - shown.split(', ').length} more (find them with "search")`;
	}
	return `Ask for tools that are not offered in this request: by exact name, or by "search" words. Not offered now, most relevant first: ${list || '(none)'}.`;
}

/** What a tool costs in a request: its spec as the wire carries it. */
function specTokens(spec: ToolSpec): number {
	return approxTokens(JSON.stringify(spec));
}

export interface SelectionContext {
	messages: readonly CanonicalMessage[];
	contextWindow: number;
	signal: AbortSignal;
	notice(text: string): void;
}

/**
 * The session's tools for this turn. The first turn chooses (relevance, budget); later turns
 * keep that choice as it was sent, drop only tools that are gone or no longer permitted, and
 * append tools that arrived since (an MCP server connected) while they fit the budget.
 */
export function selectTools(
	all: readonly ToolSpec[],
	registry: ToolRegistry,
	context: SelectionContext,
	previous?: ToolSelection,
): ToolSelection {
	const selection = previous
		? keepSelection(previous, all, registry, context)
		: firstSelection(all, registry, context);
	selection.notice = context.notice;
	turns.set(context.signal, selection);
	return selection;
}

function budgetOf(registry: ToolRegistry, contextWindow: number): { maxOffered: number; tokens: number } {
	const requester = registry.get(REQUEST_TOOLS) as RequestToolsTool | undefined;
	return {
		maxOffered: Math.max(5, requester?.budget?.().maxOffered ?? DEFAULT_MAX_OFFERED),
		tokens: Math.floor(contextWindow * TOOL_TOKEN_SHARE),
	};
}

function keepSelection(
	selection: ToolSelection,
	all: readonly ToolSpec[],
	registry: ToolRegistry,
	context: SelectionContext,
): ToolSelection {
	const current = new Map(all.map(spec => [spec.name, spec]));
	// A changed schema is sent as it now is; an unchanged tool keeps the very spec first sent.
	selection.offered = selection.offered
		.filter(spec => current.has(spec.name))
		.map(spec =>
			spec.name === REQUEST_TOOLS || sameSchema(spec, current.get(spec.name)!) ? spec : current.get(spec.name)!,
		);
	for (const name of [...selection.withheld.keys()]) {
		if (!current.has(name)) {
			selection.withheld.delete(name);
		}
	}
	const known = new Set([...selection.offered.map(spec => spec.name), ...selection.withheld.keys()]);
	const fresh = all.filter(spec => !known.has(spec.name) && spec.name !== REQUEST_TOOLS);
	const budget = budgetOf(registry, context.contextWindow);
	let used = selection.offered.reduce((n, spec) => n + specTokens(spec), 0);
	for (const spec of fresh) {
		const cost = specTokens(spec);
		if (selection.offered.length < budget.maxOffered && used + cost <= budget.tokens) {
			selection.offered.push(spec);
			used += cost;
		} else {
			selection.withheld.set(spec.name, spec);
		}
	}
	const request = all.find(spec => spec.name === REQUEST_TOOLS);
	if (request && selection.withheld.size > 0 && !selection.offered.some(spec => spec.name === REQUEST_TOOLS)) {
		selection.offered.push({
			...request,
			parameters: structuredClone(request.parameters),
			description: requestDescription([...selection.withheld.keys()]),
		});
	}
	if (fresh.length) {
		context.notice(
			`New tools: ${fresh.map(spec => spec.name).join(', ')}; appended to the offered list or listed for ${REQUEST_TOOLS}.`,
		);
	}
	return selection;
}

function sameSchema(a: ToolSpec, b: ToolSpec): boolean {
	return JSON.stringify(a.parameters) === JSON.stringify(b.parameters);
}

function firstSelection(all: readonly ToolSpec[], registry: ToolRegistry, context: SelectionContext): ToolSelection {
	const requester = registry.get(REQUEST_TOOLS) as RequestToolsTool | undefined;
	const { maxOffered, tokens: tokenBudget } = budgetOf(registry, context.contextWindow);
	const rest = all.filter(spec => spec.name !== REQUEST_TOOLS);
	const total = rest.reduce((n, spec) => n + specTokens(spec), 0);
	const everything = () => new ToolSelection([...rest], new Map(), context.notice);
	if (rest.length <= maxOffered && total <= tokenBudget) {
		return everything();
	}
	const core = rest.filter(spec => !registry.get(spec.name)?.source);
	const sourced = rest.filter(spec => registry.get(spec.name)?.source);
	if (sourced.length === 0) {
		// Built-in tools are never withheld: with nothing else offered there is nothing to choose.
		return everything();
	}
	const ranked = rank(sourced, queryFrom(context.messages));
	const request: ToolSpec | undefined = requester && {
		name: REQUEST_TOOLS,
		description: '',
		parameters: structuredClone(all.find(s => s.name === REQUEST_TOOLS)?.parameters ?? {}),
	};
	// The catalog is counted at its largest (every source tool named), so the request never ends up over budget.
	const catalogCost = request
		? specTokens({ ...request, description: requestDescription(sourced.map(spec => spec.name)) })
		: 0;
	let used = core.reduce((n, spec) => n + specTokens(spec), 0) + catalogCost;
	const chosen: ToolSpec[] = [];
	const withheld = new Map<string, ToolSpec>();
	// Strictly by relevance: the first tool that does not fit closes the list, so a small
	// irrelevant tool never slips in ahead of a relevant one. Tools the conversation does not
	// match at all stay in the catalog.
	let open = true;
	for (const spec of ranked.hits) {
		const cost = specTokens(spec);
		open &&= core.length + chosen.length + (request ? 1 : 0) < maxOffered && used + cost <= tokenBudget;
		if (open) {
			chosen.push(spec);
			used += cost;
		} else {
			withheld.set(spec.name, spec);
		}
	}
	for (const spec of ranked.rest) {
		withheld.set(spec.name, spec);
	}
	const offered = [...core, ...chosen];
	if (request && withheld.size > 0) {
		request.description = requestDescription([...withheld.keys()]);
		offered.push(request);
	}
	const names = chosen.map(s => s.name);
	context.notice(
		`Tools offered: ${offered.length} of ${rest.length + (request ? 1 : 0)} — ${core.length} built-in${names.length ? ` + ${names.length} by relevance (${names.join(', ')})` : ''}${request && withheld.size ? ` + ${REQUEST_TOOLS}` : ''}. ` +
			`${withheld.size} more ${request ? `listed by name for ${REQUEST_TOOLS}` : 'not offered'}. Budget: ${maxOffered} tools, ${tokenBudget.toLocaleString('en-US')} tokens (a quarter of the ${context.contextWindow.toLocaleString('en-US')}-token context window).`,
	);
	return new ToolSelection(offered, withheld, context.notice);
}

/** What the conversation is about now: the latest user messages weigh most, so they come last and are kept whole. */
function queryFrom(messages: readonly CanonicalMessage[]): string {
	const recent = messages.filter(m => m.kind === 'user' || m.kind === 'assistant').slice(-4);
	return recent
		.map(m => m.content)
		.join(' ')
		.slice(-2000);
}

/** BM25 over name words, description and parameter names; unmatched tools keep their order after the matches. */
function rank(specs: ToolSpec[], query: string): { hits: ToolSpec[]; rest: ToolSpec[] } {
	if (specs.length === 0 || !query.trim()) {
		return { hits: [], rest: specs };
	}
	const search = new MiniSearch<{ id: number; name: string; description: string; params: string }>({
		fields: ['name', 'description', 'params'],
		tokenize: text => text.split(/[^\p{L}\p{N}]+|(?<=\p{Ll})(?=\p{Lu})/u).filter(Boolean),
		processTerm: term => (term.length > 1 && !STOP_WORDS.has(term.toLowerCase()) ? term.toLowerCase() : null),
		searchOptions: { boost: { name: 2 }, prefix: true, fuzzy: 0.15, combineWith: 'OR' },
	});
	search.addAll(
		specs.map((spec, id) => ({
			id,
			name: spec.name.replace(/^mcp_/, ''),
			description: spec.description,
			params: Object.keys((spec.parameters.properties as object) ?? {}).join(' '),
		})),
	);
	const hits = search.search(query).map(hit => hit.id as number);
	const seen = new Set(hits);
	return { hits: hits.map(id => specs[id]), rest: specs.filter((_, id) => !seen.has(id)) };
}

/**
 * What a request carries once the server could not compile the usual tool schemas: the
 * built-in tools, the sourced tools this conversation already called or the model asked for,
 * and `request_tools`, every schema in its simplest form (one level, short enums, no
 * alternatives). The sourced tools left out are listed in `request_tools`, so the model can
 * still ask for the one it needs, as it can for tools held back by the budget.
 */
export function simplerTools(
	offered: readonly ToolSpec[],
	registry: ToolRegistry,
	messages: readonly CanonicalMessage[],
	selection?: ToolSelection,
): ToolSpec[] {
	const called = new Set(messages.flatMap(m => (m.kind === 'tool_call' ? [m.data.name] : [])));
	const keep = (spec: ToolSpec) =>
		!registry.get(spec.name)?.source || called.has(spec.name) || !!selection?.requested.has(spec.name);
	const tools = offered.filter(spec => spec.name !== REQUEST_TOOLS && keep(spec));
	const left = offered.filter(spec => spec.name !== REQUEST_TOOLS && !keep(spec));
	const request =
		offered.find(spec => spec.name === REQUEST_TOOLS) ?? registry.specs(tool => tool.name === REQUEST_TOOLS)[0];
	if (selection) {
		for (const spec of left) {
			if (!selection.heldBack.has(spec.name) && !selection.requested.has(spec.name)) {
				selection.heldBack.set(spec.name, spec);
			}
		}
	}
	const listed = [...left.map(spec => spec.name), ...(selection?.withheld.keys() ?? [])];
	if (request && (listed.length > 0 || selection?.simplerCatalog)) {
		// Only a session's selection can take the request (request_tools finds it by the turn's signal).
		const description = selection ? (selection.simplerCatalog ??= requestDescription(listed)) : undefined;
		if (description) {
			tools.push({ ...request, description });
		}
	}
	return tools.map(spec => ({ ...spec, parameters: simplestSchema(spec.parameters) }));
}
