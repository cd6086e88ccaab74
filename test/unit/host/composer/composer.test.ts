import * as assert from 'assert';
import type { TurnOutcome } from '../../../../src/core/agent/loop/runAgent';
import { ImagesRefused, type ImagePart } from '../../../../src/core/llm/imageParts';
import type { Attachment } from '../../../../src/core/mentions/mentions';
import { BUILT_IN_COMMANDS, expandPrompt } from '../../../../src/core/prompts/slashCommands';
import { BUILT_IN_NAMES } from '../../../../src/host/composer/builtInCommands';
import { Composer, type ComposerDeps } from '../../../../src/host/composer/composer';
import { InMemoryWorkspace } from '../../../fakes/inMemoryWorkspace';
import { Gate } from '../../../../src/core/gate/gate';
import { defaultPathPolicy } from '../../../../src/core/gate/paths/pathPolicy';

const PROMPT_FILES: Record<string, string> = {
	review: 'Review $1 for bugs. Context: $ARGUMENTS',
	'explain-code': 'Explain the code below.',
};
const OUTCOME = { reason: 'completed' } as TurnOutcome;

/** Deterministic, so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
	return () => {
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

type Case =
	| { kind: 'builtIn'; name: string; args: string }
	| { kind: 'promptFile'; name: string; args: string }
	| { kind: 'unknown'; name: string }
	| { kind: 'plain' };

/** A composer text of a known kind: odd casing and spacing, arguments, mentions, paths that look like commands. */
function generate(next: () => number): { text: string; case: Case; images: boolean; badImage: boolean } {
	const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
	const casing = (name: string) => [...name].map(c => (next() < 0.3 ? c.toUpperCase() : c)).join('');
	const pad = () => pick(['', ' ', '\n', '  \t']);
	const args = pick(['', 'src/app.ts', '"two words" more', 'fix @src/a.ts now', '@secret/key please']);
	const plain = pick([
		'What does this do?',
		'/etc/hosts is read-only, why?',
		'/ not a command',
		'explain @src/a.ts and @secret/key',
		'1/2 of the tests fail',
		'@src/a.ts',
	]);
	const roll = next();
	const images = next() < 0.3;
	const badImage = images && next() < 0.3;
	if (roll < 0.35) {
		const name = pick(BUILT_IN_NAMES);
		return {
			text: `${pad()}/${casing(name)}${args ? ` ${args}` : ''}${pad()}`,
			case: { kind: 'builtIn', name, args },
			images,
			badImage,
		};
	}
	if (roll < 0.6) {
		const name = pick(Object.keys(PROMPT_FILES));
		return {
			text: `${pad()}/${casing(name)}${args ? ` ${args}` : ''}`,
			case: { kind: 'promptFile', name, args },
			images,
			badImage,
		};
	}
	if (roll < 0.75) {
		const name = `zz${Math.floor(next() * 1000)}`;
		return { text: `/${name} ${args}`, case: { kind: 'unknown', name }, images, badImage };
	}
	return { text: plain, case: { kind: 'plain' }, images, badImage };
}

/** Mentions as the fake resolves them: `@secret/…` cannot be attached, any other is. */
function attachmentsOf(text: string): Attachment[] {
	return [...text.matchAll(/@(\S+)/g)].map(([, label]) => ({
		kind: 'file',
		label,
		tokens: 1,
		content: 'x',
		...(label.startsWith('secret') ? { error: 'denied by keel.permissions.denyRead' } : {}),
	}));
}

function setup() {
	const calls: string[] = [];
	const sends: Array<{ prompt: string; images?: ImagePart[] }> = [];
	const notices: Array<{ level: string; code: string; text: string }> = [];
	const image = { name: 'shot.png', data: 'iVBORw0KGgo=' };
	const deps: ComposerDeps = {
		workspace: new InMemoryWorkspace(
			Object.fromEntries(Object.entries(PROMPT_FILES).map(([name, body]) => [`.keel/prompts/${name}.md`, body])),
		),
		gate: new Gate({ policy: () => defaultPathPolicy }),
		mentions: {
			resolve: async text => ({
				prompt: `${text}${attachmentsOf(text).length ? '\n[attached]' : ''}`,
				attachments: attachmentsOf(text),
			}),
			candidates: async () => [],
			mentionsForUris: async () => ({ values: [], refused: [] }),
		},
		checkImages: raw => {
			calls.push('checkImages');
			if (raw.some(i => i.name === 'bad.png')) {
				throw new ImagesRefused('m is not known to accept images');
			}
			return raw.map((i): ImagePart => ({ mediaType: 'image/png', data: i.data, name: i.name, bytes: 8 }));
		},
		conversation: {
			send: async (prompt, images) => {
				sends.push({ prompt, images });
				return OUTCOME;
			},
			showNotice: n => notices.push(n),
		},
		commands: {
			newChat: () => void calls.push('newChat'),
			compact: async () => (calls.push('compact'), 'Compacted.'),
			setMode: async name => (calls.push(`setMode:${name ?? ''}`), 'Mode: x.'),
			setModel: async name => (calls.push(`setModel:${name ?? ''}`), 'Model: x.'),
			draftAgentsMd: async () => (calls.push('draftAgentsMd'), OUTCOME),
		},
	};
	return { composer: new Composer(deps), calls, sends, notices, image };
}

const TARGET: Record<string, (args: string) => string> = {
	new: () => 'newChat',
	compact: () => 'compact',
	model: args => `setModel:${args}`,
	mode: args => `setMode:${args}`,
	plan: () => 'setMode:plan',
	act: () => 'setMode:act',
	init: () => 'draftAgentsMd',
};

describe('Composer (what the composer text becomes before it is a turn)', () => {
	it('handles every built-in command core lists for completion, and no other', () => {
		assert.deepStrictEqual([...BUILT_IN_NAMES].sort(), BUILT_IN_COMMANDS.map(c => c.name).sort());
		assert.deepStrictEqual(Object.keys(TARGET).sort(), [...BUILT_IN_NAMES].sort());
	});

	it('over generated texts: a command runs its target and never a turn, a prompt file or a prompt is sent once, images only with a prompt', async () => {
		const next = random(19);
		for (let i = 0; i < 400; i++) {
			const { text, case: c, images, badImage } = generate(next);
			const { composer, calls, sends, notices, image } = setup();
			const raw = images ? [badImage ? { ...image, name: 'bad.png' } : image] : undefined;
			const label = `case ${i}: ${JSON.stringify(text)} ${images ? '(+image)' : ''}`;
			const result = await composer.submit(text, raw).then(
				value => ({ value }),
				(error: Error) => ({ error }),
			);
			const targets = calls.filter(call => call !== 'checkImages');
			assert.strictEqual(
				calls.includes('checkImages'),
				images,
				`${label}: images are checked exactly when given`,
			);
			if (badImage || (images && c.kind === 'builtIn')) {
				assert.ok(
					'error' in result && result.error instanceof ImagesRefused,
					`${label}: refused for its images`,
				);
				assert.deepStrictEqual([sends, targets], [[], []], `${label}: nothing ran`);
				continue;
			}
			if (c.kind === 'builtIn') {
				assert.deepStrictEqual(targets, [TARGET[c.name](c.args)], label);
				assert.deepStrictEqual(sends, [], `${label}: a command is not a prompt`);
				assert.ok(
					'value' in result && (result.value.kind === 'command' || result.value.command === 'init'),
					label,
				);
			} else if (c.kind === 'unknown') {
				assert.ok(
					'error' in result &&
						new RegExp(`no command /${c.name}\\b.*/new.*/review`).test(result.error.message),
					label,
				);
				assert.deepStrictEqual([sends, targets], [[], []], `${label}: nothing sent`);
			} else {
				const typed = c.kind === 'promptFile' ? expandPrompt(PROMPT_FILES[c.name], c.args) : text;
				const attached = attachmentsOf(typed);
				assert.strictEqual(sends.length, 1, `${label}: sent once`);
				assert.strictEqual(sends[0].prompt, `${typed}${attached.length ? '\n[attached]' : ''}`, label);
				assert.strictEqual(
					sends[0].images?.length ?? 0,
					images ? 1 : 0,
					`${label}: the images go with the prompt`,
				);
				assert.deepStrictEqual(targets, [], label);
				assert.ok('value' in result && result.value.kind === 'prompt', label);
				assert.strictEqual(result.value.command, c.kind === 'promptFile' ? c.name : undefined, label);
				const failed = attached.filter(a => a.error);
				assert.deepStrictEqual(
					notices.map(n => n.code),
					failed.length ? ['mention'] : [],
					`${label}: a mention that could not be attached is said`,
				);
			}
		}
	});
});
