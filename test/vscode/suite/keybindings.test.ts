// Keel's default keybindings must not take a key VS Code itself binds: a user who presses
// it expects either VS Code's action or Keel's, never a surprise. Reads VS Code's own list
// of default keybindings (the document "Preferences: Open Default Keyboard Shortcuts (JSON)"
// shows) in the running VS Code, so a new release that claims the key fails this test.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { parse } from 'jsonc-parser';

interface Binding {
	key: string;
	command: string;
	when?: string;
	mac?: string;
}

/** "ctrl+alt+k" and "alt+ctrl+k" are the same chord: modifiers sorted, per chord part. */
function normalise(key: string): string {
	return key
		.toLowerCase()
		.split(' ')
		.map(chord => chord.split('+').sort().join('+'))
		.join(' ');
}

describe('Keel keybindings', () => {
	it('are free in VS Code’s default keybindings', async () => {
		const document = await vscode.workspace.openTextDocument(
			vscode.Uri.parse('vscode://defaultsettings/keybindings.json'),
		);
		const defaults = parse(document.getText()) as Binding[];
		assert.ok(defaults.length > 500, `read only ${defaults.length} default keybindings`);
		if (process.env.KEEL_DUMP_KEYBINDINGS) {
			fs.writeFileSync(process.env.KEEL_DUMP_KEYBINDINGS, document.getText());
		}
		// The document lists installed extensions' keybindings too: only VS Code's own count.
		const taken = new Map(
			defaults.filter(b => !b.command.startsWith('keel.')).map(b => [normalise(b.key), b.command]),
		);
		const keel = (vscode.extensions.getExtension('keel.keel')!.packageJSON.contributes.keybindings ??
			[]) as Binding[];
		assert.ok(keel.length > 0, 'Keel contributes at least one keybinding');
		for (const binding of keel) {
			// The document is this platform's list, so only the key this platform uses is compared.
			const key = process.platform === 'darwin' ? (binding.mac ?? binding.key) : binding.key;
			const clash = taken.get(normalise(key));
			assert.strictEqual(clash, undefined, `${key} (${binding.command}) is VS Code's ${clash}`);
		}
	});
});
