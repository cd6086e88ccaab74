/**
 * Checks the relative links of Markdown files as GitHub resolves them: every link and image
 * (inline, reference-style, in tables and lists, and `<a href>` / `<img src>` in raw HTML) must
 * name a file or folder that exists, and an `#anchor` must name a heading of the target page.
 * Code blocks and code spans are not links. Uses marked's lexer, the parser the chat already
 * ships, so what counts as a link here is what a Markdown renderer sees.
 */
import * as fs from 'fs';
import * as path from 'path';
import { marked, type Token, type Tokens } from 'marked';

export interface LinkProblem {
	file: string;
	href: string;
	problem: string;
}

/**
 * GitHub's anchor for a heading's text: lower case, everything but letters, marks, numbers,
 * connector punctuation, spaces and hyphens dropped, each space a hyphen (github-slugger's rule).
 */
export function headingSlug(text: string): string {
	return text
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

/** A heading's text as rendered: code spans keep their text, links their label, emphasis its words. */
function plainText(tokens: readonly Token[]): string {
	return tokens
		.map(token => {
			const children = (token as { tokens?: Token[] }).tokens;
			if (children && children.length > 0) {
				return plainText(children);
			}
			return token.type === 'html' ? '' : ((token as { text?: string }).text ?? '');
		})
		.join('');
}

/** Every anchor a page offers, with its heading's text; a repeated heading gets `-1`, `-2`, … as on GitHub. */
export function headingsByAnchor(markdown: string): Map<string, string> {
	const headings = new Map<string, string>();
	const seen = new Map<string, number>();
	// walkTokens returns the callbacks' results; these are synchronous and return nothing.
	void marked.walkTokens(marked.lexer(markdown), token => {
		if (token.type !== 'heading') {
			return;
		}
		const text = plainText((token as Tokens.Heading).tokens);
		const base = headingSlug(text);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		headings.set(count === 0 ? base : `${base}-${count}`, text);
	});
	return headings;
}

/** Every anchor a page offers. */
export function anchorsOf(markdown: string): Set<string> {
	return new Set(headingsByAnchor(markdown).keys());
}

/** Every link and image target in the page, in order. */
export function linksOf(markdown: string): string[] {
	const hrefs: string[] = [];
	void marked.walkTokens(marked.lexer(markdown), token => {
		if (token.type === 'link' || token.type === 'image') {
			hrefs.push((token as Tokens.Link | Tokens.Image).href);
		} else if (token.type === 'html') {
			for (const match of (token as Tokens.HTML).text.matchAll(/\b(?:href|src)\s*=\s*"([^"]*)"/gi)) {
				hrefs.push(match[1]);
			}
		}
	});
	return hrefs;
}

/** Absolute URLs (`https:`, `mailto:` …) are not checked here: they leave the repository. */
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** Problems with the relative links of one file; `root` bounds where a link may lead. */
export function checkFile(file: string, root: string): LinkProblem[] {
	const problems: LinkProblem[] = [];
	const markdown = fs.readFileSync(file, 'utf8');
	for (const href of linksOf(markdown)) {
		if (EXTERNAL.test(href) || href.startsWith('//')) {
			continue;
		}
		const hash = href.indexOf('#');
		const target = decodeURIComponent(hash < 0 ? href : href.slice(0, hash));
		const anchor = hash < 0 ? undefined : decodeURIComponent(href.slice(hash + 1));
		const resolved = target === '' ? file : path.resolve(path.dirname(file), target);
		const report = (problem: string) => problems.push({ file: path.relative(root, file), href, problem });
		if (path.relative(root, resolved).startsWith('..')) {
			report('leads outside the repository');
		} else if (!fs.existsSync(resolved)) {
			report(`${path.relative(root, resolved)} does not exist`);
		} else if (
			anchor !== undefined &&
			resolved.endsWith('.md') &&
			!anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor)
		) {
			report(`${path.relative(root, resolved)} has no heading with the anchor #${anchor}`);
		}
	}
	return problems;
}

/** The Markdown pages reachable from `start` through relative links (start included). */
export function reachablePages(start: string): Set<string> {
	const seen = new Set<string>();
	const queue = [path.resolve(start)];
	while (queue.length > 0) {
		const page = queue.shift() as string;
		if (seen.has(page) || !fs.existsSync(page)) {
			continue;
		}
		seen.add(page);
		for (const href of linksOf(fs.readFileSync(page, 'utf8'))) {
			const target = href.split('#')[0];
			if (target.endsWith('.md') && !EXTERNAL.test(target)) {
				queue.push(path.resolve(path.dirname(page), decodeURIComponent(target)));
			}
		}
	}
	return seen;
}
