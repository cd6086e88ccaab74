import * as assert from 'assert';
import * as path from 'path';
import { sharedStorageFolder } from '../../../../src/host/session/sharedStorage';

describe('the session history is kept where every window on the workspace finds it', () => {
	const storage = path.join(path.sep, 'user', 'workspaceStorage');
	it("a second window's own storage folder (<id>-<n>) leads to the workspace's (<id>)", () => {
		for (const id of ['259d06fe', '467759d', '-16fce1d0', 'a1b2c3d4e5f60718293a4b5c6d7e8f90']) {
			for (const n of [1, 2, 9]) {
				assert.strictEqual(
					sharedStorageFolder(path.join(storage, `${id}-${n}`, 'keel.keel')),
					path.join(storage, id, 'keel.keel'),
				);
			}
		}
	});

	it("the first window's folder, the global folder and anything else are used as they are", () => {
		for (const folder of [
			path.join(storage, '259d06fe', 'keel.keel'),
			path.join(storage, '-16fce1d0', 'keel.keel'),
			path.join(path.sep, 'user', 'globalStorage', 'keel.keel'),
			path.join(storage, 'my-project-2', 'keel.keel'),
			path.join(storage, '259d06fe-x', 'keel.keel'),
		]) {
			assert.strictEqual(sharedStorageFolder(folder), undefined, folder);
		}
	});
});
