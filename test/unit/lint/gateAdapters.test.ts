import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ESLint } from 'eslint';

// The adapters eslint.config.mjs exempts from the gate's rules: each names a file that exists
// (a stale entry would exempt whatever file later takes its name), and the real tree lints clean
// under the gate's rules, so every reach for fs, processes or the network sits in one of them.
const root = path.resolve(__dirname, '../../../..');
const GATE_RULES = [
	'@typescript-eslint/no-restricted-imports',
	'no-restricted-syntax',
	'no-restricted-globals',
	'no-restricted-properties',
];

describe('lint: the gate adapters', function () {
	this.timeout(180_000); // loading typescript-eslint is slow on a busy machine; no time is asserted

	it('every listed adapter exists, and the rules are off only there', async () => {
		const eslint = new ESLint({ cwd: root });
		const off: string[] = [];
		const files = fs
			.readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true })
			.filter(e => e.isFile() && /\.tsx?$/.test(e.name) && !e.parentPath.includes(`${path.sep}webview`))
			.map(e => path.relative(root, path.join(e.parentPath, e.name)).replace(/\\/g, '/'));
		for (const file of files) {
			const config = await eslint.calculateConfigForFile(path.join(root, file));
			const states = GATE_RULES.map(rule => config.rules?.[rule]?.[0]);
			if (states.every(s => s === 0 || s === 'off')) {
				off.push(file);
			} else {
				assert.ok(
					states.every(s => s === 2 || s === 'error'),
					`${file}: the gate's rules are only partly on (${states.join(', ')})`,
				);
			}
		}
		const listed = fs.readFileSync(path.join(root, 'eslint.config.mjs'), 'utf8');
		for (const entry of listed.matchAll(/'(src\/[^'*]+\.ts)'/g)) {
			assert.ok(
				fs.existsSync(path.join(root, entry[1])),
				`eslint.config.mjs lists ${entry[1]}, which does not exist`,
			);
		}
		assert.ok(
			off.length > 0 && off.length < 40,
			`the gate's rules are off in ${off.length} files: ${off.join(', ')}`,
		);
		assert.ok(
			off.every(f => f.startsWith('src/core/gate/') || listed.includes(`'${f}'`)),
			`off outside the list: ${off.filter(f => !listed.includes(`'${f}'`)).join(', ')}`,
		);
	});
});
