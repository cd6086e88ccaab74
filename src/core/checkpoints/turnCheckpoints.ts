import * as fs from 'fs';
import type { ChangedFile } from './checkpointStore';

/** A turn that changed (or could have changed) the workspace: its snapshots before and after. */
export interface TurnCheckpoint {
	sessionId: string;
	turnId: string;
	/** The workspace before the turn's first file tool or command ran. */
	before: string;
	/** The workspace when the turn ended; missing while the turn runs. */
	after?: string;
	files?: ChangedFile[];
	createdAt: number;
	/** Files left out of the snapshot (too large, nested repositories). */
	skipped?: string[];
}

/** A restore, kept so it can be undone: `restorePoint` is the workspace just before it. */
export interface RestoreRecord {
	id: string;
	sessionId: string;
	turnId: string;
	restorePoint: string;
	/** The workspace right after the restore, to tell later user edits from the restore's own. */
	result?: string;
	files: string[];
	createdAt: number;
	undone?: boolean;
}

interface FileShape {
	version: 1;
	turns: TurnCheckpoint[];
	restores: RestoreRecord[];
}

/** The list of checkpoints beside the shadow repository: small JSON, rewritten whole. */
export class CheckpointIndex {
	private _data: FileShape;

	constructor(private readonly _file: string) {
		this._data = { version: 1, turns: [], restores: [] };
		try {
			const parsed = JSON.parse(fs.readFileSync(_file, 'utf8')) as FileShape;
			if (parsed?.version === 1 && Array.isArray(parsed.turns)) {
				this._data = { version: 1, turns: parsed.turns, restores: parsed.restores ?? [] };
			}
		} catch {
			// First use, or a damaged file: start an empty list (the snapshots stay in the repository).
		}
	}

	turns(sessionId: string): TurnCheckpoint[] {
		return this._data.turns.filter(turn => turn.sessionId === sessionId);
	}

	turn(sessionId: string, turnId: string): TurnCheckpoint | undefined {
		return this._data.turns.find(turn => turn.sessionId === sessionId && turn.turnId === turnId);
	}

	upsertTurn(checkpoint: TurnCheckpoint): void {
		const index = this._data.turns.findIndex(
			turn => turn.sessionId === checkpoint.sessionId && turn.turnId === checkpoint.turnId,
		);
		if (index >= 0) {
			this._data.turns[index] = checkpoint;
		} else {
			this._data.turns.push(checkpoint);
		}
		this._save();
	}

	addRestore(record: RestoreRecord): void {
		this._data.restores.push(record);
		this._save();
	}

	updateRestore(record: RestoreRecord): void {
		const index = this._data.restores.findIndex(r => r.id === record.id);
		if (index >= 0) {
			this._data.restores[index] = record;
			this._save();
		}
	}

	restores(sessionId: string): RestoreRecord[] {
		return this._data.restores.filter(r => r.sessionId === sessionId);
	}

	lastRestore(sessionId: string): RestoreRecord | undefined {
		return [...this._data.restores].reverse().find(r => r.sessionId === sessionId && !r.undone);
	}

	/** Follows commits the store rewrote (a purge): every checkpoint keeps pointing at its snapshot. */
	remap(commits: ReadonlyMap<string, string>): void {
		if (commits.size === 0) {
			return;
		}
		const to = (commit: string | undefined) => (commit === undefined ? undefined : (commits.get(commit) ?? commit));
		this._data.turns = this._data.turns.map(t => ({ ...t, before: to(t.before)!, after: to(t.after) }));
		this._data.restores = this._data.restores.map(r => ({
			...r,
			restorePoint: to(r.restorePoint)!,
			result: to(r.result),
		}));
		this._save();
	}

	private _save(): void {
		const temp = `${this._file}.tmp`;
		fs.writeFileSync(temp, JSON.stringify(this._data));
		fs.renameSync(temp, this._file);
	}
}
