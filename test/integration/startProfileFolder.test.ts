// `npm start` refuses a folder that holds its code-server profile, because VS Code disables an
// extension installed inside a folder it has not been told to trust (it compares the two
// locations). The check is keel_folder_holds in scripts/lib/setup.sh, run here in real bash on
// real trees with symbolic links, names that share a prefix ("a" and "ab") and the root folder,
// against what the file system says: both real paths, one under or equal to the other.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { REPO_ROOT } from '../support/codeServer';

const SEGMENTS = ['a', 'ab', 'b', 'a b'];

/** A tree of folders (paths of segments) and links to some of them, relative or absolute. */
const tree = fc.record({
	folders: fc.uniqueArray(fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 3 }), {
		minLength: 1,
		maxLength: 6,
		selector: parts => parts.join('/'),
	}),
	links: fc.array(fc.record({ at: fc.nat(), to: fc.nat(), absolute: fc.boolean() }), { maxLength: 4 }),
	pairs: fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 8 }),
});

describe('npm start: a folder that holds the profile (keel_folder_holds)', function () {
	// Sixty trees of real bash calls: seconds alone, more on a loaded machine.
	this.timeout(180_000);

	it('says a folder holds a path exactly when its real path is the path or one of its parents', () => {
		fc.assert(
			fc.property(tree, ({ folders, links, pairs }) => {
				const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'keel-holds-')));
				try {
					const dirs = folders.map(parts => path.join(root, ...parts));
					dirs.forEach(dir => fs.mkdirSync(dir, { recursive: true }));
					const all = [root, ...new Set(dirs.flatMap(dir => ancestors(root, dir)))];
					const nodes = [...all, '/'];
					links.forEach((link, i) => {
						const target = all[link.to % all.length];
						const at = path.join(all[link.at % all.length], `link${i}`);
						fs.symlinkSync(link.absolute ? target : path.relative(path.dirname(at), target) || '.', at);
						nodes.push(at);
					});
					const cases = pairs.map(([f, p]) => [nodes[f % nodes.length], nodes[p % nodes.length]]);
					const answers = execFileSync(
						'bash',
						[
							'-c',
							'source scripts/lib/setup.sh; while [ $# -gt 0 ]; do keel_folder_holds "$1" "$2"; echo $?; shift 2; done',
							'holds',
							...cases.flat(),
						],
						{ cwd: REPO_ROOT, encoding: 'utf8' },
					)
						.trim()
						.split('\n');
					cases.forEach(([folder, inner], i) => {
						const rel = path.relative(fs.realpathSync(folder), fs.realpathSync(inner));
						const holds = rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
						assert.strictEqual(answers[i], holds ? '0' : '1', `does ${folder} hold ${inner}?`);
					});
				} finally {
					fs.rmSync(root, { recursive: true, force: true });
				}
			}),
			{ numRuns: 60 },
		);
	});

	it('refuses to start on such a folder, and says why and what to do', () => {
		const home = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-holds-home-'));
		try {
			// The user's home holds ~/.cache/keel; nothing is built or installed before the refusal.
			let said = '';
			try {
				execFileSync('bash', ['scripts/start.sh', home], {
					cwd: REPO_ROOT,
					encoding: 'utf8',
					stdio: ['ignore', 'pipe', 'pipe'],
					// No desktop `code` on PATH here, so the code-server path is the one taken.
					env: { ...withoutCode(process.env), HOME: home, XDG_CACHE_HOME: '' },
				});
			} catch (error) {
				said = (error as { stderr: string }).stderr;
			}
			assert.match(said, /holds Keel's code-server profile .*\.cache\/keel\/code-server/);
			assert.match(said, /XDG_CACHE_HOME=\/some\/other\/folder npm start --/);
			assert.ok(
				!fs.existsSync(path.join(home, '.cache', 'keel', 'code-server', 'extensions', 'extensions.json')),
			);
		} finally {
			fs.rmSync(home, { recursive: true, force: true });
		}
	});
});

/** dir and every folder between it and root. */
function ancestors(root: string, dir: string): string[] {
	const out: string[] = [];
	for (let d = dir; d !== root; d = path.dirname(d)) out.push(d);
	return out;
}

/** The environment with a PATH on which no `code` is found: each PATH folder holding one is left out. */
function withoutCode(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
	const dirs = (env.PATH ?? '').split(path.delimiter).filter(dir => !fs.existsSync(path.join(dir, 'code')));
	return { ...env, PATH: dirs.join(path.delimiter) };
}
