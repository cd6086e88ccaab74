import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { anchorsOf, checkFile, headingSlug, linksOf, reachablePages } from '../../support/markdownLinks';

// out/test/unit/docs → the repository root.
const ROOT = path.resolve(__dirname, '../../../..');
const DOCS = path.join(ROOT, 'docs');

function pages(): string[] {
	const docs = fs
		.readdirSync(DOCS)
		.filter(name => name.endsWith('.md'))
		.map(name => path.join(DOCS, name));
	return [...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].map(name => path.join(ROOT, name)), ...docs];
}

describe('Documentation links', () => {
	it('every relative link and anchor in README.md, CONTRIBUTING.md, CHANGELOG.md and docs/*.md resolves', () => {
		const problems = pages().flatMap(page => checkFile(page, ROOT));
		assert.deepStrictEqual(
			problems.map(p => `${p.file}: (${p.href}) ${p.problem}`),
			[],
			'fix these links, or the heading they point at',
		);
	});

	it('every page of the manual in docs/ can be found from the README', () => {
		const found = reachablePages(path.join(ROOT, 'README.md'));
		const lost = pages()
			.filter(page => page.startsWith(DOCS) && !found.has(page))
			.map(page => path.relative(ROOT, page));
		assert.deepStrictEqual(lost, [], 'link these pages from README.md or from a page it links');
	});

	describe('the checker', () => {
		let dir: string;
		beforeEach(() => {
			dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-links-'));
			fs.mkdirSync(path.join(dir, 'docs'));
			fs.writeFileSync(
				path.join(dir, 'docs', 'guide.md'),
				"# Guide\n\n## VS Code's `vscode.lm` models & tools\n\n## Setup\n\n## Setup\n\n![shot](shot.png)\n",
			);
			fs.writeFileSync(path.join(dir, 'docs', 'shot.png'), '');
		});
		afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

		const check = (markdown: string) => {
			fs.writeFileSync(path.join(dir, 'README.md'), markdown);
			return checkFile(path.join(dir, 'README.md'), dir).map(p => `${p.href}: ${p.problem}`);
		};

		it('accepts links to files, folders, images and headings as GitHub names them', () => {
			assert.deepStrictEqual(
				check(
					[
						'[guide](docs/guide.md) [folder](docs/) ![shot](docs/shot.png)',
						'[lm](docs/guide.md#vs-codes-vscodelm-models--tools) [again](docs/guide.md#setup-1)',
						'[here](#top) [web](https://example.com/missing.md)',
						'',
						'# Top',
					].join('\n'),
				),
				[],
			);
		});

		it('reports a missing file, a missing image, a missing anchor and a link out of the repository', () => {
			assert.deepStrictEqual(
				check(
					[
						'| a | b |',
						'|---|---|',
						'| [gone](docs/gone.md) | ![img](docs/nope.png) |',
						'',
						'- [anchor](docs/guide.md#setup-2) and [self](#nowhere)',
						'',
						'<a href="../outside.md">out</a>',
					].join('\n'),
				),
				[
					'docs/gone.md: docs/gone.md does not exist',
					'docs/nope.png: docs/nope.png does not exist',
					'docs/guide.md#setup-2: docs/guide.md has no heading with the anchor #setup-2',
					'#nowhere: README.md has no heading with the anchor #nowhere',
					'../outside.md: leads outside the repository',
				],
			);
		});

		it('does not read links inside code', () => {
			assert.deepStrictEqual(linksOf('```\n[x](gone.md)\n```\n\n`[y](gone.md)` and [z](here.md)\n'), ['here.md']);
		});

		it('names repeated headings -1, -2 and drops punctuation but keeps underscores and hyphens', () => {
			assert.deepStrictEqual(
				[...anchorsOf('# A\n## A\n## A\n## `read_file`, the tool\n## Recovery: when it breaks — text-mode\n')],
				['a', 'a-1', 'a-2', 'read_file-the-tool', 'recovery-when-it-breaks--text-mode'],
			);
			assert.strictEqual(headingSlug('Café & Ünïcode 2'), 'café--ünïcode-2');
		});
	});
});
