// A deny glob typed in one Unicode normal form covers a name stored in the other.
import * as assert from 'assert';
import fc from 'fast-check';
import { isDeniedRead, isProtectedPath, type PathPolicy } from '../../../../../src/core/gate/paths/pathPolicy';
import { evaluatePermissions } from '../../../../../src/core/gate/rules/permissions';

const accented = fc
	.array(fc.constantFrom('a', 'é', 'ü', 'ñ', 'Å', 'ç', 'x', 'ô', '-'), { minLength: 1, maxLength: 8 })
	.map(c => c.join(''));

describe('Unicode normal forms in path globs', () => {
	it('deny-read and always-ask match a name in NFC or NFD whatever form the glob was typed in', () => {
		fc.assert(
			fc.property(
				accented,
				fc.constantFrom('NFC', 'NFD'),
				fc.constantFrom('NFC', 'NFD'),
				(name, globForm, nameForm) => {
					const policy: PathPolicy = {
						denyRead: [`**/${name}*`.normalize(globForm)],
						allowRead: [],
						alwaysAsk: [`**/${name}/**`.normalize(globForm)],
					};
					assert.ok(isDeniedRead(`dir/${name}.txt`.normalize(nameForm), policy));
					assert.ok(isProtectedPath(`${name}/x`.normalize(nameForm), policy));
				},
			),
			{ numRuns: 200, seed: 5 },
		);
	});

	it('a deny rule on a path matches the other form too', () => {
		const tool = {
			name: 'read_file',
			effect: 'read',
			subjects: (p: string) => [{ kind: 'path', values: [p] }],
		} as never;
		const verdict = evaluatePermissions(tool, 'se\u0301cret.txt', {
			rules: [{ tool: 'read_file', match: '**/s\u00e9cret*', action: 'deny' }],
			autoApprove: true,
			trusted: true,
		});
		assert.strictEqual(verdict.verdict, 'deny');
	});
});
