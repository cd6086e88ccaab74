// Deny-read files inside the container, attacked with every command approved: the file names
// spelled every way bash allows (quotes, globs, $'…', substitutions, links, hard links, walks,
// scripts, copies) and read by every program in the image. What holds is the mount over each
// file, not the analysis of the line. Also: files that appear or are replaced on the host
// after the container started.
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import type { DockerRunner } from '../../src/core/exec/dockerRunner';
import { defaultPathPolicy, type PathPolicy } from '../../src/core/gate/paths/pathPolicy';
import { makeWorkspace, requireDocker } from '../support/dockerEngine';
import { approvedShell, resultText, wallRunner } from './support/sandboxWall';
import { attack } from './tally';

const KLASS = 'sandbox 2: deny-read files inside the container';

/** Each secret at a path a default or a user deny-read glob covers, with its own canary. */
const SECRETS: Record<string, string> = {
	'.env': 'CANARY_ENV_ROOT',
	'config/.env.production': 'CANARY_ENV_PROD',
	'keys/server.pem': 'CANARY_PEM',
	'deep/a/b/c/id_rsa': 'CANARY_ID_RSA',
	'.aws/credentials': 'CANARY_AWS',
	'.ssh/config': 'CANARY_SSH',
	'node_modules/pkg/.npmrc': 'CANARY_NPMRC',
	'app/secret.key': 'CANARY_KEY',
	'private/notes.txt': 'CANARY_USER_GLOB',
};
const POLICY: PathPolicy = { ...defaultPathPolicy, denyRead: [...defaultPathPolicy.denyRead, 'private/**'] };

/** Spellings of a workspace-relative file name, as one bash word. */
function spellings(rel: string): string[] {
	const dir = path.posix.dirname(rel);
	const base = path.posix.basename(rel);
	const prefix = dir === '.' ? '' : `${dir}/`;
	const hex = [...base].map(c => `\\x${c.charCodeAt(0).toString(16)}`).join('');
	return [
		rel,
		`./${rel}`,
		`/workspace/${rel}`,
		`/workspace//${rel}`,
		`"${rel}"`,
		`${prefix}'${base}'`,
		`${prefix}$'${hex}'`,
		`${prefix}${base.slice(0, 2)}""${base.slice(2)}`,
		`${prefix}${base.slice(0, 1)}?${base.slice(2)}`.replace(/\?$/, '*'),
		`${prefix}${base.slice(0, 2)}*`,
		`${prefix}[${base[0]}]${base.slice(1)}`,
		`$(printf %s ${rel})`,
		`$(echo ${prefix}${base.slice(0, 2)}*)`,
		`\${HOME:0:0}${rel}`,
		`${dir === '.' ? 'x' : dir}/../${rel}`.replace(/^x\/\.\.\//, 'src/../'),
	];
}

/** Programs that print a file named by the word `F`. */
const READERS = [
	(f: string) => `cat ${f}`,
	(f: string) => `head -n 5 ${f}`,
	(f: string) => `tail ${f}`,
	(f: string) => `sed -n p ${f}`,
	(f: string) => `awk 1 ${f}`,
	(f: string) => `grep -h . ${f}`,
	(f: string) => `perl -pe1 ${f}`,
	(f: string) => `base64 ${f} | base64 -d`,
	(f: string) => `od -c ${f} | tr -d ' \\n'`,
	(f: string) => `dd if=${f} 2>/dev/null`,
	(f: string) => `while IFS= read -r l; do echo "$l"; done < ${f}`,
	(f: string) => `echo "$(<${f})"`,
	(f: string) => `cp ${f} /tmp/x && cat /tmp/x`,
	(f: string) => `ln -sf /workspace/${f.replace(/^\/workspace\//, '')} /tmp/l 2>/dev/null; cat /tmp/l ${f}`,
	(f: string) => `printf 'cat %s\\n' ${f} > /tmp/s.sh && sh /tmp/s.sh`,
	(f: string) => `sh -c 'cat "$@"' x ${f}`,
	(f: string) => `xargs cat <<< ${f}`,
	(f: string) => `tar cf - ${f} 2>/dev/null | tar xOf -`,
];

/** Reads that find the files themselves. */
const WALKS = [
	'grep -r CANARY . 2>/dev/null',
	'grep -ra CANARY /workspace 2>/dev/null',
	'find . -type f -exec cat {} + 2>/dev/null | grep -a CANARY',
	"find / -xdev -name '*.pem' -exec cat {} \\; 2>/dev/null",
	'cat $(find . -name ".env*" -o -name "*.key" -o -name "id_rsa") 2>/dev/null',
	'for f in $(find . -type f); do cat "$f"; done 2>/dev/null | grep -a CANARY',
	'tar cf - . 2>/dev/null | grep -a CANARY',
	'cat .aws/* .ssh/* private/* 2>/dev/null',
	'shopt -s globstar dotglob; cat **/* 2>/dev/null | grep -a CANARY',
	'perl -ne "print if /CANARY/" $(find . -type f) 2>/dev/null',
];

describe('security: deny-read files are masked inside the sandbox (real engine)', function () {
	this.timeout(900_000);
	let root: string;
	let runner: DockerRunner;
	const leak = (text: string) => /CANARY_[A-Z_]+/.exec(text)?.[0];

	before(requireDocker());
	before(async () => {
		root = makeWorkspace({
			...Object.fromEntries(Object.entries(SECRETS).map(([rel, canary]) => [rel, `${canary}\n`])),
			'src/index.ts': 'export {};\n',
			'.env.example': 'EXAMPLE=1\n',
		});
		// A hard link made on the host: another name for the same secret.
		fs.linkSync(path.join(root, '.env'), path.join(root, 'src/env-backup.txt'));
		runner = wallRunner(root, { policy: POLICY });
		await runner.run({ command: 'true', cwd: '', timeoutMs: 120_000, outputLimitBytes: 1000 });
	});
	after(async () => {
		await runner?.disposeAsync();
		if (root) fs.rmSync(root, { recursive: true, force: true });
	});

	const run = (command: string) => approvedShell(root, runner, { policy: POLICY }).run('run_command', { command });

	let seed = 11;
	for (const rel of Object.keys(SECRETS)) {
		const lines = fc.sample(
			fc
				.tuple(fc.constantFrom(...spellings(rel)), fc.constantFrom(...READERS))
				.map(([word, reader]) => reader(word)),
			{ numRuns: 14, seed: seed++ },
		);
		for (const line of new Set(lines)) {
			it(`cannot read ${rel}: ${line}`, () =>
				attack(
					`S2 ${rel}: ${line}`,
					async () => {
						const found = leak(resultText(await run(line)));
						return found ? `printed ${found}` : undefined;
					},
					KLASS,
				));
		}
	}
	for (const line of [...WALKS, 'cat src/env-backup.txt', 'ln src/env-backup.txt /tmp/h 2>&1; cat /tmp/h src/env*']) {
		it(`cannot read any of them: ${line}`, () =>
			attack(
				`S2 walk: ${line}`,
				async () => {
					const found = leak(resultText(await run(line)));
					return found ? `printed ${found}` : undefined;
				},
				KLASS,
			));
	}

	it('still reads ordinary files and allowed ones (.env.example)', async () => {
		const text = resultText(await run('cat src/index.ts .env.example'));
		if (!/export \{\}/.test(text) || !/EXAMPLE=1/.test(text)) throw new Error(text);
	});

	// Files the host creates or replaces after the container started: the next command sees them masked.
	const later: Array<[string, (file: string) => void]> = [
		['a new .env created on the host', file => fs.writeFileSync(file, 'CANARY_LATER_NEW\n')],
		[
			'a masked .env replaced by rename on the host (an editor saving atomically)',
			file => {
				fs.writeFileSync(`${file}.tmp`, 'CANARY_LATER_RENAMED\n');
				fs.renameSync(`${file}.tmp`, file);
			},
		],
	];
	for (const [name, make] of later) {
		it(`${name}: not readable by the next command`, () =>
			attack(
				`S2 later: ${name}`,
				async () => {
					const rel = name.startsWith('a new') ? 'later/.env' : '.env';
					fs.mkdirSync(path.join(root, 'later'), { recursive: true });
					make(path.join(root, rel));
					const found = leak(resultText(await run(`cat ${rel}; cat /workspace/${rel}`)));
					return found ? `printed ${found}` : undefined;
				},
				KLASS,
			));
	}
});
