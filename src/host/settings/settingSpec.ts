import * as z from 'zod';

/**
 * Who may set a setting.
 * - `any`: every scope, as VS Code resolves it.
 * - `restricted`: an untrusted workspace may not set it (package.json restrictedConfigurations);
 *   readers then take only the user's value or the default. These widen what the agent may do
 *   or where requests and the API key go: a cloned repository must not choose them.
 * - `user`: only the user's own settings count, even in a trusted workspace (a path to load
 *   rules from, where "Always allow" writes, the user's MCP servers).
 */
export type SettingTrust = 'any' | 'restricted' | 'user';

/** What each trust means for the user, said the same way in the Settings editor and the reference page. */
export const TRUST_NOTES = {
	restricted: 'Ignored when an untrusted workspace sets it: only your user settings count.',
	user: 'Read from your user settings only, even in a trusted workspace.',
} as const;

export interface SettingSpec<S extends z.ZodType = z.ZodType> {
	/** Type and default; bounds are advisory (as in VS Code's editor) and kept in `meta`, readers clamp where needed. */
	schema: S;
	trust: SettingTrust;
	/**
	 * What the user gets, in Markdown: the Settings editor shows it and docs/settings.md prints it.
	 * `` `#keel.model.name#` `` links to another setting in both.
	 */
	doc: string;
	/** Says what trust means for this setting when the general sentence (TRUST_NOTES) would not be exact. */
	trustNote?: string;
	/** One Markdown line per enum value, in the enum's order (`choice` builds both from one record). */
	valueDocs?: readonly string[];
	/**
	 * JSON Schema that only the editor sees: the shape of list items and object values for
	 * settings.json IntelliSense, `scope`. Readers validate with `schema` (and their own validators).
	 */
	editor?: Readonly<Record<string, unknown>>;
}

/** A heading of the Settings editor: its settings show in the order they are declared here. */
export interface SettingCategory<T extends Record<string, SettingSpec> = Record<string, SettingSpec>> {
	title: string;
	/** Tuning knobs whose defaults suit nearly everyone: tagged `advanced`, so VS Code shows them on request. */
	advanced: boolean;
	settings: T;
}

export const category = <const T extends Record<string, SettingSpec>>(
	title: string,
	settings: T,
	options: { advanced?: boolean } = {},
): SettingCategory<T> => ({ title, advanced: options.advanced ?? false, settings });

interface SettingOptions {
	trust?: SettingTrust;
	trustNote?: string;
	editor?: Readonly<Record<string, unknown>>;
}

export const setting = <S extends z.ZodType>(schema: S, doc: string, options: SettingOptions = {}): SettingSpec<S> => ({
	schema,
	doc,
	trust: options.trust ?? 'any',
	...(options.trustNote ? { trustNote: options.trustNote } : {}),
	...(options.editor ? { editor: options.editor } : {}),
});

/**
 * An enum setting from one record of value → Markdown, in the order the editor lists them:
 * a value cannot be added without saying what it does.
 */
export const choice = <const V extends Record<string, string>>(
	values: V,
	fallback: keyof V & string,
	doc: string,
	options: SettingOptions = {},
) => {
	const keys = Object.keys(values) as [keyof V & string, ...(keyof V & string)[]];
	return { ...setting(z.enum(keys).default(fallback as never), doc, options), valueDocs: Object.values(values) };
};

const bounds = (minimum?: number, maximum?: number) => ({
	...(minimum === undefined ? {} : { minimum }),
	...(maximum === undefined ? {} : { maximum }),
});
export const num = (fallback: number, minimum?: number, maximum?: number) =>
	z.number().meta(bounds(minimum, maximum)).default(fallback);
export const bool = (fallback: boolean) => z.boolean().default(fallback);
export const str = (fallback: string) => z.string().default(fallback);
export const strings = () => z.array(z.string()).default([]);
export const objects = () => z.array(z.record(z.string(), z.unknown())).default([]);
export const record = <T>(fallback: Record<string, T>) => z.record(z.string(), z.unknown()).default(fallback);
