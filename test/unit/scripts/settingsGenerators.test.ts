// The generators of package.json's settings and of docs/settings.md, on catalogs made up by
// fast-check: any categories, any mix of setting kinds, bounds, trusts and enum values, names
// that differ only in dots, case or hyphens, descriptions that link to other settings.
import * as assert from 'assert';
import fc from 'fast-check';
import { marked, type Tokens } from 'marked';
import * as z from 'zod';
import { configurationOf, restrictedOf } from '../../../scripts/settings/manifest';
import { renderReference } from '../../../scripts/settings/reference';
import {
	bool,
	category,
	choice,
	num,
	objects,
	setting,
	str,
	strings,
	TRUST_NOTES,
	type SettingCategory,
	type SettingSpec,
	type SettingTrust,
} from '../../../src/host/settings/settingSpec';
import { headingsByAnchor } from '../../support/markdownLinks';

/** A description: words, code spans and links to settings given by index into the catalog's keys. */
type Fragment = string | { link: number };
type Kind = (doc: string, trust: SettingTrust) => SettingSpec;

const fragmentArb: fc.Arbitrary<Fragment> = fc.oneof(
	fc.constantFrom('Keeps', 'the model', 'in tokens.', '(0 = off)', '`read_output`', '**Keel: Stop**', '50%'),
	fc.nat().map(link => ({ link })),
);

const kindArb: fc.Arbitrary<Kind> = fc.oneof(
	fc.boolean().map(b => (doc: string, trust: SettingTrust) => setting(bool(b), doc, { trust })),
	fc
		.tuple(fc.integer({ min: -5, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }))
		.chain(([low, up, span]) =>
			fc.constantFrom<[number, number | undefined, number | undefined]>(
				[low + up, undefined, undefined],
				[low + up, low, undefined],
				[low + up, low, low + up + span],
				[low, undefined, low + span],
			),
		)
		.map(
			([fallback, min, max]) =>
				(doc: string, trust: SettingTrust) =>
					setting(num(fallback, min, max), doc, { trust }),
		),
	fc.string({ maxLength: 8 }).map(s => (doc: string, trust: SettingTrust) => setting(str(s), doc, { trust })),
	fc.constant((doc: string, trust: SettingTrust) => setting(strings(), doc, { trust })),
	fc.constant((doc: string, trust: SettingTrust) => setting(objects(), doc, { trust })),
	fc
		.uniqueArray(fc.constantFrom('auto', 'on', 'off', 'a-b', 'x_y', 'Yes'), { minLength: 1, maxLength: 4 })
		.chain(values => fc.tuple(fc.constant(values), fc.constantFrom(...values)))
		.map(
			([values, fallback]) =>
				(doc: string, trust: SettingTrust) =>
					choice(Object.fromEntries(values.map(v => [v, `Value ${v} does this.`])), fallback, doc, { trust }),
		),
);

// Few segments, so that keys collide once dots are dropped (`a.bab` and `ab.ab` share GitHub's slug).
const keyArb = fc
	.array(fc.constantFrom('a', 'b', 'ab', 'bab', 'aB', 'x_1', 'a-b'), { minLength: 1, maxLength: 3 })
	.map(parts => parts.join('.'));

const catalogArb: fc.Arbitrary<SettingCategory[]> = fc
	.record({
		titles: fc.uniqueArray(fc.constantFrom('Model', 'Chat', 'MCP', 'Settings', 'A b', 'Keel ab'), {
			minLength: 1,
			maxLength: 4,
		}),
		settings: fc.uniqueArray(
			fc.record({
				key: keyArb,
				kind: kindArb,
				trust: fc.constantFrom<SettingTrust>('any', 'restricted', 'user'),
				doc: fc.array(fragmentArb, { minLength: 1, maxLength: 6 }),
				category: fc.nat(),
			}),
			{ minLength: 1, maxLength: 12, selector: s => s.key },
		),
		advanced: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
	})
	.map(({ titles, settings, advanced }) => {
		const keys = settings.map(s => s.key);
		const doc = (fragments: Fragment[]) =>
			fragments.map(f => (typeof f === 'string' ? f : `\`#keel.${keys[f.link % keys.length]}#\``)).join(' ');
		// Each setting goes to the category its draw names; a category may end up empty.
		return titles.map((title, at) => {
			const mine = settings.filter(s => s.category % titles.length === at);
			return category(title, Object.fromEntries(mine.map(s => [s.key, s.kind(doc(s.doc), s.trust)])), {
				advanced: advanced[at],
			});
		});
	});

/** What a Markdown renderer sees on the page: links with their text, and the code spans under each setting's heading. */
function readPage(page: string) {
	const links: { text: string; href: string }[] = [];
	const entries = new Map<string, { codes: string[] }>();
	let current: { codes: string[] } | undefined;
	void marked.walkTokens(marked.lexer(page), token => {
		if (token.type === 'heading') {
			const heading = token as Tokens.Heading;
			current = heading.depth === 3 ? { codes: [] } : undefined;
			if (current) entries.set(heading.text.replace(/^`|`$/g, ''), current);
		} else if (token.type === 'link') {
			links.push({ text: (token as Tokens.Link).text.replace(/^`|`$/g, ''), href: (token as Tokens.Link).href });
		} else if (token.type === 'codespan') {
			current?.codes.push((token as Tokens.Codespan).text);
		}
	});
	return { links, entries };
}

const entriesOf = (catalog: SettingCategory[]) =>
	catalog.flatMap(c => Object.entries(c.settings).map(([key, spec]) => ({ id: `keel.${key}`, spec, category: c })));

describe('settings generators on generated catalogs', () => {
	it('package.json: categories in order, settings in declared order, the reader’s schema, value docs, advanced tags', () => {
		fc.assert(
			fc.property(catalogArb, catalog => {
				const sections = configurationOf(catalog);
				assert.deepStrictEqual(
					[...sections].sort((a, b) => a.order - b.order).map(s => s.title),
					catalog.map(c => c.title),
				);
				sections.forEach((section, at) => {
					const declared = Object.keys(catalog[at].settings).map(key => `keel.${key}`);
					const byOrder = Object.entries(section.properties)
						// As the Settings editor sorts: by `order`, equal orders alphabetically.
						.sort(([x, a], [y, b]) => (a.order as number) - (b.order as number) || x.localeCompare(y))
						.map(([id]) => id);
					assert.deepStrictEqual(
						byOrder,
						declared,
						'VS Code sorts by `order`: that must be the declared order',
					);
				});
				const properties = Object.assign({}, ...sections.map(s => s.properties));
				for (const { id, spec, category: c } of entriesOf(catalog)) {
					const entry = properties[id];
					const json = z.toJSONSchema(spec.schema) as Record<string, unknown>;
					for (const field of ['type', 'default', 'enum', 'minimum', 'maximum'])
						assert.deepStrictEqual(entry[field], json[field], `${field} of ${id}`);
					assert.strictEqual(
						(entry.markdownEnumDescriptions as unknown[] | undefined)?.length,
						(json.enum as unknown[] | undefined)?.length,
					);
					assert.strictEqual((entry.tags as string[] | undefined)?.includes('advanced') ?? false, c.advanced);
					assert.strictEqual(
						String(entry.markdownDescription).endsWith(TRUST_NOTES.user),
						spec.trust === 'user',
					);
				}
				assert.deepStrictEqual(
					restrictedOf(catalog),
					entriesOf(catalog)
						.filter(e => e.spec.trust === 'restricted')
						.map(e => e.id),
				);
			}),
			{ numRuns: 200 },
		);
	});

	it('docs/settings.md: every link lands on the entry it names, and each entry states its default and values', () => {
		fc.assert(
			fc.property(catalogArb, catalog => {
				const page = renderReference(catalog);
				const headings = headingsByAnchor(page);
				const read = readPage(page);
				for (const { text, href } of read.links.filter(link => link.href.startsWith('#'))) {
					// A setting's link text is its id, a category's its title: each leads to that heading.
					assert.strictEqual(headings.get(href.slice(1)), text, `the link to ${text} (${href})`);
				}
				for (const { id, spec } of entriesOf(catalog)) {
					const entry = read.entries.get(id);
					assert.ok(entry, `no entry for ${id}`);
					assert.ok(entry.codes.includes(JSON.stringify(spec.schema.parse(undefined))), `${id}: default`);
					for (const value of (z.toJSONSchema(spec.schema) as { enum?: string[] }).enum ?? [])
						assert.ok(entry.codes.includes(value), `${id}: value ${value} undescribed`);
				}
			}),
			{ numRuns: 200 },
		);
	});

	it('refuses a description that links to a setting that does not exist', () => {
		const catalog = [category('Model', { 'model.name': setting(str(''), 'See `#keel.model.nmae#`.') })];
		assert.throws(() => renderReference(catalog), /keel\.model\.nmae, which is not a setting/);
	});
});
