import * as assert from 'assert';
import * as fc from 'fast-check';
import { announcedAction } from '../../../../../src/core/agent/recovery/review/stepReview';

// A reply that stops where work should start, whatever its verb: first person about to act, as
// its last sentence, after any amount of text. Closings, answers and actions put off until the
// user says so are not one.
const word = fc.stringMatching(/^[a-z]{3,9}$/);
const NOT_ACTIONS = [
	...['know', 'wait', 'hear', 'leave', 'hope', 'stop', 'assume', 'suggest', 'recommend', 'not', 'never', 'need'],
	...['note', 'mention', 'say', 'explain', 'describe', 'clarify', 'reiterate', 'highlight', 'stress', 'remind'],
	...['repeat', 'answer', 'summarize', 'summarise', 'emphasize', 'emphasise'],
];
const verb = fc.oneof(
	fc.constantFrom('take a look at', 'go ahead and update', 'dig into', 'peek at', 'double-check', 'open', 'see'),
	// Any verb, except the words that close a conversation or speak about the answer itself.
	word.filter(w => !NOT_ACTIONS.includes(w)),
);
const lead = fc.constantFrom(
	'',
	'Now ',
	'Next, ',
	'Okay, ',
	'Alright, ',
	'First, ',
	'Great. Now ',
	'Now that I have the list, ',
);
const marker = fc.constantFrom(
	'let me',
	"let's",
	"I'll",
	'I will',
	"I'm going to",
	'I am going to',
	'I need to',
	"I'm about to",
);
const adverb = fc.constantFrom('', 'now ', 'first ', 'quickly ', 'also ');
const object = fc.constantFrom(' the config file', ' src/app.ts', ' the failing test', ' it', '');
const end = fc.constantFrom('.', ':', '!', '', '…');
const before = fc.constantFrom(
	'',
	'I found the entry point in src/main.ts. ',
	'The build uses esbuild.\n\n',
	'x'.repeat(700) + '. ',
);

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

describe('replies that announce their next action and stop', () => {
	it('any verb after a first-person intent, as the last sentence, after any amount of text', () => {
		fc.assert(
			fc.property(before, lead, marker, adverb, verb, object, end, (b, l, m, a, v, o, e) => {
				const sentence = capitalised(`${l}${l ? m : capitalised(m)} ${a}${v}${o}${e}`);
				assert.ok(announcedAction(`${b}${sentence}`), sentence);
			}),
			{ numRuns: 400, seed: 51 },
		);
	});

	it('a heading for a step that never came ("Running the tests now:", "Checking the file…")', () => {
		fc.assert(
			fc.property(word, object, fc.constantFrom(':', '...', '…'), (w, o, e) => {
				const sentence = `${capitalised(w)}ing${o} now${e}`;
				assert.ok(announcedAction(sentence), sentence);
			}),
			{ numRuns: 100, seed: 52 },
		);
	});

	it('closings, answers, questions and actions put off until the user says so are answers', () => {
		const closing = fc.constantFrom(
			'Let me know if you need anything else.',
			"I'll be happy to help with anything else.",
			"I'll wait for your confirmation before deleting anything.",
			"I'll need more information to continue.",
			'Let me summarize: the bug was an off-by-one in the loop.',
			'Shall I run the tests?',
			'The function returns 42.',
			"I'd suggest running the tests yourself.",
			"I'll note that the tests already pass.",
			'Let me explain why the loop never ends.',
		);
		const deferred = fc
			.tuple(
				fc.constantFrom('If you want', 'Once you confirm', 'When you are ready', 'Unless you object'),
				marker,
				verb,
			)
			.map(([d, m, v]) => `${d}, ${m} ${v} the rest.`);
		fc.assert(
			fc.property(before, fc.oneof(closing, deferred), (b, last) => {
				assert.strictEqual(announcedAction(`${b}${last}`), undefined, last);
			}),
			{ numRuns: 200, seed: 53 },
		);
	});
});
