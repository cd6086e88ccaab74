/** fetch (a URL → readable text) and web_scrape (CSS selector extraction), both through the network guard in urls.ts. */
import type { CheerioAPI } from 'cheerio';
import * as z from 'zod';
import { defineTool, fail, ok, type ToolContext, type ToolDefinition, type ToolResult } from '../defineTool';
import type { ToolDeps } from '../toolDeps';
import { guardedFetch, UrlRefused, type FetchedPage } from '../../gate/network/urls';
import { lazyRequire } from '../../util/lazyRequire';

// The slim build parses with htmlparser2 only: the full entry pulls undici, parse5 and
// iconv-lite (~2 MB) for features fetch never uses. It is built into dist/vendor/cheerio.js
// and loaded the first time a page is parsed.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadCheerio = lazyRequire(() => require('cheerio/slim') as typeof import('cheerio'));

const MAX_TEXT = 100_000;

/** The visible text of an HTML page, with headings, list items and paragraphs on their own lines. */
export function htmlToText(html: string): { title: string; text: string } {
	const $ = loadCheerio().load(html);
	const title = $('title').first().text().trim();
	$('script, style, noscript, template, iframe, svg, nav, footer, head').remove();
	$('br').replaceWith('\n');
	$('h1, h2, h3, h4, h5, h6').each((_, el) => {
		$(el)
			.prepend('\n' + '#'.repeat(Number(el.tagName[1])) + ' ')
			.append('\n');
	});
	$('p, div, section, article, li, tr, pre, blockquote').each((_, el) => {
		$(el).append('\n');
	});
	$('li').each((_, el) => {
		$(el).prepend('- ');
	});
	const text = ($('main').length ? $('main') : $('body')).text();
	return {
		title,
		text: text
			.replace(/[ \t]+/g, ' ')
			.replace(/ *\n */g, '\n')
			.replace(/\n{3,}/g, '\n\n')
			.trim(),
	};
}

/** A page that answered below HTTP 400, or the result that tells the model why there is none. */
/**
 * A redirect is a new URL the user's rules never saw: each hop is decided again. A deny or
 * ask stops it; a hop to another origin follows only when the rules (or auto-approve) allow
 * that URL on its own, since a person approved the first URL, not where it leads.
 */
function redirectCheck(context: ToolContext): (from: URL, to: URL) => void {
	return (from, to) => {
		const verdict =
			context.recheck?.([{ kind: 'url', values: [to.href] }]) ?? (from.origin === to.origin ? 'allow' : 'ask');
		if (verdict === 'deny' || (verdict === 'ask' && from.origin !== to.origin)) {
			throw new UrlRefused(
				`${from.href} redirects to ${to.href}, which ${verdict === 'deny' ? 'a permission rule refuses' : 'was not approved'}. Call the tool again with that URL if you need it, so the user can decide.`,
			);
		}
	};
}

async function fetchPage(
	url: string,
	deps: ToolDeps,
	context: ToolContext,
): Promise<{ page: FetchedPage } | { page?: undefined; result: ToolResult }> {
	const signal = context.signal;
	try {
		const page = await guardedFetch(url, deps.network, signal, redirectCheck(context));
		if (page.status >= 400) {
			return { result: fail(`${page.url} answered HTTP ${page.status}.`, { status: page.status }) };
		}
		return { page };
	} catch (error) {
		if (error instanceof UrlRefused) {
			return { result: fail(`Refused: ${error.message}`, { refused: true }) };
		}
		const name = (error as Error).name;
		if (name === 'TimeoutError' || (name === 'AbortError' && !signal.aborted)) {
			return { result: fail(`${url} did not answer in time. Try again later or another source.`) };
		}
		return { result: fail(`Could not fetch ${url}: ${(error as Error).message}`) };
	}
}

function isText(contentType: string): boolean {
	return (
		contentType === '' ||
		/^(text\/|application\/(json|xml|xhtml\+xml|javascript)|[^;]*\+json|[^;]*\+xml)/i.test(contentType)
	);
}

export function createWebTools(deps: ToolDeps): ToolDefinition<any>[] {
	const fetchTool = defineTool({
		name: 'fetch',
		description:
			'Fetch a public https:// URL and return its readable text (HTML is converted to text). Private and local addresses are refused.',
		input: z.object({ url: z.string().describe('A full https:// URL') }),
		effect: 'network',
		subjects: input => [{ kind: 'url', values: [input.url] }],
		describe: input => `Fetch ${input.url}`,
		async execute(input, context) {
			const fetched = await fetchPage(input.url, deps, context);
			if (!fetched.page) {
				return fetched.result;
			}
			const page = fetched.page;
			if (!isText(page.contentType)) {
				return fail(`${page.url} is ${page.contentType}, not text; it is not shown.`);
			}
			const raw = page.body.toString('utf8');
			const { title, text } =
				/html/i.test(page.contentType) || /^\s*<(!doctype|html)/i.test(raw)
					? htmlToText(raw)
					: { title: '', text: raw };
			const body =
				text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n[text cut at ${MAX_TEXT} characters]` : text;
			const header = [
				title && `# ${title}`,
				`Source: ${page.url}`,
				page.redirects.length ? `(redirected ${page.redirects.length}×)` : '',
				page.truncated ? '(body cut at the size cap)' : '',
			]
				.filter(Boolean)
				.join('\n');
			return ok(`${header}\n\n${body}`, {
				status: page.status,
				truncated: page.truncated || text.length > MAX_TEXT,
			});
		},
	});

	const scrapeTool = defineTool({
		name: 'web_scrape',
		description:
			'Fetch a public https:// URL and extract the elements matching a CSS selector: their text, or one attribute (e.g. "href").',
		input: z.object({
			url: z.string(),
			selector: z.string().min(1).describe('CSS selector, e.g. "article h2" or "a.download"'),
			attribute: z.string().optional().describe('Return this attribute instead of the text'),
			maxResults: z.number().int().min(1).max(500).default(100),
		}),
		effect: 'network',
		subjects: input => [{ kind: 'url', values: [input.url] }],
		describe: input => `Scrape "${input.selector}" from ${input.url}`,
		async execute(input, context) {
			const fetched = await fetchPage(input.url, deps, context);
			if (!fetched.page) {
				return fetched.result;
			}
			const page = fetched.page;
			let $: CheerioAPI;
			let found;
			try {
				$ = loadCheerio().load(page.body.toString('utf8'));
				found = $(input.selector);
			} catch (error) {
				return fail(`The selector "${input.selector}" is not valid CSS: ${(error as Error).message}`);
			}
			const values = found
				.slice(0, input.maxResults)
				.map((_, el) =>
					input.attribute ? ($(el).attr(input.attribute) ?? '') : $(el).text().replace(/\s+/g, ' ').trim(),
				)
				.get()
				.filter(v => v !== '');
			if (values.length === 0) {
				return ok(`No elements match "${input.selector}" on ${page.url}.`, { count: 0 });
			}
			const more = found.length > input.maxResults ? `\n[${found.length - input.maxResults} more matches]` : '';
			return ok(values.map((v, i) => `${i + 1}. ${v}`).join('\n') + more, {
				count: values.length,
				hasMore: found.length > input.maxResults,
			});
		},
	});
	return [fetchTool, scrapeTool];
}
