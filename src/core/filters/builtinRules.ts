import type { FilterRule, Strategy } from './types';

/**
 * The built-in rules, as data: the same shape a user's or workspace's rule file uses, so a
 * rule of the same name there replaces one of these. First matching rule wins; the command
 * matched is the last of a chain, without pipes and redirections (commandMatch.ts).
 */

const TEST = {
	cargo: {
		passing: [
			'^test .+ \\.\\.\\. ok$',
			'^running \\d+ tests?$',
			'^\\s+\\d+: (?:__rustc|core|std|alloc|test|<)',
			'^\\s+at /rustc/',
		],
		summary: ['^test result: ', '^error: test failed'],
		noise: [
			'^\\s*(?:Compiling|Finished|Running|Doc-tests|Fresh|Blocking|Downloaded|Downloading|Updating|Locking)\\b',
		],
	},
	nextest: {
		passing: ['^\\s*PASS \\[', '^\\s*START\\s', '^\\s*SLOW \\['],
		summary: ['^\\s*Summary \\[', '^error: test run failed'],
		noise: ['^\\s*(?:Compiling|Finished|Starting)\\b', '^\\s*-{5,}$'],
	},
	pytest: {
		passing: ['\\bPASSED\\s*(?:\\[\\s*\\d+%\\])?$', '^\\S+\\.py [.sx]+\\s*(?:\\[\\s*\\d+%\\])?$'],
		summary: ['^=+ .*\\b(?:passed|failed|errors?|no tests ran|skipped)\\b.* in [\\d.]+s'],
		noise: [
			'^(?:platform|cachedir|rootdir|plugins|hypothesis profile|benchmark:|collecting|collected|configfile|testpaths)\\b',
			'^=+ test session starts =+$',
		],
	},
	go: {
		passing: ['^=== (?:RUN|PAUSE|CONT|NAME)\\b', '^\\s*--- PASS:', '^PASS$'],
		summary: ['^(?:ok|FAIL)\\s+\\S+\\s+(?:[\\d.]+s|\\(cached\\))', '^FAIL$'],
		noise: ['^\\?\\s+\\S+\\s+\\[no test files\\]'],
	},
	jest: {
		passing: ['^\\s*[✓√✔]\\s', '^\\s*PASS\\s'],
		summary: ['^\\s*(?:Tests|Test Suites|Test Files|Snapshots|Time|Duration):?\\s+\\d', '^Ran all test suites'],
		noise: ['^\\s*RUN\\s+v\\d', '^\\s*Start at\\s'],
	},
	mocha: { passing: ['^\\s*[✓✔√]\\s'], summary: ['^\\s*\\d+ (?:passing|failing|pending)\\b'], noise: [] as string[] },
};

function testSummaryFor(...runners: Array<keyof typeof TEST>): Strategy {
	return {
		type: 'test_summary',
		passing: runners.flatMap(r => TEST[r].passing),
		summary: runners.flatMap(r => TEST[r].summary),
		noise: runners.flatMap(r => TEST[r].noise),
	};
}

const RUST_DIAGNOSTICS: Strategy = {
	type: 'group_by_rule',
	blockStart: '^(?<severity>warning|error)(?:\\[(?<rule>E\\d+)\\])?: (?<message>.+)$',
	location: '^\\s*--> (?<place>\\S+)',
	rule: '#\\[(?:warn|deny|forbid)\\((?<lint>[\\w:]+)\\)\\]|index\\.html#(?<url>\\w+)',
	keep: [
		'^(?:warning|error): .*(?:generated \\d+ warnings?|could not compile|aborting due to|previous errors?)',
		'^\\s*Finished\\b',
	],
};

export const BUILTIN_RULES: FilterRule[] = [
	{ name: 'cargo-nextest', match: { regex: '^cargo (?:\\+\\S+ )?nextest\\b' }, strategy: testSummaryFor('nextest') },
	{ name: 'cargo-test', match: { regex: '^cargo (?:\\+\\S+ )?test\\b' }, strategy: testSummaryFor('cargo') },
	{
		name: 'cargo-clippy',
		match: { regex: '^cargo (?:\\+\\S+ )?(?:clippy|check|build)\\b' },
		strategy: RUST_DIAGNOSTICS,
	},
	{ name: 'git-status', match: { prefix: 'git status' }, strategy: { type: 'git_status' } },
	{ name: 'git-diff', match: { regex: '^git (?:diff|show)\\b' }, strategy: { type: 'git_diff', maxDiffLines: 500 } },
	{
		name: 'git-log',
		match: { prefix: 'git log' },
		strategy: [
			{ type: 'strip_noise', patterns: ['^\\s*$'] },
			{ type: 'truncate', maxLines: 150, head: 130, tail: 10 },
		],
	},
	{
		name: 'ls',
		match: { regex: '^(?:ls|ll|dir)\\b' },
		strategy: [
			{ type: 'strip_noise', patterns: ['^total \\d+$', '\\s\\.\\.?$'] },
			{ type: 'truncate', maxLines: 200, head: 150, tail: 20 },
		],
	},
	{
		name: 'find-tree',
		match: { regex: '^(?:find|tree|fd|fdfind|du)\\b' },
		strategy: { type: 'truncate', maxLines: 200, head: 150, tail: 20 },
	},
	{
		name: 'log-dedup',
		match: {
			regex: '^(?:docker (?:compose )?logs|docker-compose logs|kubectl logs|journalctl|podman logs)\\b|\\.log\\b',
		},
		strategy: [
			{ type: 'dedup' },
			{
				type: 'truncate',
				maxLines: 300,
				head: 100,
				tail: 150,
				keep: ['\\b(?:ERROR|FATAL|PANIC|Exception|Traceback)\\b'],
			},
		],
	},
	{
		name: 'docker-build',
		match: {
			regex: '^(?:docker|podman) (?:build|buildx build|image build|compose build)\\b|^docker-compose build\\b',
		},
		strategy: {
			type: 'strip_noise',
			patterns: [
				'^Step \\d+/\\d+ : ',
				'^ ---> [a-f0-9]+$',
				'^ ---> Running in [a-f0-9]+$',
				'^ ---> Using cache$',
				'^Removing intermediate container',
				'^Sending build context to Docker daemon',
				'^DEPRECATED: The legacy builder',
				'^\\s+(?:Install the buildx|BuildKit is currently disabled|https://docs\\.docker\\.com/go/buildx|environment-variable\\.$)',
				'^#\\d+ (?:DONE|CACHED|sha256:|extracting|resolve |\\[internal\\]|transferring|naming to|writing image|exporting|load)',
				'^#\\d+ \\[internal\\]',
				'^\\s*$',
			],
		},
	},
	{
		name: 'npm-install',
		match: {
			regex: '^(?:npm (?:install|i|ci|add|update|upgrade)|yarn(?: (?:install|add|upgrade))?|pnpm (?:install|i|add|update)|bun (?:install|add))(?:\\s|$)',
		},
		strategy: {
			type: 'strip_noise',
			patterns: [
				'^npm (?:warn|WARN) (?:deprecated|config|Unknown user config|old lockfile|EBADENGINE|using --force)',
				'^npm notice',
				'^\\d+ packages? (?:are|is) looking for funding',
				'^\\s*run `npm fund`',
				'^(?:Progress|Resolving|Packages|Downloading|Already up to date):? ',
				'^\\[\\d/\\d\\] ',
				'^(?:info|success Saved lockfile|success Already up-to-date)\\b',
				'^\\s*$',
			],
		},
	},
	{
		name: 'pip-install',
		match: { regex: '^(?:pip3?|uv pip|pipx) install\\b' },
		strategy: {
			type: 'strip_noise',
			patterns: [
				'^\\s*(?:Collecting|Downloading|Using cached|Obtaining|Requirement already satisfied|Looking in (?:indexes|links)|Preparing metadata|Installing build dependencies|Getting requirements|Building wheels? for|Created wheel|Stored in directory|Installing collected packages|Attempting uninstall|Found existing installation|Uninstalling|Successfully uninstalled|Processing )',
				'^WARNING: Location .* is ignored',
				'^WARNING: Retrying \\(Retry\\(total=\\d',
				'^\\s*[━╸╺]',
				'^\\s*$',
			],
		},
	},
	{
		name: 'make',
		match: { regex: '^(?:make|gmake|ninja|cmake --build)\\b' },
		strategy: [
			{ type: 'strip_noise', patterns: ['^g?make(?:\\[\\d+\\])?: (?:Entering|Leaving|Nothing to be done)'] },
			{
				type: 'truncate',
				maxLines: 80,
				head: 15,
				tail: 15,
				keep: ['\\b(?:error|Error|ERROR|undefined reference|No such file|warning:)', '\\*\\*\\*'],
			},
		],
	},
	{ name: 'pytest', match: { regex: '^(?:pytest|py\\.test|tox|nox)\\b' }, strategy: testSummaryFor('pytest') },
	{ name: 'go-test', match: { prefix: 'go test' }, strategy: testSummaryFor('go') },
	{
		name: 'terraform',
		match: { regex: '^(?:terraform|tofu) (?:plan|apply|init|destroy|refresh|validate)\\b' },
		strategy: {
			type: 'strip_noise',
			patterns: [
				'\\(known after apply\\)$',
				'Refreshing state\\.\\.\\.',
				': Reading\\.\\.\\.$',
				': Read complete after',
				'Still (?:creating|destroying|modifying|reading)\\.\\.\\.',
				'(?:Acquiring|Releasing) state lock',
				'^(?:Terraform used the selected providers|plan\\. Resource actions are indicated|You may now begin working with Terraform|any changes that are required for your|should now work\\.|If you ever set or change modules|rerun this command to reinitialize|commands will detect it and remind)',
				"^Note: You didn't use the -out option",
				'^(?:guarantee to take exactly these actions|"terraform apply" now\\.)',
				'^\\s*$',
			],
		},
	},
	{
		name: 'kubectl',
		match: { prefix: 'kubectl' },
		strategy: [{ type: 'dedup' }, { type: 'truncate', maxLines: 150, head: 100, tail: 30 }],
	},
	{
		name: 'brew',
		match: { regex: '^brew (?:install|upgrade|update|reinstall|bundle)\\b' },
		strategy: {
			type: 'strip_noise',
			patterns: [
				'^==> (?:Downloading|Fetching|Pouring|Auto-updating|Verifying)',
				'^(?:Already downloaded|Downloaded|Updated \\d+ taps?)',
				'^#+\\s+\\d+(?:\\.\\d+)?%$',
				'^\\s*$',
			],
		},
	},
	{
		name: 'tsc',
		match: { regex: '^(?:tsc|vue-tsc)\\b' },
		strategy: {
			type: 'group_by_rule',
			line: [
				'^(?<file>[^\\s(]+)\\((?<place>\\d+,\\d+)\\): (?<severity>error|warning) (?<rule>TS\\d+): (?<message>.*)$',
				'^(?<file>\\S+):(?<place>\\d+:\\d+) - (?<severity>error|warning) (?<rule>TS\\d+): (?<message>.*)$',
			],
			keep: ['^Found \\d+ errors?'],
		},
	},
	{
		name: 'eslint',
		match: { prefix: 'eslint' },
		strategy: {
			type: 'group_by_rule',
			fileHeader: '^(?<file>(?:/|[A-Za-z]:\\\\|\\./)?[^\\s:]+\\.[A-Za-z]+)$',
			line: '^\\s+(?<place>\\d+:\\d+)\\s+(?<severity>error|warning)\\s+(?<message>.+?)\\s{2,}(?<rule>[@\\w/-]+)$',
			keep: ['^✖ \\d+ problems?', 'potentially fixable'],
		},
	},
	{ name: 'jest-vitest', match: { regex: '^(?:jest|vitest)\\b' }, strategy: testSummaryFor('jest') },
	{ name: 'mocha', match: { regex: '^(?:mocha|_mocha)\\b' }, strategy: testSummaryFor('mocha') },
	// `npm test` runs whatever package.json says: every runner's patterns, the summary decides.
	{
		name: 'npm-test',
		match: { regex: '^(?:npm|yarn|pnpm|bun) (?:run )?test\\b|^(?:npm|yarn|pnpm) t$' },
		strategy: testSummaryFor('jest', 'mocha', 'pytest', 'cargo', 'go'),
	},
];
