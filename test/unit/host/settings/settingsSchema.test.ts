import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as z from 'zod';
import { SETTINGS, parseSetting, settingDefault, type SettingKey } from '../../../../src/host/settings/settingsSchema';

// package.json is read as a file, not imported: the manifest VS Code shows is one source, the schema the other.
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../../../package.json'), 'utf8'));
const sections = Array.isArray(manifest.contributes.configuration)
	? manifest.contributes.configuration
	: [manifest.contributes.configuration];
const contributed: Record<string, Record<string, unknown>> = Object.assign(
	{},
	...sections.map((s: { properties: object }) => s.properties),
);
const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;

/** What package.json says about a setting, in the same terms as the schema's JSON Schema. */
function fromManifest(entry: Record<string, unknown>) {
	const items = entry.items as { type?: string } | undefined;
	return {
		type: entry.type,
		default: entry.default,
		enum: entry.enum,
		minimum: entry.minimum,
		maximum: entry.maximum,
		items: items?.type,
	};
}

function fromSchema(key: SettingKey) {
	const json = z.toJSONSchema(SETTINGS[key].schema) as Record<string, unknown>;
	const items = json.items as { type?: string } | undefined;
	return {
		type: json.type,
		default: json.default,
		enum: json.enum,
		minimum: json.minimum,
		maximum: json.maximum,
		items: items?.type,
	};
}

describe('settings schema ⇄ package.json contributes.configuration', () => {
	it('declares exactly the settings package.json contributes', () => {
		const declared = Object.keys(SETTINGS)
			.map(key => `keel.${key}`)
			.sort();
		assert.deepStrictEqual(declared, Object.keys(contributed).sort());
	});

	for (const key of Object.keys(SETTINGS) as SettingKey[]) {
		it(`keel.${key}: same type, default, enum and bounds`, () => {
			const entry = contributed[`keel.${key}`];
			assert.ok(entry, `package.json has no keel.${key}`);
			assert.deepStrictEqual(fromSchema(key), fromManifest(entry));
		});
	}

	it('restricts in untrusted workspaces exactly the settings package.json lists', () => {
		const declared = (Object.keys(SETTINGS) as SettingKey[])
			.filter(key => SETTINGS[key].trust === 'restricted')
			.map(key => `keel.${key}`);
		assert.deepStrictEqual(declared.sort(), [...restricted].sort());
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
