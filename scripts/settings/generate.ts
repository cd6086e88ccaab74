// `npm run settings:generate`: writes package.json's settings (contributes.configuration and the
// settings restricted in untrusted workspaces) and docs/settings.md from the settings schema
// (src/host/settings/catalog/). `--check` writes nothing and exits 1 when either is out of date.
import * as fs from 'fs';
import * as path from 'path';
import { CATEGORIES } from '../../src/host/settings/settingsSchema';
import { withSettings } from './manifest';
import { renderReference } from './reference';

/** The repository root, whether this runs from scripts/settings (ts) or out/scripts/settings (js). */
function repoRoot(start: string): string {
	for (let dir = start; dir !== path.dirname(dir); dir = path.dirname(dir)) {
		if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
	}
	throw new Error(`no package.json above ${start}`);
}

/** Each generated file: where it goes and what it should hold now. */
export function generatedFiles(root: string): { file: string; text: string }[] {
	const manifestFile = path.join(root, 'package.json');
	const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
	return [
		{ file: manifestFile, text: JSON.stringify(withSettings(manifest, CATEGORIES), null, 2) + '\n' },
		{ file: path.join(root, 'docs', 'settings.md'), text: renderReference(CATEGORIES) },
	];
}

function main(): number {
	const root = repoRoot(__dirname);
	const check = process.argv.includes('--check');
	const stale = generatedFiles(root).filter(
		({ file, text }) => !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text,
	);
	for (const { file, text } of stale) {
		if (!check) fs.writeFileSync(file, text);
		console.log(`${check ? 'out of date' : 'wrote'}: ${path.relative(root, file)}`);
	}
	if (stale.length === 0) console.log('package.json and docs/settings.md match the settings schema');
	return check && stale.length > 0 ? 1 : 0;
}

if (require.main === module) process.exitCode = main();
