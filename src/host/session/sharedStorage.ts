import * as path from 'path';

/**
 * Where a window keeps the workspace's session history: the folder VS Code gives the workspace,
 * shared by every window on it.
 *
 * VS Code gives each window's extension host a storage folder and locks it; a second window on
 * the same workspace, while the first is open, gets a folder of its own (`<id>-1`, `-2`, …).
 * A history kept there would be one the other windows never see, and once that window closed,
 * one no later window would see either: its conversations would look lost. The session store is
 * built to be shared (src/core/store/database/storeLock.ts), so it lives in the workspace's own folder,
 * `<id>`. Returns undefined when `storage` is not such a per-window folder.
 */
export function sharedStorageFolder(storage: string): string | undefined {
	const windowFolder = path.dirname(storage);
	// VS Code names the workspace's folder by a hash (hex, with a leading minus when the hash was
	// negative); a window's own folder adds `-<n>`.
	const match = /^(-?[0-9a-f]+)-\d+$/i.exec(path.basename(windowFolder));
	return match ? path.join(path.dirname(windowFolder), match[1], path.basename(storage)) : undefined;
}
