// The settings schema → package.json: `contributes.configuration` (one section per category, in
// order, each setting with its `order`, Markdown description, value descriptions and `advanced`
// tag) and the settings an untrusted workspace may not set. Pure: the generator writes the
// result, the unit tier compares it with what is committed.
import * as z from 'zod';
import { TRUST_NOTES, type SettingCategory, type SettingSpec } from '../../src/host/settings/settingsSchema';

export const PREFIX = 'keel.';

export interface ConfigurationSection {
	title: string;
	order: number;
	properties: Record<string, Record<string, unknown>>;
}

/** What settings.json and the Settings editor validate: the reader's type, default, enum and bounds. */
function jsonSchemaOf(spec: SettingSpec): Record<string, unknown> {
	const json = z.toJSONSchema(spec.schema) as Record<string, unknown>;
	const items = json.items as { type?: string } | undefined;
	return {
		type: json.type,
		default: json.default,
		...(json.enum ? { enum: json.enum } : {}),
		...(json.minimum === undefined ? {} : { minimum: json.minimum }),
		...(json.maximum === undefined ? {} : { maximum: json.maximum }),
		// A list's item type only; the item's shape, when the editor should know it, is in `editor`.
		...(items ? { items: { type: items.type } } : {}),
	};
}

/**
 * VS Code marks a restricted setting itself; that only the user's own value counts, or a
 * setting-specific rule (workspace deny rules still narrow), it cannot know.
 */
function trustNoteFor(spec: SettingSpec): string[] {
	if (spec.trustNote) return [spec.trustNote];
	return spec.trust === 'user' ? [TRUST_NOTES.user] : [];
}

export function entryOf(spec: SettingSpec, order: number, advanced: boolean): Record<string, unknown> {
	return {
		...jsonSchemaOf(spec),
		...spec.editor,
		...(spec.valueDocs ? { markdownEnumDescriptions: spec.valueDocs } : {}),
		...(advanced ? { tags: ['advanced'] } : {}),
		order,
		markdownDescription: [spec.doc, ...trustNoteFor(spec)].join('\n\n'),
	};
}

export function configurationOf(categories: readonly SettingCategory[]): ConfigurationSection[] {
	return categories.map((category, index) => ({
		title: category.title,
		order: index + 1,
		properties: Object.fromEntries(
			Object.entries(category.settings).map(([key, spec], at) => [
				PREFIX + key,
				entryOf(spec, at + 1, category.advanced),
			]),
		),
	}));
}

/** `capabilities.untrustedWorkspaces.restrictedConfigurations`: every `restricted` setting, in display order. */
export function restrictedOf(categories: readonly SettingCategory[]): string[] {
	return categories.flatMap(category =>
		Object.entries(category.settings)
			.filter(([, spec]) => spec.trust === 'restricted')
			.map(([key]) => PREFIX + key),
	);
}

/** The manifest with its settings replaced by the schema's; everything else stays as it was. */
export function withSettings(manifest: Record<string, any>, categories: readonly SettingCategory[]) {
	return {
		...manifest,
		contributes: { ...manifest.contributes, configuration: configurationOf(categories) },
		capabilities: {
			...manifest.capabilities,
			untrustedWorkspaces: {
				...manifest.capabilities?.untrustedWorkspaces,
				restrictedConfigurations: restrictedOf(categories),
			},
		},
	};
}
