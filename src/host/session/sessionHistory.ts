import * as vscode from 'vscode';
import { filteredEvents, type ExportGate } from '../../core/session/exportGate';
import { sessionExportText, searchPassage } from '../../core/session/sessionExport';
import type { SessionMeta, SessionStore } from '../../core/store/sessionStore';
import { writeBytes } from '../tools/hostFiles';
import type { SessionPersistence } from './sessionPersistence';

export interface HistoryActions {
	/** Text to search for when the list opens. */
	query?: string;
	currentSessionId(): string;
	resume(sessionId: string): void;
	/** After the current session was deleted: start a fresh one. */
	newChat(): void;
	/** The gate's word on an export: where it may be saved, and what it may copy. */
	exports?: ExportGate<vscode.Uri>;
}

const RENAME: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Rename' };
const EXPORT: vscode.QuickInputButton = {
	iconPath: new vscode.ThemeIcon('export'),
	tooltip: 'Export as Markdown or JSON',
};
const DELETE: vscode.QuickInputButton = {
	iconPath: new vscode.ThemeIcon('trash'),
	tooltip: 'Delete (with its stored tool outputs)',
};

type SessionItem = vscode.QuickPickItem & { meta?: SessionMeta };

/**
 * "Keel: Show History": every stored session of this workspace, most recent first, grouped by
 * day. Typing searches the text of every session (SQLite full-text search) and shows the
 * matching passage. Enter resumes; the buttons on each row rename, export or delete it.
 */
export async function showHistory(persistence: SessionPersistence, actions: HistoryActions): Promise<void> {
	const store = persistence.store;
	if (!store) {
		void vscode.window.showWarningMessage(
			'Keel: the session history is not available (see the Keel output channel).',
		);
		return;
	}
	const pick = vscode.window.createQuickPick<SessionItem>();
	pick.title = 'Keel: Session History';
	pick.placeholder = "Type to search every session's text; pick one to resume";
	const refresh = () => {
		const query = pick.value.trim();
		if (query) {
			// Search results are already filtered by SQLite; alwaysShow keeps the quick pick's own label filter out of it.
			const hits = store.search(query);
			pick.items = hits.map(hit => ({
				...toItem(hit.meta, hit.meta.id === actions.currentSessionId()),
				detail: searchPassage(hit.snippet),
				alwaysShow: true,
			}));
			return;
		}
		pick.items = withDaySeparators(store.list().map(meta => toItem(meta, meta.id === actions.currentSessionId())));
		if (pick.items.length === 0) {
			pick.placeholder = 'No saved sessions yet in this workspace';
		}
	};
	pick.value = actions.query ?? '';
	refresh();
	pick.onDidChangeValue(() => refresh());
	pick.onDidAccept(() => {
		const chosen = pick.selectedItems[0];
		pick.hide();
		if (chosen?.meta) {
			actions.resume(chosen.meta.id);
		}
	});
	pick.onDidTriggerItemButton(async ({ button, item }) => {
		if (!item.meta) {
			return;
		}
		if (button === RENAME) {
			await renameSession(store, item.meta);
		} else if (button === EXPORT) {
			await exportSession(store, item.meta, actions.exports);
		} else if (button === DELETE && (await deleteSession(store, item.meta, actions))) {
			// refreshed below
		}
		refresh();
		pick.show();
	});
	pick.onDidHide(() => pick.dispose());
	pick.show();
}

export async function renameSession(store: SessionStore, meta: SessionMeta): Promise<void> {
	const title = await vscode.window.showInputBox({
		title: 'Keel: Rename Session',
		value: meta.title,
		prompt: 'New name for this session',
	});
	if (title !== undefined && title.trim()) {
		store.rename(meta.id, title);
	}
}

export async function deleteSession(store: SessionStore, meta: SessionMeta, actions: HistoryActions): Promise<boolean> {
	const answer = await vscode.window.showWarningMessage(
		`Delete "${meta.title}" and its stored tool outputs? This cannot be undone.`,
		{ modal: true },
		'Delete',
	);
	if (answer !== 'Delete') {
		return false;
	}
	const wasCurrent = meta.id === actions.currentSessionId();
	store.delete(meta.id);
	if (wasCurrent) {
		actions.newChat();
	}
	return true;
}

export async function exportSession(
	store: SessionStore,
	meta: SessionMeta,
	gate?: ExportGate<vscode.Uri>,
): Promise<void> {
	const format = await vscode.window.showQuickPick(['Markdown', 'JSON'], { title: `Keel: Export "${meta.title}"` });
	if (!format) {
		return;
	}
	const markdown = format === 'Markdown';
	const safeName = meta.title.replace(/[^\w.-]+/g, '-').slice(0, 60) || meta.id;
	const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
	const target = await vscode.window.showSaveDialog({
		defaultUri: folder ? vscode.Uri.joinPath(folder, `${safeName}.${markdown ? 'md' : 'json'}`) : undefined,
		filters: markdown ? { Markdown: ['md'] } : { JSON: ['json'] },
	});
	if (!target) {
		return;
	}
	try {
		await gate?.check(target);
	} catch (error) {
		void vscode.window.showErrorMessage(`Keel: not exported: ${(error as Error).message}`);
		return;
	}
	const content = sessionExportText(markdown ? 'markdown' : 'json', meta, exportSource(store, meta.id, gate));
	await writeBytes(target, Buffer.from(content, 'utf8'));
	void vscode.window.showInformationMessage(
		`Keel: exported "${meta.title}" to ${vscode.workspace.asRelativePath(target)}.`,
	);
}

/** The session's events and history as an export may copy them (the gate's filter, when there is one). */
export function exportSource(store: SessionStore, id: string, gate?: Pick<ExportGate<unknown>, 'filter'>) {
	const filter = gate?.filter ?? (messages => [...messages]);
	return {
		events: () => filteredEvents(store.events(id), filter),
		history: () => filter(store.load(id)),
	};
}

function toItem(meta: SessionMeta, current: boolean): SessionItem & { meta: SessionMeta } {
	return {
		meta,
		label: `${current ? '$(comment-discussion) ' : ''}${meta.title}`,
		description: [meta.model, meta.provider].filter(Boolean).join(' · '),
		detail: `${new Date(meta.updatedAt).toLocaleString()} · ${meta.eventCount} messages${current ? ' · current' : ''}`,
		buttons: [RENAME, EXPORT, DELETE],
	};
}

/** "Today", "Yesterday", then dates: sessions stay in recency order under their day. */
function withDaySeparators(items: Array<SessionItem & { meta: SessionMeta }>): SessionItem[] {
	const out: SessionItem[] = [];
	let last = '';
	const today = new Date().toDateString();
	const yesterday = new Date(Date.now() - 86_400_000).toDateString();
	for (const item of items) {
		const day = new Date(item.meta.updatedAt).toDateString();
		if (day !== last) {
			out.push({
				label:
					day === today
						? 'Today'
						: day === yesterday
							? 'Yesterday'
							: new Date(item.meta.updatedAt).toLocaleDateString(),
				kind: vscode.QuickPickItemKind.Separator,
			});
			last = day;
		}
		out.push(item);
	}
	return out;
}
