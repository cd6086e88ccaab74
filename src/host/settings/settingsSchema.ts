import type * as z from 'zod';
import { ADVANCED } from './catalog/advanced';
import { APPROVALS } from './catalog/approvals';
import { CHAT } from './catalog/chat';
import { CONTEXT } from './catalog/context';
import { MCP } from './catalog/mcp';
import { MODEL } from './catalog/model';
import { RECOVERY } from './catalog/recovery';
import { SHELL } from './catalog/shell';

export { TRUST_NOTES, type SettingCategory, type SettingSpec, type SettingTrust } from './settingSpec';

/**
 * The Settings editor's headings in the order it shows them; within each, settings show in the
 * order declared. package.json's `contributes.configuration` and docs/settings.md are generated
 * from these (`npm run settings:generate`); a unit test fails when either is out of date.
 */
export const CATEGORIES = [MODEL, APPROVALS, SHELL, RECOVERY, CONTEXT, MCP, CHAT, ADVANCED] as const;

type Merged<U> = (U extends unknown ? (u: U) => void : never) extends (m: infer M) => void ? M : never;
type AllSettings = Merged<(typeof CATEGORIES)[number]['settings']>;

/**
 * Every `keel.*` setting (without the prefix): the one place its type, default, trust and description
 * are declared. A key declared in two categories is caught by the settings schema's unit test.
 */
export const SETTINGS: AllSettings = Object.assign({}, ...CATEGORIES.map(c => c.settings));

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = z.output<(typeof SETTINGS)[K]['schema']>;

/** The declared default. */
export function settingDefault<K extends SettingKey>(key: K): SettingValue<K> {
	return SETTINGS[key].schema.parse(undefined) as SettingValue<K>;
}

/**
 * A raw value as VS Code returned it → the typed value; a value of the wrong type (or outside
 * an enum) counts as unset, so a typo in settings.json means the default, not a crash later.
 */
export function parseSetting<K extends SettingKey>(key: K, raw: unknown): SettingValue<K> {
	const parsed = SETTINGS[key].schema.safeParse(raw ?? undefined);
	return (parsed.success ? parsed.data : settingDefault(key)) as SettingValue<K>;
}
