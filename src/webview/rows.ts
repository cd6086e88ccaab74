import type { ChatItem } from '../shared/views';

/** One line of the virtualised list: an item, or a run of identical finished cards. */
export interface Row {
	key: string;
	ids: string[];
	/** "Read 6 files": set when the row groups several cards. */
	groupLabel?: string;
}

const NOUNS: Record<string, [string, string]> = {
	read_file: ['Read', 'files'],
	list_directory: ['Listed', 'folders'],
	search_files: ['Searched', 'times'],
	grep: ['Searched', 'times'],
	find_files: ['Found files', 'times'],
	fetch: ['Fetched', 'pages'],
	web_scrape: ['Fetched', 'pages'],
};

/** Consecutive successful calls of the same tool fold into one row; anything else stands alone. */
export function buildRows(items: readonly ChatItem[], minGroup = 3): Row[] {
	const rows: Row[] = [];
	let run: ChatItem[] = [];
	const flush = () => {
		if (run.length >= minGroup) {
			const first = run[0];
			rows.push({
				key: `group-${first.id}`,
				ids: run.map(item => item.id),
				groupLabel: groupLabel(first.kind === 'tool' ? first.call.name : '', run.length),
			});
		} else {
			run.forEach(item => rows.push({ key: item.id, ids: [item.id] }));
		}
		run = [];
	};
	for (const item of items) {
		const groupable = item.kind === 'tool' && item.call.status === 'succeeded' && item.call.effect !== 'write';
		const previous = run[0];
		if (groupable && previous?.kind === 'tool' && item.kind === 'tool' && previous.call.name === item.call.name) {
			run.push(item);
			continue;
		}
		flush();
		if (groupable) {
			run.push(item);
		} else {
			rows.push({ key: item.id, ids: [item.id] });
		}
	}
	flush();
	return rows;
}

export function groupLabel(toolName: string, count: number): string {
	const [verb, noun] = NOUNS[toolName] ?? [toolName, 'times'];
	return `${verb} ${count} ${noun}`;
}
