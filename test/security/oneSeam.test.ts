// One gate, one seam: a new surface cannot reach the disk, start a process or open a connection
// around the gate. Each attempt is a file placed (by name) where a new surface would go, reaching
// for fs, child_process, the network or VS Code's file system in one of the ways TypeScript and
// Node allow; ESLint with the project's own configuration must report it. An attempt gets
// through when the lint run reports nothing.
import * as path from 'path';
import { attack } from './tally';
import { untypedEslint } from '../support/untypedEslint';
import { isBuiltin } from 'module';

const KLASS = 'gate: one seam';
const root = path.resolve(__dirname, '../../..');

const eslint = untypedEslint();

const MODULES = [
	'fs',
	'fs/promises',
	'child_process',
	'net',
	'http',
	'https',
	'http2',
	'tls',
	'dgram',
	'dns',
	'worker_threads',
	'undici',
	'dockerode',
	'node-sqlite3-wasm',
	'@modelcontextprotocol/sdk/client/stdio.js',
	'@modelcontextprotocol/sdk/client/streamableHttp.js',
];
const FORMS: Array<(m: string) => string> = [
	m => `import * as probe from '${m}';\nexport const p = probe;\n`,
	m => `import { readFile as probe } from '${m}';\nexport const p = probe;\n`,
	m => `import probe from '${m}';\nexport const p = probe;\n`,
	m => `// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const p = require('${m}');\n`,
	m => `export const p = () => import('${m}');\n`,
	m => `export { default as p } from '${m}';\n`,
];
/** Where a new surface would be written; none of them is an adapter of the gate. */
const PLACES = [
	'src/core/agent/approval/seamProbe.ts',
	'src/core/tools/seamProbe.ts',
	'src/core/gatekeeper/seamProbe.ts',
	'src/host/composer/seamProbe.ts',
	'src/host/tools/seamProbe.ts',
];
const GLOBALS = [
	"export const p = () => fetch('https://example.com');\n",
	"export const p = () => globalThis.fetch('https://example.com');\n",
	"export const p = () => process.binding('fs');\n",
	"const name = 'f' + 's';\n// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const p = require(name);\n",
];
const VSCODE_FS = [
	"import * as vscode from 'vscode';\nexport const p = (u: vscode.Uri) => vscode.workspace.fs.readFile(u);\n",
	"import { workspace } from 'vscode';\nexport const p = () => workspace.fs;\n",
	"import * as vscode from 'vscode';\nexport const p = (u: vscode.Uri) => vscode.workspace.fs.writeFile(u, new Uint8Array());\n",
];

async function reported(file: string, code: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
	return result.messages.filter(m => m.severity === 2).map(m => `${m.ruleId}: ${m.message}`);
}

describe('security (gate): nothing reaches fs, processes or the network around the gate', function () {
	this.timeout(180_000);
	for (const place of PLACES) {
		for (const module of MODULES) {
			// Node's own modules answer to "node:" too; packages do not.
			for (const spelled of isBuiltin(module.split('/')[0]) ? [module, `node:${module}`] : [module]) {
				FORMS.forEach((form, i) =>
					it(`${place}: ${spelled} (form ${i + 1})`, () =>
						attack(
							`seam ${place} ${spelled} ${i + 1}`,
							async () => ((await reported(place, form(spelled))).length ? undefined : 'not reported'),
							KLASS,
						)),
				);
			}
		}
		GLOBALS.forEach((code, i) =>
			it(`${place}: global ${i + 1}`, () =>
				attack(
					`seam ${place} global ${i + 1}`,
					async () => ((await reported(place, code)).length ? undefined : 'not reported'),
					KLASS,
				)),
		);
		if (place.startsWith('src/host/')) {
			VSCODE_FS.forEach((code, i) =>
				it(`${place}: vscode.workspace.fs ${i + 1}`, () =>
					attack(
						`seam ${place} vscode.workspace.fs ${i + 1}`,
						async () => ((await reported(place, code)).length ? undefined : 'not reported'),
						KLASS,
					)),
			);
		}
	}
});
