// ESLint: the recommended rules, promises that must not be left floating, and the layer rules that
// keep the engine (src/core) free of VS Code and of the views, and the chat view (src/webview) free
// of the host. `npm run lint` runs it; test/unit/lint proves the layer rules still bite.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const vscodeOnlyInHost = {
	name: 'vscode',
	message:
		'Only src/host, src/extension.ts and the extension-host tests may import vscode; pass what you need through a port in src/core/ports.ts.',
};

// Each layer of src/, the relative imports that leave it and where they may not land. A relative
// path is read against the file's depth inside its layer (one block per depth), so "../shared"
// from src/core/agent stays inside src/core while "../../shared" reaches src/shared.
const layers = [
	{
		layer: 'core',
		forbidden: '(?:shared|host|webview|extension)(?:/|\\.|$)',
		message:
			'src/core is the engine: it knows nothing of VS Code, the host or the chat view. Move the shared type into src/core, or the code into src/host.',
	},
	{
		layer: 'shared',
		forbidden: '(?:core|host|webview|extension)(?:/|\\.|$)',
		message:
			'src/shared is imported by both the host and the webview bundle, so it may import nothing from either side.',
	},
	{
		layer: 'webview',
		forbidden: '(?!shared/)', // anything outside src/webview but src/shared
		message: 'src/webview is a browser bundle: it may import only src/shared, its own files and npm packages.',
	},
];
const MAX_DEPTH = 8;

const layerRules = layers.flatMap(({ layer, forbidden, message }) =>
	Array.from({ length: MAX_DEPTH + 1 }, (_, depth) => ({
		files: [`src/${layer}/${'*/'.repeat(depth)}*.{ts,tsx,js,mjs}`],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [vscodeOnlyInHost],
					patterns: [{ regex: `^(?:\\./)?(?:\\.\\./){${depth + 1}}${forbidden}`, message }],
				},
			],
		},
	})),
);

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
	...layerRules,
);
