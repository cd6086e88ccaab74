import * as vscode from 'vscode';
import { SETTINGS, parseSetting, settingDefault, type SettingKey, type SettingValue } from './settingsSchema';

/**
 * Reads one `keel.*` setting through its schema (settingsSchema.ts), honouring its trust:
 * a `restricted` setting in an untrusted workspace and a `user` setting everywhere count only
 * from the user's own settings (or the default) — a cloned repo must not approve its own
 * attacks (CVE-2025-53773: an agent set chat.tools.autoApprove in .vscode/settings.json).
 */
export function readSetting<K extends SettingKey>(key: K): SettingValue<K> {
	return parseSetting(key, rawValue(key));
}

/** The same, unparsed, for settings with their own validator that reports what is wrong (keel.modes). */
export function readSettingUnparsed(key: SettingKey): unknown {
	return rawValue(key) ?? settingDefault(key);
}

function rawValue(key: SettingKey): unknown {
	const config = vscode.workspace.getConfiguration('keel');
	const trust = SETTINGS[key].trust;
	if (trust === 'user' || (trust === 'restricted' && !vscode.workspace.isTrusted)) {
		return config.inspect(key)?.globalValue;
	}
	return config.get(key);
}
