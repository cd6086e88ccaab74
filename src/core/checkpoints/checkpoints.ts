import type { NoticeCode } from '../agent/noticeCodes';
import type { NoticeLevel } from '../agent/events';
import { CheckpointError, type ChangedFile, type CheckpointStore, type Refused } from './checkpointStore';
import type { CheckpointIndex, RestoreRecord, TurnCheckpoint } from './turnCheckpoints';
import { shortId } from '../util/ids';

export interface CheckpointNotice {
	sessionId: string;
	turnId: string;
	level: NoticeLevel;
	code: NoticeCode;
	text: string;
}

/** Asked before a restore overwrites files the user changed since: all, keep theirs, or stop. */
export type ConfirmOverwrite = (files: string[]) => Promise<'overwrite' | 'skip' | 'cancel'>;
/** The approval gate for a restore that would write protected files (the path policy's list): true writes them. */
export type ApproveProtected = (files: Array<{ path: string; reason: string }>) => Promise<boolean>;

export interface RestoreOutcome {
	restored: ChangedFile[];
	/** Kept as the user left them (they chose "keep my edits"). */
	kept: string[];
	/** Protected files the restore left alone: writing them was not approved. */
	guarded?: string[];
	/** Files the restore could not put back safely (a link on the way, a folder in the place), with why. */
	refused?: Refused[];
	cancelled?: boolean;
	message: string;
}

export interface CheckpointsOptions {
	/** Opens the store on first use; throws with a sentence when checkpoints cannot work (no git). */
	open(): Promise<{ store: CheckpointStore; index: CheckpointIndex }>;
	notice(notice: CheckpointNotice): void;
	now?(): number;
	/**
	 * Why writing `path` needs approval (the path policy: .vscode/, .git/, .github/, .keel/ and
	 * keel.permissions.alwaysAsk), or undefined. A restore writes files like any tool does, so
	 * these pass the same gate; without it every path is written.
	 */
	protectedReason?(path: string): string | undefined;
}

/**
 * Checkpoints per turn: the workspace is snapshotted before the turn's first file tool or
 * command runs and again when the turn ends; the difference is the turn's "N files changed".
 * Restoring goes back to a turn's "before" and is itself recorded, so it can be undone.
 */
export class Checkpoints {
	private _opened: Promise<{ store: CheckpointStore; index: CheckpointIndex }> | undefined;
	private _current: { sessionId: string; turnId: string; taken?: Promise<void> } | undefined;
	private readonly _warned = new Set<string>();
	private _warmed = false;

	constructor(private readonly _options: CheckpointsOptions) {}

	private _open() {
		this._opened ??= this._options.open().then(opened => {
			// Commits the store rewrote when it purged what it must not keep: the list follows them.
			opened.index.remap(opened.store.purged);
			return opened;
		});
		return this._opened;
	}

	private _now(): number {
		return this._options.now?.() ?? Date.now();
	}

	turnStarted(sessionId: string, turnId: string): void {
		this._current = { sessionId, turnId };
	}

	/**
	 * Fills the shadow index once, in the background, while the model thinks: the first
	 * snapshot hashes every file (bench: ~0.6 s for 2,000 files), later ones only what changed
	 * (~0.1 s). A failure here is silent; the turn's own snapshot reports it if it matters.
	 */
	warm(): void {
		if (this._warmed) {
			return;
		}
		this._warmed = true;
		void this._open()
			.then(
				({ store }) => store.snapshot('warm', 'index warm-up'),
				() => undefined,
			)
			.catch(() => undefined);
	}

	/** Called before every tool that may change files; snapshots once per turn. Never throws. */
	beforeChange(): Promise<void> {
		const current = this._current;
		if (!current) {
			return Promise.resolve();
		}
		current.taken ??= this._takeBefore(current.sessionId, current.turnId);
		return current.taken;
	}

	private async _takeBefore(sessionId: string, turnId: string): Promise<void> {
		try {
			const { store, index } = await this._open();
			const snapshot = await store.snapshot(`${sessionId}/${turnId}/before`, `before ${turnId}`);
			index.upsertTurn({
				sessionId,
				turnId,
				before: snapshot.commit,
				createdAt: this._now(),
				skipped: snapshot.skipped,
			});
		} catch (error) {
			// The change still runs: refusing the user's approved edit over a missing snapshot would be worse.
			this._warn(sessionId, turnId, error);
		}
	}

	/** Snapshots the end of a turn that took a checkpoint and says what it changed. */
	async turnFinished(sessionId: string, turnId: string): Promise<TurnCheckpoint | undefined> {
		const current = this._current?.turnId === turnId ? this._current : undefined;
		this._current = undefined;
		if (!current?.taken) {
			return undefined;
		}
		await current.taken;
		try {
			const { store, index } = await this._open();
			const checkpoint = index.turn(sessionId, turnId);
			if (!checkpoint) {
				return undefined;
			}
			const after = await store.snapshot(`${sessionId}/${turnId}/after`, `after ${turnId}`);
			const files = await store.diff(checkpoint.before, after.commit);
			const done: TurnCheckpoint = { ...checkpoint, after: after.commit, files };
			index.upsertTurn(done);
			this._options.notice({
				sessionId,
				turnId,
				level: 'info',
				code: 'turnChanges',
				text: describeChanges(files, checkpoint.skipped ?? []),
			});
			return done;
		} catch (error) {
			this._warn(sessionId, turnId, error);
			return undefined;
		}
	}

	async turns(sessionId: string): Promise<TurnCheckpoint[]> {
		try {
			return (await this._open()).index.turns(sessionId);
		} catch {
			return [];
		}
	}

	/** The session's last restore that is not undone: the chat offers "Undo restore" on its turn. */
	async lastRestore(sessionId: string): Promise<{ turnId: string } | undefined> {
		try {
			return (await this._open()).index.lastRestore(sessionId);
		} catch {
			return undefined;
		}
	}

	/** A file's content in a snapshot (for the diff view); undefined when the snapshot has no such file. */
	async fileAt(commit: string, file: string): Promise<Buffer | undefined> {
		return (await this._open()).store.show(commit, file);
	}

	/** Files back to how they were before `turnId` ran (that turn and every later one undone). */
	async restore(
		sessionId: string,
		turnId: string,
		confirm: ConfirmOverwrite,
		approve?: ApproveProtected,
	): Promise<RestoreOutcome> {
		const { store, index } = await this._open();
		const target = index.turn(sessionId, turnId);
		if (!target) {
			throw new CheckpointError(
				'That turn has no checkpoint: it changed no files, or it ran before checkpoints were on.',
			);
		}
		// Keel's own changes from the target on; whatever happened between them was the user.
		const steps = [
			...index
				.turns(sessionId)
				.filter(t => t.createdAt >= target.createdAt && t.after)
				.map(t => ({ at: t.createdAt, from: t.before, to: t.after! })),
			...index
				.restores(sessionId)
				.filter(r => r.createdAt >= target.createdAt && r.result)
				.map(r => ({ at: r.createdAt, from: r.restorePoint, to: r.result! })),
		].sort((a, b) => a.at - b.at);
		return this._restoreTo(
			store,
			index,
			{ sessionId, turnId, target: target.before, keel: steps.map(step => [step.from, step.to]) },
			confirm,
			approve,
		);
	}

	/** Puts back what the last restore of this session replaced. */
	async undoRestore(
		sessionId: string,
		confirm: ConfirmOverwrite,
		approve?: ApproveProtected,
	): Promise<RestoreOutcome> {
		const { store, index } = await this._open();
		const last = index.lastRestore(sessionId);
		if (!last?.result) {
			throw new CheckpointError('There is no restore to undo in this session.');
		}
		const outcome = await this._restoreTo(
			store,
			index,
			{
				sessionId,
				turnId: last.turnId,
				target: last.restorePoint,
				keel: [[last.restorePoint, last.result]],
				undoing: last,
			},
			confirm,
			approve,
		);
		return outcome;
	}

	private async _restoreTo(
		store: CheckpointStore,
		index: CheckpointIndex,
		plan: {
			sessionId: string;
			turnId: string;
			target: string;
			keel: Array<[string, string]>;
			undoing?: RestoreRecord;
		},
		confirm?: ConfirmOverwrite,
		approve?: ApproveProtected,
	): Promise<RestoreOutcome> {
		const id = shortId('r');
		const now = await store.snapshot(`${plan.sessionId}/restore/${id}/point`, `before restore ${id}`);
		let changes = await store.diff(now.commit, plan.target);
		if (changes.length === 0) {
			return { restored: [], kept: [], message: 'Nothing to restore: the files already match that checkpoint.' };
		}
		const userEdited = await this._userEdits(store, plan.keel, now.commit);
		const conflicts = changes.map(c => c.path).filter(file => userEdited.has(file));
		let kept: string[] = [];
		if (conflicts.length > 0) {
			const answer = confirm ? await confirm(conflicts).catch(() => 'cancel' as const) : 'cancel';
			if (answer === 'cancel') {
				return { restored: [], kept: [], cancelled: true, message: 'Restore cancelled; no file was changed.' };
			}
			if (answer === 'skip') {
				kept = conflicts;
				changes = changes.filter(c => !userEdited.has(c.path));
			}
		}
		const { guarded, approved, guardedText } = await this._askProtected(changes, approve);
		changes = changes.filter(c => !guarded.includes(c.path));
		if (changes.length === 0) {
			return { restored: [], kept, guarded, message: `Nothing restored.${guardedText}` };
		}
		const refused = await store.checkout(
			plan.target,
			changes.map(c => c.path),
			approved,
		);
		changes = changes.filter(c => !refused.some(r => r.path === c.path));
		const refusedText = refused.length
			? ` Left alone, not safe to restore: ${refused.map(r => `${r.path} (${r.reason})`).join('; ')}.`
			: '';
		const result = await store.snapshot(`${plan.sessionId}/restore/${id}/result`, `after restore ${id}`);
		if (plan.undoing) {
			index.updateRestore({ ...plan.undoing, undone: true });
		} else {
			index.addRestore({
				id,
				sessionId: plan.sessionId,
				turnId: plan.turnId,
				restorePoint: now.commit,
				result: result.commit,
				files: changes.map(c => c.path),
				createdAt: this._now(),
			});
		}
		const verb = plan.undoing ? 'Undid the restore' : 'Restored';
		const keptText = kept.length ? ` Kept your edits to ${kept.join(', ')}.` : '';
		return {
			restored: changes,
			kept,
			guarded,
			refused,
			message: `${verb}: ${changes.length} file${changes.length === 1 ? '' : 's'} (${changes.map(c => c.path).join(', ')}).${keptText}${guardedText}${refusedText}`,
		};
	}

	/** Protected files pass the approval gate; without an approval they are left alone (fail closed). */
	private async _askProtected(
		changes: readonly ChangedFile[],
		approve?: ApproveProtected,
	): Promise<{ guarded: string[]; approved: Set<string>; guardedText: string }> {
		const protectedFiles = changes.flatMap(c => {
			const reason = this._options.protectedReason?.(c.path);
			return reason ? [{ path: c.path, reason }] : [];
		});
		const yes = protectedFiles.length > 0 && (approve ? await approve(protectedFiles).catch(() => false) : false);
		const guarded = yes ? [] : protectedFiles.map(f => f.path);
		return {
			guarded,
			approved: new Set(yes ? protectedFiles.map(f => f.path) : []),
			guardedText: guarded.length
				? ` Left protected files alone (not approved): ${protectedFiles.map(f => `${f.path} (${f.reason})`).join(', ')}.`
				: '',
		};
	}

	/** Files changed outside Keel's own steps: between one Keel step's end and the next one's start, and since the last. */
	private async _userEdits(store: CheckpointStore, keel: Array<[string, string]>, now: string): Promise<Set<string>> {
		const edited = new Set<string>();
		for (let i = 0; i < keel.length; i++) {
			const next = i + 1 < keel.length ? keel[i + 1][0] : now;
			for (const file of await store.diff(keel[i][1], next)) {
				edited.add(file.path);
			}
		}
		return edited;
	}

	private _warn(sessionId: string, turnId: string, error: unknown): void {
		const key = `${sessionId}`;
		if (this._warned.has(key)) {
			return;
		}
		this._warned.add(key);
		this._options.notice({
			sessionId,
			turnId,
			level: 'warning',
			code: 'checkpointFailed',
			text: `No checkpoint for this turn: ${(error as Error).message}. Its changes cannot be restored from Keel.`,
		});
	}
}

/** "2 files changed: src/a.ts, notes.md (new)". */
export function describeChanges(files: readonly ChangedFile[], skipped: readonly string[]): string {
	const label = (file: ChangedFile) =>
		`${file.path}${file.status === 'added' ? ' (new)' : file.status === 'deleted' ? ' (deleted)' : ''}`;
	const shown = files.slice(0, 8).map(label).join(', ');
	const more = files.length > 8 ? `, and ${files.length - 8} more` : '';
	const head =
		files.length === 0
			? 'No files changed'
			: `${files.length} file${files.length === 1 ? '' : 's'} changed: ${shown}${more}`;
	const left = skipped.length
		? ` (not in the checkpoint: ${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? '…' : ''})`
		: '';
	return `${head}${left}.`;
}
