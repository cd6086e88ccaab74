// The settings schema → docs/settings.md, the settings reference: one section per category in the
// Settings editor's order, one entry per setting with its description, values, default, bounds
// and trust. Pure: the generator writes the page, the unit tier checks the committed one.
import * as z from 'zod';
import { TRUST_NOTES, type SettingCategory, type SettingSpec } from '../../src/host/settings/settingsSchema';
import { PREFIX } from './manifest';

/** GitHub's slug of a heading: lower case; letters, digits, `_`, `-` and spaces (as hyphens) kept. */
export function slugOf(heading: string): string {
	return heading
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

/**
 * The anchor of each heading, in page order, as GitHub assigns them: a slug already taken gets
 * `-1`, `-2`, … So two settings whose names differ only in dots or case still link to their own entry.
 */
function anchorsFor(headings: readonly (readonly [key: string, text: string])[]): Map<string, string> {
	const taken = new Map<string, number>();
	const anchors = new Map<string, string>();
	for (const [key, text] of headings) {
		const slug = slugOf(text);
		const seen = taken.get(slug) ?? 0;
		taken.set(slug, seen + 1);
		anchors.set(key, seen === 0 ? slug : `${slug}-${seen}`);
	}
	return anchors;
}

/** Keys of the anchor map: a setting's id, or a category's title behind this mark (a title may look like anything). */
const CATEGORY = '\u0000';

/**
 * A description as the page shows it: `` `#keel.x#` `` (a link in VS Code's Settings editor) becomes
 * a link to that setting's entry; a link to a setting that does not exist is an error, not a dead link.
 */
export function pageMarkdown(doc: string, anchors: ReadonlyMap<string, string>): string {
	return doc.replace(/`#([^#`\s]+)#`/g, (_, id: string) => {
		if (!id.startsWith(PREFIX)) return `\`${id}\``;
		const anchor = anchors.get(id);
		if (anchor === undefined) throw new Error(`a description links to ${id}, which is not a setting`);
		return `[\`${id}\`](#${anchor})`;
	});
}

/** A Markdown code span that holds any text: its fence is longer than any run of backticks inside. */
export function codeSpan(text: string): string {
	const fence = '`'.repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map(run => run[0].length)) + 1);
	const pad = text.startsWith('`') || text.endsWith('`') || /^ .* $/.test(text) ? ' ' : '';
	return `${fence}${pad}${text}${pad}${fence}`;
}

function kindOf(spec: SettingSpec): string {
	const json = z.toJSONSchema(spec.schema) as { type?: string; minimum?: number; maximum?: number };
	const { minimum, maximum } = json;
	const range =
		minimum !== undefined && maximum !== undefined
			? ` from ${minimum} to ${maximum}`
			: minimum !== undefined
				? `, at least ${minimum}`
				: maximum !== undefined
					? `, at most ${maximum}`
					: '';
	const words: Record<string, string> = {
		boolean: 'on or off',
		number: 'a number',
		string: spec.valueDocs ? 'one of the values above' : 'text',
		array: 'a list',
		object: 'an object',
	};
	return (words[json.type ?? ''] ?? 'any value') + range;
}

function entry(id: string, spec: SettingSpec, anchors: ReadonlyMap<string, string>): string {
	const fallback = JSON.stringify(spec.schema.parse(undefined));
	const values = (z.toJSONSchema(spec.schema) as { enum?: string[] }).enum ?? [];
	const valueLines = (spec.valueDocs ?? []).map((doc, at) => {
		const isDefault = JSON.stringify(values[at]) === fallback ? ' (default)' : '';
		return `- ${codeSpan(values[at])}${isDefault}: ${pageMarkdown(doc, anchors)}`;
	});
	const note = spec.trustNote ?? (spec.trust === 'any' ? undefined : TRUST_NOTES[spec.trust]);
	const trust = note ? ` ${note}` : '';
	return [
		`### \`${id}\``,
		pageMarkdown(spec.doc, anchors),
		...(valueLines.length > 0 ? [valueLines.join('\n')] : []),
		`Default ${codeSpan(fallback)} (${kindOf(spec)}).${trust}`,
	].join('\n\n');
}

const TITLE = 'Settings';

const INTRO = `<!-- Generated from the settings schema (src/host/settings/catalog/) by \`npm run settings:generate\`: edit the descriptions there, not here. -->

Every setting on this page is also in VS Code's Settings editor: open **Preferences: Open Settings (UI)** and
search \`@ext:keel.keel\` (or choose **Settings** on Keel in the Extensions view). The editor lists them under the
same headings, in the same order.

**Advanced** settings are tuning knobs whose defaults suit nearly everyone. VS Code hides settings tagged
advanced until you ask for them: search \`@ext:keel.keel @tag:advanced\`, type a setting's full name, or turn on
\`workbench.settings.alwaysShowAdvancedSettings\`.

**Workspace Trust.** A setting marked "ignored when an untrusted workspace sets it" takes only your user
settings (or its default) until you trust the workspace, so a cloned repository cannot widen what Keel may
do or where it sends requests ([Workspace Trust](permissions.md#workspace-trust)). A setting marked "read
from your user settings only" ignores workspace values even in a trusted workspace.`;

const ADVANCED_NOTE = 'VS Code shows these when you search `@ext:keel.keel @tag:advanced`.';

export function renderReference(categories: readonly SettingCategory[]): string {
	const ids = (category: SettingCategory) => Object.keys(category.settings).map(key => PREFIX + key);
	const anchors = anchorsFor([
		[CATEGORY, TITLE],
		...categories.flatMap(category => [
			[CATEGORY + category.title, category.title] as const,
			...ids(category).map(id => [id, id] as const),
		]),
	]);
	const contents = categories.map(
		category =>
			`- [${category.title}](#${anchors.get(CATEGORY + category.title)}): ${ids(category).length} settings`,
	);
	const sections = categories.map(category =>
		[
			`## ${category.title}`,
			...(category.advanced ? [ADVANCED_NOTE] : []),
			...Object.entries(category.settings).map(([key, spec]) => entry(PREFIX + key, spec, anchors)),
		].join('\n\n'),
	);
	return [`# ${TITLE}`, INTRO, contents.join('\n'), ...sections].join('\n\n') + '\n';
}
