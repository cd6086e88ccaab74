import * as assert from 'assert';
import fc from 'fast-check';
import {
	DEFAULT_ALLOW_READ,
	DEFAULT_DENY_READ,
	globMatches,
	isDeniedRead,
	isProtectedPath,
	PROTECTED_PATHS,
	someGlobMatches,
} from '../../../../../src/core/gate/paths/pathPolicy';

/** Path pieces that hit the default lists, near misses, case and Unicode variants, and separators. */
const SEGMENT = fc.constantFrom(
	'src',
	'.env',
	'.ENV',
	'.env.example',
	'.vscode',
	'.VSCode',
	'.git',
	'hooks',
	'config',
	'id_rsa.pub',
	'key.pem',
	'a.KEY',
	'mcp.json',
	'x.code-workspace',
	'.github',
	'workflows',
	'café',
	'cafe\u0301',
	'\u212Aey.pem',
	'[a]',
	'{b,c}',
	'*',
	'a b',
	'',
);
const PATH = fc.array(SEGMENT, { minLength: 0, maxLength: 5 }).map(parts => parts.join('/'));
/**
 * Globs a user writes, runnable or not: braces, classes, extglobs, a negation, a `!(…)` the
 * engine refuses, and ones that only match with the top-level name's `x/` in front.
 */
const GLOB = fc.constantFrom(
	'**/*.pem',
	'src/**',
	'**/.env',
	'*.{key,pem}',
	'**/[ab]*',
	'**/@(hooks|config)',
	'!**/src/**',
	'**/!(x)',
	'./src/*',
	'**/café/**',
	'**',
	'a\\*b',
	'**/*.KEY',
	'*/.env',
	'?/*',
);

function reference(globs: readonly string[], path: string, unrunnable: boolean): boolean {
	return globs.some(glob => globMatches(glob, path, unrunnable));
}

describe('path policy: a list of globs matched as one program', () => {
	it('says what matching glob by glob says, for generated lists and paths', () => {
		fc.assert(
			fc.property(fc.array(GLOB, { maxLength: 6 }), PATH, fc.boolean(), (globs, path, unrunnable) => {
				assert.strictEqual(someGlobMatches(globs, path, unrunnable), reference(globs, path, unrunnable));
			}),
			{ numRuns: 2000 },
		);
	});

	it('keeps the default lists: deny-read, allow-read and protected paths decide as glob by glob', () => {
		const protectedGlobs = PROTECTED_PATHS.map(p => p.glob);
		fc.assert(
			fc.property(PATH, fc.array(GLOB, { maxLength: 3 }), (path, alwaysAsk) => {
				const policy = { denyRead: DEFAULT_DENY_READ, allowRead: DEFAULT_ALLOW_READ, alwaysAsk };
				const denied = reference(DEFAULT_DENY_READ, path, true) && !reference(DEFAULT_ALLOW_READ, path, false);
				assert.strictEqual(isDeniedRead(path, policy), denied);
				const protectedHit =
					reference(protectedGlobs, path, true) ||
					reference(protectedGlobs, `${path}/x`, true) ||
					reference(alwaysAsk, path, true);
				assert.strictEqual(isProtectedPath(path, policy) !== undefined, protectedHit);
			}),
			{ numRuns: 2000 },
		);
	});

	it('names the first protected glob that matches, as before', () => {
		const policy = { denyRead: [], allowRead: [], alwaysAsk: ['docs/**'] };
		assert.match(isProtectedPath('.VSCode/tasks.json', policy)!, /\.vscode/);
		assert.match(isProtectedPath('a/.git/hooks/pre-commit', policy)!, /hooks/);
		assert.strictEqual(isProtectedPath('docs/a.md', policy), 'matches keel.permissions.alwaysAsk (docs/**)');
		assert.strictEqual(isProtectedPath('src/a.ts', policy), undefined);
	});
});
