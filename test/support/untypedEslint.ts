import * as path from 'path';
import { ESLint } from 'eslint';

/** The repository's root, where eslint.config.mjs is. */
export const repoRoot = path.resolve(__dirname, '../../..');

/**
 * ESLint with the repository's config, for probe files the tests place by name in a layer: they
 * belong to no tsconfig, so the rules that need type information are off for them.
 */
export function untypedEslint(): ESLint {
	return new ESLint({
		cwd: repoRoot,
		overrideConfig: {
			files: ['**/*.ts', '**/*.tsx'],
			languageOptions: { parserOptions: { projectService: false } },
			rules: {
				'@typescript-eslint/no-floating-promises': 'off',
				'@typescript-eslint/no-misused-promises': 'off',
				'@typescript-eslint/consistent-type-imports': 'off',
				'@typescript-eslint/switch-exhaustiveness-check': 'off',
			},
		},
	});
}
