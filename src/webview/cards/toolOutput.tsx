import { useState } from 'preact/hooks';

/** Lines drawn before "Show all": a long output must not cost its full size on every paint. */
const PREVIEW_LINES = 200;

/** A tool's output in a bounded, scrollable block; the rest on request. */
export function ToolOutput({ text, testId }: { text: string; testId?: string }) {
	const [all, setAll] = useState(false);
	const lines = countLines(text);
	const shown = all || lines <= PREVIEW_LINES ? text : firstLines(text, PREVIEW_LINES);
	return (
		<div class="tool-output-body" data-testid={testId}>
			<pre tabIndex={0} aria-label="Tool output">
				{shown}
			</pre>
			{shown !== text && (
				<button class="link" data-testid="tool-output-show-all" onClick={() => setAll(true)}>
					Show all {lines} lines
				</button>
			)}
		</div>
	);
}

export function countLines(text: string): number {
	if (text === '') {
		return 0;
	}
	let count = 1;
	for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
		count++;
	}
	return count;
}

function firstLines(text: string, count: number): string {
	let index = -1;
	for (let i = 0; i < count; i++) {
		index = text.indexOf('\n', index + 1);
		if (index === -1) {
			return text;
		}
	}
	return text.slice(0, index);
}
