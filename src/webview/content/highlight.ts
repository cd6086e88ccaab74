/**
 * The syntax highlighter, a bundle of its own (dist/highlight.js) that the chat loads the first
 * time an answer has a code block, so opening the chat never pays for it. The languages people
 * ask about most; anything else shows as plain code.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const languages = {
	bash,
	c,
	cpp,
	csharp,
	css,
	diff,
	dockerfile,
	go,
	ini,
	java,
	javascript,
	json,
	kotlin,
	makefile,
	markdown,
	php,
	python,
	ruby,
	rust,
	shell,
	sql,
	swift,
	typescript,
	xml,
	yaml,
};
for (const [name, language] of Object.entries(languages)) {
	hljs.registerLanguage(name, language);
}

export type Highlighter = (code: string, language: string) => string | undefined;

/** Returns highlighted HTML (escaped, spans with hljs-* classes), or undefined for an unknown language. */
const highlight: Highlighter = (code, language) => {
	if (!language || !hljs.getLanguage(language)) {
		return undefined;
	}
	return hljs.highlight(code, { language, ignoreIllegals: true }).value;
};

(globalThis as { keelHighlighter?: Highlighter }).keelHighlighter = highlight;
globalThis.dispatchEvent?.(new Event('keel-highlighter'));
