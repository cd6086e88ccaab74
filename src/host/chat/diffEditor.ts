import * as vscode from 'vscode';
import type { AgentEvent } from '../../core/agent/events';
import type { Event } from '../../core/util/emitter';
import { Disposable } from '../../core/util/lifecycle';

const SCHEME = 'keel-diff';

/**
 * Opens a tool call's diff in VS Code's diff editor. Remembers the before/after each write
 * card showed (from the agent events), so the editor shows exactly what approval applies.
 * The webview only names a tool-call id; it cannot supply content or paths.
 */
export class DiffEditor extends Disposable implements vscode.TextDocumentContentProvider {
	private readonly _sides = new Map<string, string>();

	/** `events`: the conversation's agent events, whose write cards carry the diffs. */
	constructor(events: Event<AgentEvent>) {
		super();
		this._register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, this));
		this._register(events(event => this.handle(event)));
	}

	handle(event: AgentEvent): void {
		if (event.type !== 'toolCallUpdated' || !event.call.diffs) {
			return;
		}
		event.call.diffs.forEach((diff, index) => {
			if (diff.before !== undefined || diff.after !== undefined) {
				this._sides.set(`${event.call.id}/${index}/before`, diff.before ?? '');
				this._sides.set(`${event.call.id}/${index}/after`, diff.after ?? '');
				this._sides.set(`${event.call.id}/${index}/path`, diff.path);
			}
		});
		// Bounded: old cards lose the button's content before memory grows without limit.
		while (this._sides.size > 600) {
			this._sides.delete(this._sides.keys().next().value as string);
		}
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
