import * as assert from 'assert';
import { parseMentions, promptWithAttachments, resolveMentions } from '../../../../src/core/mentions/mentions';
import { completions, expandPrompt, parsePromptFile, parseSlash } from '../../../../src/core/prompts/slashCommands';
import { transcriptText } from '../../../../src/core/prompts/compact';
import { Gate } from '../../../../src/core/gate/gate';
import { defaultPathPolicy } from '../../../../src/core/gate/paths/pathPolicy';
import { InMemoryWorkspace } from '../../../fakes/inMemoryWorkspace';

describe('slash commands and prompt files', () => {
	it('parses commands and leaves paths and prose alone', () => {
		assert.deepStrictEqual(parseSlash('/mode  plan '), { name: 'mode', args: 'plan' });
		assert.deepStrictEqual(parseSlash('/New'), { name: 'new', args: '' });
		assert.strictEqual(parseSlash('/etc/hosts is odd'), undefined);
		assert.strictEqual(parseSlash('what does / mean'), undefined);
	});

	it('expands $ARGUMENTS and $1.. with quoted words, or appends the arguments', () => {
		assert.strictEqual(expandPrompt('Review $1 for $2.', 'a.ts "naming rules"'), 'Review a.ts for naming rules.');
		assert.strictEqual(expandPrompt('Fix: $ARGUMENTS', 'the flaky test'), 'Fix: the flaky test');
		assert.strictEqual(expandPrompt('Write tests.', 'for parser'), 'Write tests.\n\nfor parser');
	});

	it("reads a prompt file's description and offers it after the built-ins, never shadowing one", () => {
		const file = parsePromptFile('.keel/prompts/Review.md', '---\ndescription: Review a file\n---\nReview $1.\n');
		assert.deepStrictEqual([file.name, file.description, file.body], ['review', 'Review a file', 'Review $1.']);
		const shadow = parsePromptFile('.keel/prompts/new.md', '# Start over\nbody');
		assert.strictEqual(shadow.description, 'Start over');
		const list = completions('/', [file, shadow]);
		assert.deepStrictEqual(
			list.filter(c => c.name === 'new').map(c => c.source),
			['builtin'],
		);
		assert.deepStrictEqual(
			completions('/rev', [file]).map(c => c.name),
			['review'],
		);
	});

	it('flattens the transcript for /compact, keeping the newest part when it must cut', () => {
		const text = transcriptText(
			[
				{ kind: 'user', content: 'old question' },
				{ kind: 'assistant', content: 'x'.repeat(100) },
				{ kind: 'user', content: 'newest' },
			],
			60,
		);
		assert.match(text, /^\[… earlier part left out …\]/);
		assert.match(text, /User: newest$/);
	});
});

describe('mentions', () => {
	const workspace = () =>
		new InMemoryWorkspace({
			'src/a.ts': 'export const a = 1;\n',
			'src/b.ts': 'b',
			'.env': 'SECRET=1',
			'big.txt': 'y'.repeat(10_000),
		});
	const sources = (ws = workspace()) => ({
		workspace: ws,
		gate: new Gate({ policy: () => defaultPathPolicy }),
		problems: () => [
			{ path: 'src/a.ts', line: 1, column: 2, severity: 'error' as const, message: 'boom', source: 'ts' },
		],
	});
	const signal = new AbortController().signal;

	it('finds each kind once, not e-mail addresses, and trims trailing punctuation', () => {
		assert.deepStrictEqual(
			parseMentions('see @src/a.ts, @src/ and @problems; mail me@x.org @https://example.com/p. @src/a.ts'),
			[
				{ kind: 'file', value: 'src/a.ts' },
				{ kind: 'folder', value: 'src/' },
				{ kind: 'problems', value: 'problems' },
				{ kind: 'url', value: 'https://example.com/p' },
			],
		);
	});

	it('attaches files, folders and problems with token costs; refuses denied, missing and absent sources with a reason', async () => {
		const attached = await resolveMentions(
			parseMentions('@src/a.ts @src/ @problems @.env @nope.ts @selection @terminal'),
			sources(),
			1000,
			signal,
		);
		assert.deepStrictEqual(
			attached.map(a => [a.kind, a.label, a.tokens > 0, Boolean(a.error)]),
			[
				['file', 'src/a.ts', true, false],
				['folder', 'src/', true, false],
				['problems', 'Problems (1)', true, false],
				['file', '.env', false, true],
				['file', 'nope.ts', false, true],
				['selection', 'selection', false, true],
				['terminal', 'terminal', false, true],
			],
		);
		assert.match(attached[3].error!, /deny list/);
		assert.strictEqual(attached[1].content, 'a.ts\nb.ts');
		assert.strictEqual(attached[2].content, 'src/a.ts:1:2 error: boom (ts)');
		const prompt = promptWithAttachments('Look', attached);
		assert.match(prompt, /^Look\n\nAttached file src\/a\.ts \(5 tokens\):\n```\nexport const a = 1;\n\n```/);
		assert.doesNotMatch(prompt, /SECRET/);
	});

	it('shortens a large attachment to the per-mention budget and says so', async () => {
		const [big] = await resolveMentions(parseMentions('@big.txt'), sources(), 100, signal);
		assert.strictEqual(big.truncated, true);
		assert.ok(big.tokens <= 120, String(big.tokens));
		assert.match(promptWithAttachments('x', [big]), /shortened/);
	});
});
