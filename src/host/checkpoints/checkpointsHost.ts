import * as path from 'path';
import * as vscode from 'vscode';
import {
	Checkpoints,
	type ApproveProtected,
	type CheckpointNotice,
	type ConfirmOverwrite,
	type RestoreOutcome,
} from '../../core/checkpoints/checkpoints';
import { CheckpointError, CheckpointStore } from '../../core/checkpoints/checkpointStore';
import { CheckpointIndex, type TurnCheckpoint } from '../../core/checkpoints/turnCheckpoints';
import { ShadowGit } from '../../core/checkpoints/shadowGit';
import type { AgentEvent } from '../../core/agent/events';
import type { Gate } from '../../core/gate/gate';
import { Emitter } from '../../core/util/emitter';
import { Disposable } from '../../core/util/lifecycle';
import { isProtectedPath } from '../../core/gate/paths/pathPolicy';
import type { ConflictChoice } from '../common/keelApi';
import { readPathPolicy } from '../settings/permissionsConfig';
import { readSetting } from '../settings/settings';

export function readCheckpointSettings(): { enabled: boolean; maxFileBytes: number; maxFiles: number } {
	return {
		enabled: readSetting('checkpoints.enabled'),
		maxFileBytes: Math.max(1, readSetting('checkpoints.maxFileSizeKb')) * 1024,
		maxFiles: Math.max(1, readSetting('checkpoints.maxFiles')),
	};
}

/**
 * Checkpoints for the window's workspace: a shadow repository in Keel's storage (never the
 * user's .git), snapshotted around every turn that runs a file tool or a command.
 */
export class CheckpointsHost extends Disposable {
	readonly checkpoints: Checkpoints;
	private _settling: Promise<unknown> = Promise.resolve();
	private readonly _onDidChange = this._register(new Emitter<void>());
	/** A turn's checkpoint was completed, or files were restored. */
	readonly onDidChange = this._onDidChange.event;
	private readonly _onDidNotice = this._register(new Emitter<CheckpointNotice>());
	/** What a snapshot or a restore has to tell the chat of its session (skipped files, a failed snapshot). */
	readonly onDidNotice = this._onDidNotice.event;

	constructor(storage: vscode.Uri, gate: Gate) {
		super();
		this.checkpoints = new Checkpoints({
			notice: notice => this._onDidNotice.fire(notice),
			protectedReason: file => isProtectedPath(file, readPathPolicy()),
			open: async () => {
				const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
				if (!folder || folder.scheme !== 'file') {
					throw new CheckpointError("checkpoints need a workspace folder on this machine's disk");
				}
				if (!(await ShadowGit.available())) {
					throw new CheckpointError(
						'checkpoints need git (the git command was not found); install git to get "Restore files"',
					);
				}
				const settings = readCheckpointSettings();
				const gitDir = path.join(storage.fsPath, 'checkpoints', 'shadow.git');
				const store = await CheckpointStore.open(
					gitDir,
					folder.fsPath,
					{ maxFileBytes: settings.maxFileBytes, maxFiles: settings.maxFiles },
					gate,
				);
				return { store, index: new CheckpointIndex(path.join(storage.fsPath, 'checkpoints', 'turns.json')) };
			},
		});
	}

	/** For the wrapped file and shell tools: snapshot once per turn, unless switched off. */
	beforeChange(): Promise<void> {
		return readCheckpointSettings().enabled ? this.checkpoints.beforeChange() : Promise.resolve();
	}

	handle(sessionId: string, event: AgentEvent): void {
		if (event.type === 'turnStarted') {
			this.checkpoints.turnStarted(sessionId, event.turnId);
			if (readCheckpointSettings().enabled) {
				this.checkpoints.warm();
			}
		} else if (event.type === 'turnFinished') {
			const done = this.checkpoints.turnFinished(sessionId, event.turnId).then(checkpoint => {
				if (checkpoint) {
					this._onDidChange.fire();
				}
			});
			this._settling = Promise.all([this._settling, done]);
		}
	}

	/** The session's checkpoints, once the end-of-turn snapshot of a just-finished turn is in. */
	async turns(sessionId: string): Promise<TurnCheckpoint[]> {
		await this._settling.catch(() => undefined);
		return this.checkpoints.turns(sessionId);
	}

	async restore(sessionId: string, turnId: string, onConflict: ConflictChoice = 'ask'): Promise<RestoreOutcome> {
		await this._settling.catch(() => undefined);
		const outcome = await this.checkpoints.restore(
			sessionId,
			turnId,
			confirmFor(onConflict),
			approveFor(onConflict),
		);
		this._onDidChange.fire();
		return outcome;
	}

	async undoRestore(sessionId: string, onConflict: ConflictChoice = 'ask'): Promise<RestoreOutcome> {
		await this._settling.catch(() => undefined);
		const outcome = await this.checkpoints.undoRestore(sessionId, confirmFor(onConflict), approveFor(onConflict));
		this._onDidChange.fire();
		return outcome;
	}
}

/**
 * The approval gate for protected files in a restore: asked in a dialog when the user is there
 * to answer ('ask'); a choice decided up front (the API) never writes them (fail closed).
 */
function approveFor(choice: ConflictChoice): ApproveProtected {
	if (choice !== 'ask') {
		return async () => false;
	}
	return async files => {
		const list = files.map(f => `${f.path} (${f.reason})`).join('\n');
		const answer = await vscode.window.showWarningMessage(
			`Restoring also writes ${files.length === 1 ? 'a protected file' : `${files.length} protected files`}.`,
			{ modal: true, detail: `${list}\n\nRestore skips them unless you allow it.` },
			'Allow',
		);
		return answer === 'Allow';
	};
}

function confirmFor(choice: ConflictChoice): ConfirmOverwrite {
	if (choice !== 'ask') {
		return async () => choice;
	}
	return async files => {
		const list =
			files.length > 5 ? `${files.slice(0, 5).join(', ')} and ${files.length - 5} more` : files.join(', ');
		const answer = await vscode.window.showWarningMessage(
			`You changed ${list} after Keel did. Restoring overwrites your edits.`,
			{ modal: true, detail: 'Keep my edits restores every other file and leaves these as they are.' },
			'Overwrite',
			'Keep my edits',
		);
		return answer === 'Overwrite' ? 'overwrite' : answer === 'Keep my edits' ? 'skip' : 'cancel';
	};
}
