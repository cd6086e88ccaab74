// The captured command outputs under test/fixtures/filters, with the command line each came
// from and its command family; used by the rule tests and the filter bench.
import * as fs from 'fs';
import * as path from 'path';

export interface FilterFixture {
	file: string;
	command: string;
	family: string;
	synthetic: boolean;
}

const CASES: Array<[file: string, command: string, family: string]> = [
	['cargo-test.txt', 'cd /home/dev/project && cargo test 2>&1 | tail -200', 'cargo test'],
	['cargo-nextest.synthetic.txt', 'cargo nextest run', 'cargo test'],
	['cargo-clippy.txt', 'cargo clippy --workspace -- -D warnings 2>&1', 'cargo clippy'],
	['git-status.txt', 'git status', 'git'],
	['git-diff.txt', 'git diff', 'git'],
	['git-log.txt', 'git log', 'git'],
	['ls-la.txt', 'ls -la node_modules', 'ls/find/tree'],
	['find.txt', 'find . -type f', 'ls/find/tree'],
	['tree.synthetic.txt', 'tree', 'ls/find/tree'],
	['kubectl-logs.synthetic.txt', 'kubectl logs deploy/api --since=1h', 'logs'],
	['kubectl-get-pods-error.txt', 'kubectl get pods', 'kubectl'],
	['docker-build.txt', 'docker build -t app .', 'docker build'],
	['npm-install.txt', 'npm install', 'npm/yarn/pnpm install'],
	['npm-install-deprecations.synthetic.txt', 'npm install', 'npm/yarn/pnpm install'],
	['yarn-install.synthetic.txt', 'yarn install', 'npm/yarn/pnpm install'],
	['pnpm-install.synthetic.txt', 'pnpm install', 'npm/yarn/pnpm install'],
	['pip-install.txt', 'pip install requests rich', 'pip install'],
	['make.txt', 'make', 'make'],
	['pytest.txt', 'python -m pytest -v tests', 'pytest'],
	['go-test.synthetic.txt', 'go test -v ./...', 'go test'],
	['terraform-init.txt', 'terraform init', 'terraform'],
	['terraform-plan.txt', 'terraform plan', 'terraform'],
	['brew-install.synthetic.txt', 'brew install ripgrep', 'brew'],
	['tsc.txt', 'npx tsc -p .', 'tsc'],
	['tsc-pretty.txt', 'npx tsc -p . --pretty', 'tsc'],
	['eslint.synthetic.txt', 'npx eslint src', 'eslint'],
	['jest.synthetic.txt', 'npx jest', 'jest/vitest/mocha'],
	['vitest.synthetic.txt', 'npx vitest run', 'jest/vitest/mocha'],
	['mocha.txt', 'npx mocha test', 'jest/vitest/mocha'],
];

/** Works from src (ts-node) and from out/ (compiled): the fixtures are never copied. */
export function fixturesDir(): string {
	let dir = __dirname;
	while (!fs.existsSync(path.join(dir, 'test', 'fixtures', 'filters')) && path.dirname(dir) !== dir) {
		dir = path.dirname(dir);
	}
	return path.join(dir, 'test', 'fixtures', 'filters');
}

export function filterFixtures(): FilterFixture[] {
	return CASES.map(([file, command, family]) => ({ file, command, family, synthetic: file.includes('.synthetic.') }));
}

export function readFixture(file: string): string {
	return fs.readFileSync(path.join(fixturesDir(), file), 'utf8');
}
