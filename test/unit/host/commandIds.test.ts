import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { HOST_COMMANDS } from '../../../src/host/common/commandIds';
import { KEEL_API_METHODS } from '../../../src/host/common/keelApi';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../../package.json'), 'utf8')) as {
	contributes: { commands: Array<{ command: string }> };
};

describe('the activation shim registers what package.json declares', () => {
	it("every palette command is the host's or the shim's own (keel.focusChat), none twice, none missing", () => {
		const declared = manifest.contributes.commands.map(c => c.command).sort();
		const registered = [...HOST_COMMANDS, 'keel.focusChat'].sort();
		assert.deepStrictEqual(registered, declared);
		assert.strictEqual(new Set(registered).size, registered.length);
	});

	it('forwards every API method once', () => {
		assert.strictEqual(new Set(KEEL_API_METHODS).size, KEEL_API_METHODS.length);
	});
});
