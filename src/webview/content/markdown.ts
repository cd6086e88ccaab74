import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import type { Highlighter } from './highlight';

// Model output is untrusted: render, then sanitize. The CSP is the second wall, not the first.
DOMPurify.addHook('afterSanitizeAttributes', node => {
	if (node.tagName === 'A') {
		const href = node.getAttribute('href') ?? '';
		if (!/^https?:/i.test(href)) {
			node.removeAttribute('href');
		}
		node.setAttribute('rel', 'noopener noreferrer');
	}
	if (node.tagName === 'IMG') {
		// Remote images would leak data through their URLs; only inline data images render.
		const src = node.getAttribute('src') ?? '';
		if (!src.startsWith('data:image/')) {
			node.removeAttribute('src');
		}
	}
});

let highlighter: Highlighter | undefined;
let loading = false;
const listeners = new Set<() => void>();

const marked = new Marked({ gfm: true, breaks: false });
marked.use({
	renderer: {
		code(token: Tokens.Code) {
			const language = (token.lang ?? '').trim().split(/\s+/)[0].toLowerCase();
			if (!highlighter) {
				loadHighlighter();
			}
			const highlighted = highlighter?.(token.text, language);
			const body = highlighted ?? escapeHtml(token.text);
			return `<pre><code class="hljs${language ? ` language-${escapeHtml(language)}` : ''}">${body}</code></pre>\n`;
		},
	},
});

/** Finished answers are parsed once; scrolling back and forth reuses the HTML. */
const cache = new Map<string, string>();
const CACHE_SIZE = 400;

export function renderMarkdown(text: string, cacheKey?: string): string {
	const key = cacheKey === undefined ? undefined : `${cacheKey}\u0000${text.length}`;
	const hit = key ? cache.get(key) : undefined;
	if (hit !== undefined) {
		return hit;
	}
	const html = DOMPurify.sanitize(marked.parse(text, { async: false }) as string, {
		FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed', 'svg', 'math'],
		FORBID_ATTR: ['style'],
	});
	if (key) {
		cache.set(key, html);
		if (cache.size > CACHE_SIZE) {
			cache.delete(cache.keys().next().value as string);
		}
	}
	return html;
}

/** Called when the highlighter arrives, so code blocks already on screen get their colours. */
export function onHighlighterLoaded(listener: () => void): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

export function highlighterReady(): boolean {
	return highlighter !== undefined;
}

/** Loads dist/highlight.js beside this bundle, with this page's nonce (the CSP allows nothing else). */
function loadHighlighter(): void {
	const current = document.querySelector<HTMLScriptElement>('script[src$="webview.js"]');
	if (loading || !current) {
		return;
	}
	loading = true;
	window.addEventListener(
		'keel-highlighter',
		() => {
			highlighter = (globalThis as { keelHighlighter?: Highlighter }).keelHighlighter;
			cache.clear();
			listeners.forEach(listener => listener());
		},
		{ once: true },
	);
	const script = document.createElement('script');
	script.src = current.src.replace(/webview\.js$/, 'highlight.js');
	script.nonce = current.nonce ?? '';
	document.head.appendChild(script);
}

function escapeHtml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
