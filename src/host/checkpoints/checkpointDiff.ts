import * as vscode from 'vscode';
import type { Checkpoints } from '../../core/checkpoints/checkpoints';
import type { TurnCheckpoint } from '../../core/checkpoints/turnCheckpoints';
import { Disposable } from '../../core/util/lifecycle';
import type { TurnDiff } from '../common/keelApi';

export const CHECKPOINT_SCHEME = 'keel-checkpoint';

/**
 * "N files changed" opened as VS Code's multi-file diff: each file as it was before the turn
 * against how the turn left it, read from the checkpoint snapshots (read-only documents).
 */
export class CheckpointDiff extends Disposable {
	constructor(private readonly _checkpoints: Checkpoints) {
		super();
		this._register(
			vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, {
				provideTextDocumentContent: async uri => {
					const commit = new URLSearchParams(uri.query).get('commit') ?? '';
					return (
						(await this._checkpoints.fileAt(commit, uri.path.replace(/^\//, '')))?.toString('utf8') ?? ''
					);
				},
			}),
		);
	}

	describe(checkpoint: TurnCheckpoint, prompt: string): TurnDiff {
		const uri = (file: string, commit: string) =>
			vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${file}`, query: `commit=${commit}` }).toString();
		return {
			title: `Keel: changes of "${prompt.split('\n')[0].slice(0, 50)}"`,
			files: (checkpoint.files ?? []).map(file => ({
				...file,
				before: uri(file.path, checkpoint.before),
				after: uri(file.path, checkpoint.after ?? checkpoint.before),
			})),
		};
	}

	async open(diff: TurnDiff): Promise<void> {
		const root = vscode.workspace.workspaceFolders?.[0]?.uri;
		if (!root || diff.files.length === 0) {
			return;
		}
		await vscode.commands.executeCommand(
			'vscode.changes',
			diff.title,
			diff.files.map(file => [
				vscode.Uri.joinPath(root, ...file.path.split('/')),
				vscode.Uri.parse(file.before),
				vscode.Uri.parse(file.after),
			]),
		);
	}
}
