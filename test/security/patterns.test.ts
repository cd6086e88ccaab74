// User patterns in linear time: filter rules, security patterns, permission rules (paths,
// commands, URLs) and deny-read / always-ask globs come from the user or the workspace. Each
// attempt is a catastrophic-backtracking pattern (generated from the shapes that make a
// backtracking engine exponential or polynomial) run by Keel's real code on an adversarial
// input, in a real worker thread with a time limit: an attempt gets through when the worker
// has not answered when the limit is up (the extension host would be frozen). A pattern the
// engine refuses counts as stopped only when the refusal names what to change.
import * as path from 'path';
import { Worker } from 'worker_threads';
import { seeded } from './support/seeded';
import type { PatternJob, PatternSurface } from './support/patternWorker';
import { attack } from './tally';

const KLASS = 'user patterns in linear time';
/** A wait, not a verdict on speed: a linear engine answers in milliseconds, a backtracking one not in hours. */
const LIMIT_MS = 2000;
const PER_SURFACE = Number(process.env.KEEL_PATTERN_ATTEMPTS ?? 24);

class PatternRunner {
	private _worker: Worker | undefined;
	slowest = 0;

	private get _started(): Worker {
		return (this._worker ??= new Worker(path.join(__dirname, 'support/patternWorker.js')));
	}

	async run(job: PatternJob): Promise<{ ms: number; refused?: string } | 'timeout'> {
		const worker = this._started;
		return new Promise(resolve => {
			const timer = setTimeout(() => {
				worker.removeAllListeners('message');
				void worker.terminate();
				this._worker = undefined;
				resolve('timeout');
			}, LIMIT_MS);
			worker.once('message', (answer: { ms: number; refused?: string }) => {
				clearTimeout(timer);
				this.slowest = Math.max(this.slowest, answer.ms);
				resolve(answer);
			});
			worker.postMessage(job);
		});
	}

	/**
	 * Starts the worker and waits for its first answer, with no limit: starting a thread and
	 * loading Keel's code is not the pattern's time, and on a loaded machine it can take seconds.
	 */
	async warm(): Promise<void> {
		const worker = this._started;
		await new Promise(resolve => {
			worker.once('message', resolve);
			worker.postMessage({ surface: 'filter match', pattern: 'a', input: 'a' } satisfies PatternJob);
		});
	}

	async close(): Promise<void> {
		await this._worker?.terminate();
	}
}

const rnd = seeded();
const ATOMS = ['a', '\\w', '[a-z]', '.', '\\S', '(?:a|b)', '[^!#]', '[\\s\\S]'];
const TAILS = ['$', '!', 'b', '\\d', '(?=!)', '(?<=!)x'];
const REGEX_SHAPES: Array<(x: string, y: string) => string> = [
	(x, y) => `(${x}+)+${y}`,
	(x, y) => `(${x}*)*${y}`,
	(x, y) => `(${x}+)*${y}`,
	(x, y) => `(${x}|${x})+${y}`,
	(x, y) => `(${x}|${x}${x})+${y}`,
	(x, y) => `(${x}|${x}?)+${y}`,
	(x, y) => `(.*${x}){12}${y}`,
	(x, y) => `${Array(10).fill(`${x}*`).join('')}${y}`,
	(x, y) => `^(${x}+\\s?)+${y}`,
	(x, y) => `((${x}+)+)+${y}`,
	(x, y) => `(${x}+${x}+)+${y}`,
	(x, y) => `^(${x}*)\\1*${y}`,
];
const GLOB_SHAPES: Array<(c: string) => string> = [
	c =>
		`${Array(6 + rnd.int(6))
			.fill(`*${c}`)
			.join('')}*b`,
	c =>
		`**/${Array(4 + rnd.int(5))
			.fill(`${c}/**/`)
			.join('')}b`,
	c =>
		`${Array(5 + rnd.int(5))
			.fill(`?*${c}`)
			.join('')}b`,
	c =>
		`${Array(4 + rnd.int(4))
			.fill(`{${c},${c}*}`)
			.join('')}b`,
	c =>
		`${Array(4 + rnd.int(4))
			.fill(`*(${c}|${c}${c})`)
			.join('')}b`,
	c =>
		`${Array(5 + rnd.int(4))
			.fill(`${c}*[${c}b]*`)
			.join('')}z`,
	c => `src/**/${Array(6).fill(`*${c}`).join('')}*.ts`,
];

function regexAttempts(): Array<{ pattern: string; inputs: string[] }> {
	return Array.from({ length: PER_SURFACE }, () => {
		const pattern = rnd.pick(REGEX_SHAPES)(rnd.pick(ATOMS), rnd.pick(TAILS));
		const n = 24 + rnd.int(12);
		return { pattern, inputs: [`${'a'.repeat(n)}!`, `${'a'.repeat(n)}#`, 'a'.repeat(20_000)] };
	});
}

function globAttempts(): Array<{ pattern: string; inputs: string[] }> {
	return Array.from({ length: PER_SURFACE }, () => {
		const c = rnd.pick(['a', 'x', '.']);
		const pattern = rnd.pick(GLOB_SHAPES)(c);
		const n = 40 + rnd.int(40);
		return {
			pattern,
			inputs: [c.repeat(n), Array(n).fill(c).join('/'), `src/${c.repeat(n)}.js`, c.repeat(3000)],
		};
	});
}

function commandAttempts(): Array<{ pattern: string; inputs: string[] }> {
	return Array.from({ length: PER_SURFACE }, () => {
		const word = rnd.pick(['a', 'git', 'x y']);
		const stars = 6 + rnd.int(8);
		const pattern = rnd.pick([
			`${Array(stars).fill(word).join('*')}*b`,
			`git ${Array(stars).fill('*').join(' ')} push`,
			`*${Array(stars).fill(`${word}*`).join('')}z`,
		]);
		const n = 40 + rnd.int(60);
		return { pattern, inputs: [word.repeat(n), `git ${'a '.repeat(n)}`, word.repeat(5000)] };
	});
}

function urlAttempts(): Array<{ pattern: string; inputs: string[] }> {
	return Array.from({ length: PER_SURFACE }, () => {
		const stars = rnd.pick(['*', '**']);
		const k = 6 + rnd.int(8);
		const pattern = `https://${rnd.pick(['', 'x.example/'])}${Array(k).fill(`${stars}a`).join('')}${stars}b`;
		const n = 40 + rnd.int(60);
		return { pattern, inputs: [`https://x.example/${'a'.repeat(n)}`, `https://${'a'.repeat(n)}.example/a`] };
	});
}

/** A refusal stops an attempt only when it tells the user what to change. */
const NAMED = /lookahead|lookbehind|backreference|negated extglob|atomic group|possessive|too large|not a valid/;

describe(`security: ${KLASS}`, function () {
	this.timeout(0);
	const runner = new PatternRunner();
	before(() => runner.warm());
	after(async () => {
		console.log(`    slowest pattern job that answered: ${runner.slowest.toFixed(1)} ms (limit ${LIMIT_MS} ms)`);
		await runner.close();
	});
	const surfaces: Array<[PatternSurface, () => Array<{ pattern: string; inputs: string[] }>]> = [
		['filter match', regexAttempts],
		['filter strategy', regexAttempts],
		['security pattern', regexAttempts],
		['path rule', globAttempts],
		['deny-read glob', globAttempts],
		['always-ask glob', globAttempts],
		['command rule', commandAttempts],
		['url rule', urlAttempts],
	];
	for (const [surface, generate] of surfaces) {
		for (const { pattern, inputs } of generate()) {
			it(`${surface}: ${pattern}`, () =>
				attack(
					`patterns ${surface} ${pattern}`,
					async () => {
						for (const input of inputs) {
							const answer = await runner.run({ surface, pattern, input });
							if (answer === 'timeout') {
								return `held the worker for more than ${LIMIT_MS} ms on ${JSON.stringify(input.slice(0, 40))}…`;
							}
							if (answer.refused && !NAMED.test(answer.refused)) {
								return `refused without naming the construct: ${answer.refused}`;
							}
						}
						return undefined;
					},
					KLASS,
				));
		}
	}
});
