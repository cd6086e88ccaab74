import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as z from 'zod';
import {
	CATEGORIES,
	SETTINGS,
	parseSetting,
	settingDefault,
	type SettingKey,
} from '../../../../src/host/settings/settingsSchema';
import { configurationOf, restrictedOf } from '../../../../scripts/settings/manifest';
import { renderReference } from '../../../../scripts/settings/reference';

// out/test/unit/host/settings → the repository root. Files are read, not imported: what VS Code and
// readers of the docs get is what is committed.
const ROOT = path.resolve(__dirname, '../../../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const REGENERATE = 'run `npm run settings:generate` and commit the result';

const sections: { title: string; properties: Record<string, Record<string, unknown>> }[] = Array.isArray(
	manifest.contributes.configuration,
)
	? manifest.contributes.configuration
	: [manifest.contributes.configuration];
const contributed: Record<string, Record<string, unknown>> = Object.assign({}, ...sections.map(s => s.properties));

/** Every object inside a JSON Schema, the schema itself included (item shapes, anyOf branches, …). */
function* schemaNodes(node: unknown): Generator<Record<string, unknown>> {
	if (Array.isArray(node)) {
		for (const child of node) yield* schemaNodes(child);
	} else if (node && typeof node === 'object') {
		yield node as Record<string, unknown>;
		for (const child of Object.values(node)) yield* schemaNodes(child);
	}
}

describe('settings schema ⇄ package.json contributes.configuration', () => {
	it('package.json holds the configuration generated from the schema', () => {
		assert.deepStrictEqual(manifest.contributes.configuration, configurationOf(CATEGORIES), REGENERATE);
	});

	it('restricts in untrusted workspaces exactly the restricted settings', () => {
		assert.deepStrictEqual(
			manifest.capabilities.untrustedWorkspaces.restrictedConfigurations,
			restrictedOf(CATEGORIES),
			REGENERATE,
		);
	});

	it('declares every setting in exactly one category', () => {
		const perCategory = CATEGORIES.flatMap(category => Object.keys(category.settings));
		assert.strictEqual(new Set(perCategory).size, perCategory.length, 'a key is declared in two categories');
		assert.deepStrictEqual([...perCategory].sort(), Object.keys(SETTINGS).sort());
	});

	it('orders the categories from choosing a model to the tuning knobs', () => {
		assert.deepStrictEqual(
			CATEGORIES.map(category => category.title),
			[
				'Model',
				'Approvals and permissions',
				'Shell and sandbox',
				'Recovery',
				'Context and tools',
				'MCP',
				'Chat',
				'Advanced',
			],
		);
		assert.deepStrictEqual(
			CATEGORIES.map(category => category.advanced),
			[false, false, false, false, false, false, false, true],
		);
	});

	for (const key of Object.keys(SETTINGS) as SettingKey[]) {
		it(`keel.${key}: package.json has the reader's type, default, enum and bounds`, () => {
			const json = z.toJSONSchema(SETTINGS[key].schema) as Record<string, unknown>;
			const entry = contributed[`keel.${key}`];
			assert.ok(entry, `package.json has no keel.${key}`);
			for (const field of ['type', 'default', 'enum', 'minimum', 'maximum'])
				assert.deepStrictEqual(entry[field], json[field], `${field} of keel.${key}`);
			assert.ok(String(entry.markdownDescription ?? '').length > 20, `keel.${key} says what it does`);
		});
	}

	it('describes every value of every enum, list items and nested objects included', () => {
		const undescribed = Object.entries(contributed).flatMap(([key, entry]) =>
			[...schemaNodes(entry)]
				.filter(node => Array.isArray(node.enum))
				.filter(node => {
					const docs = (node.markdownEnumDescriptions ?? node.enumDescriptions) as unknown[] | undefined;
					return docs?.length !== (node.enum as unknown[]).length || docs.some(doc => !doc);
				})
				.map(() => key),
		);
		assert.deepStrictEqual(undescribed, []);
	});
});

describe('settings schema ⇄ docs/settings.md', () => {
	it('docs/settings.md is the reference generated from the schema', () => {
		const committed = fs.readFileSync(path.join(ROOT, 'docs', 'settings.md'), 'utf8');
		const expected = renderReference(CATEGORIES);
		// Named by its first stale line rather than dumped whole: the page is long.
		const lines = expected.split('\n');
		const stale = committed.split('\n').findIndex((line, at) => line !== lines[at]);
		assert.ok(
			committed === expected,
			`docs/settings.md differs from the schema's reference at line ${stale < 0 ? lines.length : stale + 1}: ${REGENERATE}`,
		);
	});
});

describe('settings schema: reading a value', () => {
	it('keeps a valid value and falls back to the default for an unset, mistyped or unknown one', () => {
		assert.strictEqual(parseSetting('agent.maxSteps', 40), 40);
		assert.strictEqual(parseSetting('agent.maxSteps', undefined), 25);
		assert.strictEqual(parseSetting('agent.maxSteps', '40'), 25);
		assert.strictEqual(parseSetting('recovery.toolMode', 'text'), 'text');
		assert.strictEqual(parseSetting('recovery.toolMode', 'bogus'), 'auto');
		assert.strictEqual(parseSetting('model.baseUrl', null), settingDefault('model.baseUrl'));
	});
});
