import * as vscode from 'vscode';
import type { AgentEvent } from '../../core/agent/events';
import type { Event } from '../../core/util/emitter';
import { Disposable } from '../../core/util/lifecycle';

const SCHEME = 'keel-diff';
/** What the kept sides may hold in all: old cards lose their "Open diff" content first. */
const MAX_ENTRIES = 600;
const MAX_CHARS = 64 * 1024 * 1024;

/**
 * Opens a tool call's diff in VS Code's diff editor. Remembers the before/after each write
 * card showed (from the agent events), so the editor shows exactly what approval applies.
 * The webview only names a tool-call id; it cannot supply content or paths.
 */
export class DiffEditor extends Disposable implements vscode.TextDocumentContentProvider {
	private readonly _sides = new Map<string, string>();
	private _chars = 0;
	/** Calls whose diff was opened, so their tab can close when they are decided. */
	private readonly _opened = new Set<string>();

	/** `events`: the conversation's agent events, whose write cards carry the diffs. */
	constructor(events: Event<AgentEvent>) {
		super();
		this._register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, this));
		this._register(events(event => this.handle(event)));
	}

	handle(event: AgentEvent): void {
		if (event.type !== 'toolCallUpdated') {
			return;
		}
		// "Proposed change" stops being true once the call is decided: its diff tab goes.
		if (this._opened.has(event.call.id) && !['streaming', 'awaitingApproval'].includes(event.call.status)) {
			this._opened.delete(event.call.id);
			void closeDiffTabs(event.call.id);
		}
		if (!event.call.diffs) {
			return;
		}
		event.call.diffs.forEach((diff, index) => {
			if (diff.before !== undefined || diff.after !== undefined) {
				this._set(`${event.call.id}/${index}/before`, diff.before ?? '');
				this._set(`${event.call.id}/${index}/after`, diff.after ?? '');
				this._set(`${event.call.id}/${index}/path`, diff.path);
			}
		});
		// Bounded in entries and in size: old cards lose the button's content before memory grows without limit.
		while (this._sides.size > MAX_ENTRIES || this._chars > MAX_CHARS) {
			const oldest = this._sides.keys().next().value as string;
			this._chars -= (this._sides.get(oldest) ?? '').length;
			this._sides.delete(oldest);
		}
	}

	private _set(key: string, text: string): void {
		this._chars += text.length - (this._sides.get(key)?.length ?? 0);
		// Re-set keys move to the end: the newest card is the last to go.
		this._sides.delete(key);
		this._sides.set(key, text);
	}

	provideTextDocumentContent(uri: vscode.Uri): string {
		return this._sides.get(uri.query) ?? '';
	}

	async open(toolCallId: string, index = 0): Promise<boolean> {
		const path = this._sides.get(`${toolCallId}/${index}/path`);
		if (path === undefined) {
			return false;
		}
		const side = (which: string) =>
			vscode.Uri.from({ scheme: SCHEME, path: `/${which}/${path}`, query: `${toolCallId}/${index}/${which}` });
		this._opened.add(toolCallId);
		await vscode.commands.executeCommand(
			'vscode.diff',
			side('before'),
			side('after'),
			`${path} (Keel: proposed change)`,
			{ preview: true },
		);
		return true;
	}
}

/** The diff tabs Keel opened for one call (its sides' query starts with the call's id). */
async function closeDiffTabs(toolCallId: string): Promise<void> {
	const tabs = vscode.window.tabGroups.all
		.flatMap(group => group.tabs)
		.filter(
			tab =>
				tab.input instanceof vscode.TabInputTextDiff &&
				tab.input.modified.scheme === SCHEME &&
				tab.input.modified.query.startsWith(`${toolCallId}/`),
		);
	if (tabs.length) {
		await vscode.window.tabGroups.close(tabs, true);
	}
}
