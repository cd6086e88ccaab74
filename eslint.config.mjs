// ESLint: the recommended rules, promises that must not be left floating, and the layer rules that
// keep the engine (src/core) free of VS Code and of the views, and the chat view (src/webview) free
// of the host. `npm run lint` runs it; test/unit/lint proves the layer rules still bite.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { sizePlugin, sizeRules } from './scripts/eslint/sizeRules.mjs';

const vscodeOnlyInHost = {
	name: 'vscode',
	message:
		'Only src/host, src/extension.ts and the extension-host tests may import vscode; pass what you need through a port in src/core/ports.ts.',
};

// The floors of the engine, bottom up: the utilities (util, patterns, ports.ts, errors.ts); the shell
// analysis (shell: what a command line runs, writes, reads); the gate that judges by it (gate); the
// wires and text calls (llm); the tools (tools, with exec and filters beneath them); the agent; the
// session, stores, checkpoints and Check Model on top. A floor may import only the floors below it,
// so the rooms it may import are listed (`except`) and a new room is above it until placed.
const BOTTOM = ['./util', './patterns', './ports.ts', './errors.ts'];
const belowOnly = (room, below, message) => ({
	target: `src/core/${room}`,
	from: 'src/core',
	except: [`./${room}`, ...below, ...BOTTOM],
	message,
});
// What sits above the tools in the engine.
const aboveTools = ['agent', 'session', 'checkModel', 'checkpoints', 'store', 'mentions', 'modes', 'prompts'].map(
	room => `src/core/${room}`,
);
// The host's features and its composition root, above what they share.
const hostFeatures = [
	'chat',
	'checkModel',
	'checkpoints',
	'composer',
	'mcp',
	'models',
	'notifications',
	'projectContext',
	'session',
	'settings',
	'tools',
	'conversationRoot.ts',
	'keelHost.ts',
	'lazyFeatures.ts',
].map(part => `src/host/${part}`);

// The layers of src/ as zones: each target may not import from the folders listed. Paths are resolved
// (relative imports, any depth), so the rule reads what is imported, not how the path is spelled.
const layerZones = [
	{
		target: 'src/core',
		from: ['src/shared', 'src/host', 'src/webview', 'src/extension.ts'],
		message:
			'src/core is the engine: it knows nothing of VS Code, the host or the chat view. Move the shared type into src/core, or the code into src/host.',
	},
	{
		target: 'src/shared',
		from: ['src/core', 'src/host', 'src/webview', 'src/extension.ts'],
		message:
			'src/shared is imported by both the host and the webview bundle, so it may import nothing from either side.',
	},
	{
		target: 'src/webview',
		from: ['src/core', 'src/host', 'src/extension.ts'],
		message: 'src/webview is a browser bundle: it may import only src/shared, its own files and npm packages.',
	},
	belowOnly(
		'shell',
		[],
		'src/core/shell analyses a command line: it stands below the gate that judges by it and imports only the utilities.',
	),
	belowOnly(
		'gate',
		['./shell'],
		'src/core/gate is the bottom of the engine: its policies (paths, rules, network, redaction) import only the shell analysis and the utilities. Move what both need down into the gate, or pass it in.',
	),
	belowOnly(
		'llm',
		['./gate', './shell'],
		'src/core/llm (wires, streams, text calls) stands below the tools and the agent: it imports only the gate and the utilities.',
	),
	{
		target: 'src/core/tools',
		from: aboveTools,
		message:
			'src/core/tools stands below the agent: what a tool needs from the loop comes in through a port (LentCallPipeline in tools/lent/lentTools.ts).',
	},
	// The host's floors: what the features share (command ids, the API's types, the conversation's
	// interface, the platform's helpers) and what the chat shows sit below every feature; a feature gets
	// another's service from the composition root (keelHost.ts, conversationRoot.ts), not by importing it.
	{
		target: ['src/host/common', 'src/host/view', 'src/host/platform'],
		from: hostFeatures,
		message:
			'src/host/common, view and platform sit below the features: move the shared type down here, or have the composition root hand the service over.',
	},
];

// One gate (src/core/gate): every read, write, delete, process start and network request Keel makes
// is decided there. Only the adapters below, which carry out what it decided, may reach the disk,
// start a process or open a connection; a new surface asks the gate instead. Type-only imports
// stay allowed (they load nothing). test/security/oneSeam.test.ts proves the rules still bite.
const GATED_MODULES = [
	'^(?:node:)?(?:fs|child_process|net|http|https|http2|tls|dgram|dns|worker_threads|cluster|inspector|vm)(?:/.*)?$',
	'^(?:undici|dockerode|node-sqlite3-wasm|openai|@anthropic-ai/sdk|cross-spawn|execa|node-fetch|axios|ws)(?:/.*)?$',
	'^@modelcontextprotocol/sdk/client/(?!index)',
]
	.join('|')
	// Selectors cannot hold a "/" inside a regular expression; the escape means the same to RegExp.
	.replace(/\//g, '\\u002F');
const gateMessage =
	'Keel reaches the disk, processes and the network only through the gate (src/core/gate) and its adapters, listed in eslint.config.mjs. Ask the gate for a decision and use the adapter that carries it out.';
const gateAdapters = {
	// The gate's own hands: its restore writes, program lookup, the model clients' fetch and the address
	// guard's lookups. Its policies (paths, rules, redaction) decide only, so the rules stay on for them.
	gate: [
		'src/core/gate/restoreFiles.ts',
		'src/core/gate/programs.ts',
		'src/core/gate/network/network.ts',
		'src/core/gate/network/urls.ts',
		// git asked what a git command will print, with the repository's own programs switched off.
		'src/core/gate/gitOracle.ts',
	],
	// The Workspace port: every path it is handed was resolved and decided by the gate.
	workspace: ['src/core/tools/files/nodeWorkspace.ts', 'src/host/tools/vscodeWorkspace.ts'],
	// The network: URLs the URL guard admitted (fetch, web_scrape, URL mentions), model endpoints the gate admitted.
	network: ['src/core/llm/wires/openai/openaiChatModel.ts', 'src/core/llm/wires/anthropic/anthropicChatModel.ts'],
	// Processes: ripgrep over the workspace (results filtered by the gate), git on the shadow repository
	// (what it copies and restores is decided by the gate), MCP servers (their launch plan: the program the
	// gate resolves, the folder and envFile the consent card shows), the sandbox (Docker engine, image,
	// mounts, the walk that decides what the container may not see, who owns a leftover, the preflight's
	// marker of its own in each folder and the mount table that says which container Keel runs in, the copy of
	// what the walk lets the tools read sent to an engine that does not see the folder) and the terminal.
	processes: [
		'src/core/tools/search/ripgrep.ts',
		'src/core/checkpoints/shadowGit.ts',
		'src/core/tools/sources/mcpSdk.ts',
		'src/core/tools/sources/mcpLaunch.ts',
		'src/core/exec/dockerRunner.ts',
		'src/core/exec/sandbox/sandboxImage.ts',
		'src/core/exec/sandbox/sandboxSpec.ts',
		'src/core/exec/sandbox/sandboxScan.ts',
		'src/core/exec/sandbox/sandboxContainer.ts',
		'src/core/exec/owner.ts',
		'src/core/exec/sandbox/sandboxProcesses.ts',
		'src/core/exec/sandbox/sandboxPreflight.ts',
		'src/core/exec/sandbox/sandboxMapping.ts',
		'src/core/exec/sandbox/sandboxCopy.ts',
		'src/core/exec/sandbox/tarArchive.ts',
		'src/host/tools/terminalRunner.ts',
	],
	// Keel's own storage and files: the session database (with its lock, the lock's holder and the seal
	// beside it), the checkpoint list, the bash grammar, VS Code's rg, the sizes of its own bundles (the
	// activation shim's diagnostics, and it loads the host by a computed path), the host bundle loaded
	// with V8's code kept from an earlier start in Keel's per-user storage, Check Model's scratch
	// folder (a temporary folder it creates, never the user's) and its kept reports.
	keel: [
		'src/core/checkModel/scratch.ts',
		'src/host/checkModel/reportStore.ts',
		'src/core/store/database/sqlite.ts',
		'src/core/store/database/storeLock.ts',
		'src/core/store/database/lockHolder.ts',
		'src/core/store/database/seal.ts',
		'src/core/checkpoints/turnCheckpoints.ts',
		'src/host/session/sessionPersistence.ts',
		'src/core/shell/bashParser.ts',
		'src/host/tools/hostToolDeps.ts',
		'src/extension.ts',
		'src/host/platform/codeCache.ts',
	],
	// Files the user chose (an export, their filter file, a new mcp.json) and the editor's MCP config.
	user: ['src/host/tools/hostFiles.ts'],
};
const gateRules = {
	'@typescript-eslint/no-restricted-imports': [
		'error',
		{ patterns: [{ regex: GATED_MODULES, message: gateMessage, allowTypeImports: true }] },
	],
	'no-restricted-syntax': [
		'error',
		...[
			`CallExpression[callee.name='require'][arguments.0.value=/${GATED_MODULES}/]`,
			`ImportExpression[source.value=/${GATED_MODULES}/]`,
		].map(selector => ({ selector, message: gateMessage })),
		{
			selector: "CallExpression[callee.name='require'][arguments.0.type!='Literal']",
			message: `A module named at run time could be any of them. ${gateMessage}`,
		},
		{
			selector: "ImportExpression[source.type!='Literal']",
			message: `A module named at run time could be any of them. ${gateMessage}`,
		},
		{
			selector: "MemberExpression[object.name='process'][property.name=/^(?:binding|_linkedBinding|dlopen)$/]",
			message: gateMessage,
		},
		{ selector: "MemberExpression[property.name='fs'][object.property.name='workspace']", message: gateMessage },
		{ selector: "MemberExpression[property.name='fs'][object.name='workspace']", message: gateMessage },
		{ selector: "MemberExpression[property.name='createTerminal']", message: gateMessage },
	],
	'no-restricted-globals': [
		'error',
		...['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource'].map(name => ({ name, message: gateMessage })),
	],
	'no-restricted-properties': [
		'error',
		...['globalThis', 'window', 'self', 'global'].map(object => ({
			object,
			property: 'fetch',
			message: gateMessage,
		})),
	],
};
const gateOff = Object.fromEntries(Object.keys(gateRules).map(rule => [rule, 'off']));

export default defineConfig(
	{
		ignores: ['out/**', 'dist/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', 'test/fixtures/**'],
	},
	{
		files: ['**/*.{ts,tsx,js,mjs,cjs}'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		languageOptions: {
			ecmaVersion: 2022,
			globals: { ...globals.node },
		},
		rules: {
			'no-restricted-imports': ['error', { paths: [vscodeOnlyInHost] }],
			// A list of tools of different inputs is `ToolDefinition<any>[]`, and tests poke at wire
			// JSON: `any` is deliberate there, and strict type checking guards the rest.
			'@typescript-eslint/no-explicit-any': 'off',
			// `_` marks a value left unused on purpose; rest siblings pick what a spread leaves out.
			'@typescript-eslint/no-unused-vars': [
				'error',
				{
					argsIgnorePattern: '^_',
					varsIgnorePattern: '^_',
					caughtErrorsIgnorePattern: '^_',
					destructuredArrayIgnorePattern: '^_',
					ignoreRestSiblings: true,
				},
			],
			'@typescript-eslint/no-unused-expressions': ['error', { allowTernary: true }],
			// A `let` read by a closure before its one assignment cannot be a `const`.
			'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
		},
	},
	{
		// Type-aware rules where a lost promise would lose an error or run out of order.
		files: ['**/*.{ts,tsx}'],
		languageOptions: {
			parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
		},
		rules: {
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/no-misused-promises': 'error',
			// A type-only import says so, so the bundles never load a module for its types alone; `typeof
			// import('x')` stays allowed, as the type of a module required lazily.
			'@typescript-eslint/consistent-type-imports': [
				'error',
				{ fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
			],
		},
	},
	{
		files: ['src/webview/**'],
		languageOptions: { globals: { ...globals.browser } },
		// Small files with one concern, functions a reader can hold in mind (CONTRIBUTING.md).
		rules: {
			'max-lines': ['error', { max: 400 }],
			'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
		},
	},
	{
		// The runner extension and the scripts are CommonJS run by Node.
		files: ['**/*.js', '**/*.cjs'],
		languageOptions: { sourceType: 'commonjs' },
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{
		files: ['src/host/**', 'src/extension.ts', 'test/vscode/**'],
		rules: { 'no-restricted-imports': 'off' },
	},
	{
		files: ['src/**/*.{ts,tsx}'],
		ignores: ['src/webview/**'],
		rules: gateRules,
	},
	{
		files: Object.values(gateAdapters).flat(),
		rules: gateOff,
	},
	{
		files: ['src/**/*.{ts,tsx}'],
		plugins: { 'import-x': importX },
		settings: {
			'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
			// The modules no-cycle reads to follow imports further (by default only .js files are read).
			'import-x/extensions': ['.ts', '.tsx', '.js'],
		},
		rules: {
			'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones }],
			// No file reaches itself through its imports: a circle means two concerns that should be one
			// file, or a shared part that belongs below both. Type-only imports load nothing and are allowed.
			'import-x/no-cycle': ['error', { ignoreExternal: true }],
		},
	},
	{
		// Sizes that say how much there is to read (scripts/eslint/sizeRules.mjs), and switches over a
		// union that name every case, so a new message, event or kind is decided everywhere it is read.
		files: ['src/**/*.{ts,tsx}'],
		plugins: { 'keel-size': sizePlugin },
		rules: {
			...sizeRules,
			'@typescript-eslint/switch-exhaustiveness-check': [
				'error',
				{ considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
			],
		},
	},
	{
		// The host builds every object before it is used (the composition root, in dependency order),
		// so nothing there is "set later": a `!` would hide an object that may not exist yet.
		files: ['src/host/**/*.ts'],
		rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
	},
);
