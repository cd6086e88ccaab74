import type { ChatItem } from '../../shared/views';

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
				groupLabel: groupLabel(
					first.kind === 'tool' ? first.call.name : '',
					run.length,
					run.map(item => (item.kind === 'tool' ? item.call.title || item.call.argumentsText : '')),
				),
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

/**
 * "Read 6 files" only when six files were read: the same file read three times is "Read
 * README.md 3 times", and four reads of two files are "Read 2 files in 4 calls".
 */
export function groupLabel(toolName: string, count: number, titles: readonly string[] = []): string {
	const [verb, noun] = NOUNS[toolName] ?? [toolName, 'times'];
	const distinct = new Set(titles).size;
	if (noun === 'times' || titles.length !== count || distinct === count) {
		return `${verb} ${count} ${noun}`;
	}
	return distinct === 1 ? `${titles[0]} ${count} times` : `${verb} ${distinct} ${noun} in ${count} calls`;
}
