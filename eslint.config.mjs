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
];

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
		plugins: { 'import-x': importX },
		settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })] },
		rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones }] },
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
);
