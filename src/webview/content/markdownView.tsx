import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { onHighlighterLoaded, renderMarkdown } from './markdown';
import { post } from '../state/vscodeApi';

/** While an answer streams, markdown is parsed at most this often; finished answers once. */
const STREAM_RENDER_MS = 120;

/** An answer's markdown, with Copy and Insert buttons on each code block. */
export function MarkdownView({ id, text, streaming }: { id: string; text: string; streaming: boolean }) {
	const shown = useThrottled(text, streaming ? STREAM_RENDER_MS : 0);
	const [epoch, setEpoch] = useState(0);
	useEffect(() => onHighlighterLoaded(() => setEpoch(value => value + 1)), []);
	const html = useMemo(() => renderMarkdown(shown, streaming ? undefined : id), [shown, streaming, id, epoch]);
	const ref = useRef<HTMLDivElement>(null);
	useLayoutEffect(() => {
		if (!streaming && ref.current) {
			addCodeToolbars(ref.current);
		}
	});
	// Sanitized by DOMPurify in renderMarkdown; the CSP blocks scripts regardless.
	return <div class="markdown" ref={ref} onClick={onCodeAction} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The latest value, but no more often than every `ms` (0: at once). */
function useThrottled(value: string, ms: number): string {
	const [shown, setShown] = useState(value);
	const last = useRef(0);
	useEffect(() => {
		if (ms === 0 || shown === value) {
			return;
		}
		const wait = Math.max(0, last.current + ms - performance.now());
		const timer = setTimeout(() => {
			last.current = performance.now();
			setShown(value);
		}, wait);
		return () => clearTimeout(timer);
	}, [value, ms]);
	return ms === 0 ? value : shown;
}

/** Our own buttons after sanitizing (the sanitizer forbids buttons in model output). */
function addCodeToolbars(root: HTMLElement): void {
	for (const pre of Array.from(root.querySelectorAll('pre'))) {
		if (pre.previousElementSibling?.classList.contains('code-toolbar')) {
			continue;
		}
		const bar = document.createElement('div');
		bar.className = 'code-toolbar';
		bar.append(codeButton('copy', 'Copy', 'Copy code'), codeButton('insert', 'Insert', 'Insert code at cursor'));
		pre.before(bar);
	}
}

function codeButton(action: string, label: string, name: string): HTMLButtonElement {
	const button = document.createElement('button');
	button.className = 'link code-action';
	button.dataset.action = action;
	button.dataset.testid = action === 'copy' ? 'copy-code' : 'insert-code';
	button.setAttribute('aria-label', name);
	button.title = name;
	// The label comes from CSS, so an answer's text (copy, tests, search) is the model's alone.
	button.dataset.label = label;
	return button;
}

function onCodeAction(event: MouseEvent): void {
	const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button.code-action');
	const code = button?.parentElement?.nextElementSibling?.textContent;
	if (!button || code === undefined || code === null) {
		return;
	}
	post({ type: button.dataset.action === 'copy' ? 'copyText' : 'insertText', text: code });
	if (button.dataset.action === 'copy') {
		flashCopied(button);
	}
}

export function flashCopied(button: HTMLElement): void {
	if (button.dataset.copied) {
		return;
	}
	button.dataset.copied = 'true';
	setTimeout(() => delete button.dataset.copied, 1500);
}
