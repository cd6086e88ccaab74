import * as assert from 'assert';
import * as fc from 'fast-check';
import {
	configEnv,
	neutralConfig,
	parseConfigListing,
	PROGRAM_KEYS,
	type ConfigEntry,
} from '../../../../src/core/gate/gitPrograms';

const DRIVERS = [
	'diff.x.textconv',
	'diff.x.command',
	'filter.f.clean',
	'filter.f.smudge',
	'filter.f.process',
	'merge.m.driver',
	'pager.log',
	'difftool.t.cmd',
	'credential.https://h.helper',
	'alias.st',
];
const KEYS = [...PROGRAM_KEYS.map(([key]) => key.toLowerCase()), 'diff.external', ...DRIVERS];

/** The value git ends with: the last of the files, then the overrides in order (the environment beats every file). */
function effective(entries: ConfigEntry[], overrides: Array<[string, string]>, key: string): string | undefined {
	const values = [
		...entries.filter(e => e.key === key).map(e => e.value ?? 'true'),
		...overrides.filter(([k]) => k === key).map(([, v]) => v),
	];
	return values.at(-1);
}

describe('gitPrograms: what git is told so the repository runs nothing', () => {
	it("parses git's -z listing with its scopes and origins", () => {
		const text = 'local\0file:.git/config\0core.fsmonitor\n./evil\0global\0file:/h/.gitconfig\0core.bare\0';
		assert.deepStrictEqual(parseConfigListing(text, '/w'), [
			{ scope: 'local', file: '/w/.git/config', key: 'core.fsmonitor', value: './evil' },
			{ scope: 'global', file: '/h/.gitconfig', key: 'core.bare', value: undefined },
		]);
	});

	it('no program value of the repository survives; the user keeps their own in a terminal', () => {
		const entry = fc.record({
			scope: fc.constantFrom('local', 'worktree', 'global', 'system'),
			key: fc.constantFrom(...KEYS),
			value: fc.constantFrom('./evil.sh', '!sh -c x', 'less', 'store', 'vim'),
		});
		fc.assert(
			fc.property(fc.array(entry, { maxLength: 12 }), fc.boolean(), (raw, keepUsers) => {
				const entries: ConfigEntry[] = raw.map(e => ({ ...e, file: `/w/.git/config` }));
				const { overrides } = neutralConfig(entries, { keepUsers, roots: ['/w'] });
				const env = configEnv(overrides);
				assert.strictEqual(env.GIT_CONFIG_COUNT, String(overrides.length));
				for (const key of new Set(entries.map(e => e.key))) {
					const repositoryValues = entries
						.filter(e => e.key === key && /local|worktree/.test(e.scope))
						.map(e => e.value);
					const userValues = entries
						.filter(e => e.key === key && /global|system/.test(e.scope))
						.map(e => e.value);
					const ends = effective(entries, overrides, key);
					if (key.startsWith('alias.') && !repositoryValues.length) continue;
					// What git ends with is never a value only the repository gave.
					if (
						ends !== undefined &&
						repositoryValues.includes(ends) &&
						!(keepUsers && userValues.includes(ends))
					) {
						assert.fail(`${key} ends as the repository's ${ends}`);
					}
				}
			}),
			{ numRuns: 400 },
		);
	});

	it('reports a file the repository includes from outside the workspace, not its own files', () => {
		const entries: ConfigEntry[] = [
			{ scope: 'local', file: '/w/.git/config', key: 'include.path', value: '/home/u/.aws/credentials' },
			{ scope: 'local', file: '/home/u/.aws/credentials', key: 'default.key', value: 'x' },
			{ scope: 'local', file: '/w/cfg/inc', key: 'core.pager', value: 'x' },
			{ scope: 'global', file: '/home/u/.gitconfig', key: 'user.name', value: 'u' },
		];
		const off = neutralConfig(entries, { keepUsers: true, roots: ['/w'], gitDirs: ['/w/.git'] });
		assert.deepStrictEqual(off.includedOutside, ['/home/u/.aws/credentials']);
		assert.ok(off.switchedOff.includes('core.pager'));
	});
});
