// Held-out redaction attacks: a secret the redactor knows, written so that a reader (or the
// model) still sees it but no shape matches the raw text. Colours from `grep --color`, zero-
// width and bidi characters, a carriage return, JSON `\u` escapes, URL `%xx`, HTML character
// references, a hex dump, a `\` line continuation, output wrapped at a fixed width; and in
// structured content, a secret used as a key or a password whose key is the only context.
// Every token kind of the generated corpus is tried in every encoding, cut at generated points
// (fast-check, fixed seed), and taken out through the one-shot and the streaming redactor.
import fc from 'fast-check';
import { redactDeep, redactSecrets, StreamRedactor } from '../../src/core/gate/redact/redact';
import { generatedSecrets } from './support/secretKinds';
import { attack } from './tally';

const KLASS = 'held-out: secrets a reader still sees';
const SEED = Number(process.env.KEEL_SEED ?? 20_261_126);

/** An encoding: how the token is written, given a cut point inside it. */
type Encoding = { name: string; write(token: string, cut: number): string };

const percent = (text: string) =>
	[...text].map(c => (/[A-Za-z0-9]/.test(c) && c !== 'A' ? c : `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`));

const ENCODINGS: Encoding[] = [
	{ name: 'grep colour', write: (t, c) => `${t.slice(0, c)}\x1b[01;31m\x1b[K${t.slice(c)}\x1b[m\x1b[K` },
	{ name: 'colour around a part', write: (t, c) => `\x1b[32m${t.slice(0, c)}\x1b[0m${t.slice(c)}` },
	{ name: 'zero-width space', write: (t, c) => `${t.slice(0, c)}\u200b${t.slice(c)}` },
	{ name: 'word joiner', write: (t, c) => `${t.slice(0, c)}\u2060${t.slice(c)}` },
	{ name: 'soft hyphen', write: (t, c) => `${t.slice(0, c)}\u00ad${t.slice(c)}` },
	{ name: 'bidi isolate', write: (t, c) => `${t.slice(0, c)}\u2066\u2069${t.slice(c)}` },
	{ name: 'carriage return', write: (t, c) => `${t.slice(0, c)}\r${t.slice(c)}` },
	{
		name: 'JSON \\u escapes',
		write: t => [...t].map(c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
	},
	{
		name: 'JSON \\u escape for one character',
		write: (t, c) => `${t.slice(0, c)}\\u${t.charCodeAt(c).toString(16).padStart(4, '0')}${t.slice(c + 1)}`,
	},
	{ name: 'URL %xx', write: t => percent(t).join('') },
	{ name: 'HTML character reference', write: (t, c) => `${t.slice(0, c)}&#${t.charCodeAt(c)};${t.slice(c + 1)}` },
	{
		name: 'HTML hex reference',
		write: (t, c) => `${t.slice(0, c)}&#x${t.charCodeAt(c).toString(16)};${t.slice(c + 1)}`,
	},
	{ name: 'hex dump', write: t => Buffer.from(t).toString('hex') },
	{ name: '\\ continuation', write: (t, c) => `export TOKEN="${t.slice(0, c)}\\\n${t.slice(c)}"` },
	...[64, 76, 80, 120].map(width => ({
		name: `wrapped at ${width} columns`,
		write: (t: string) =>
			`the deploy credential is ${t} keep it safe`.match(new RegExp(`.{1,${width}}`, 'gs'))!.join('\n'),
	})),
];

/** What a reader recovers from the output: the same decodings, so "not recoverable" is checked, not "not literally there". */
function recovered(text: string): string {
	return (
		text
			// eslint-disable-next-line no-control-regex
			.replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
			.replace(/[\u00ad\u200b-\u200f\u2060-\u2064\u2066-\u2069\ufeff\r]/g, '')
			.replace(/\\\n/g, '')
			.replace(/\\u([0-9a-f]{4})/gi, (_a, h: string) => String.fromCharCode(parseInt(h, 16)))
			.replace(/%([0-9a-f]{2})/gi, (_a, h: string) => String.fromCharCode(parseInt(h, 16)))
			.replace(/&#x([0-9a-f]+);/gi, (_a, h: string) => String.fromCharCode(parseInt(h, 16)))
			.replace(/&#(\d+);/g, (_a, d: string) => String.fromCharCode(Number(d)))
			.replace(/(?:[0-9a-f]{2}){16,}/gi, run => Buffer.from(run, 'hex').toString('latin1')) +
		'\n' +
		// A wrapped token is read across the line break.
		text.replace(/\n/g, '')
	);
}

const tokens = generatedSecrets().filter(s => s.token);

function streamed(text: string, cuts: number[]): string {
	const stream = new StreamRedactor();
	let from = 0;
	for (const cut of [...cuts.filter(c => c > 0 && c < text.length)].sort((a, b) => a - b)) {
		stream.push(text.slice(from, cut));
		from = cut;
	}
	return stream.push(`${text.slice(from)}\n`);
}

describe('security (held out): a secret a reader still sees is still redacted', () => {
	const plans = fc.sample(
		fc.record({
			at: fc.double({ min: 0.1, max: 0.9, noNaN: true }),
			chunks: fc.array(fc.nat(400), { maxLength: 4 }),
		}),
		{ seed: SEED, numRuns: tokens.length * ENCODINGS.length },
	);
	let n = 0;
	for (const secret of tokens) {
		for (const encoding of ENCODINGS) {
			const plan = plans[n++];
			const token = secret.token!;
			const cut = Math.max(4, Math.min(token.length - 4, Math.floor(token.length * plan.at)));
			const text = `output before\n${encoding.write(token, cut)}\noutput after`;
			it(`${secret.kind} written as ${encoding.name}`, () =>
				attack(
					`held-out ${secret.kind} as ${encoding.name}`,
					() => {
						for (const [way, out] of [
							['redactSecrets', redactSecrets(text).text],
							['the live stream', streamed(text, plan.chunks)],
						] as const) {
							if (way === 'the live stream' && /continuation|wrapped/.test(encoding.name)) {
								continue; // joined across lines by the one-shot redactor only (see the report's open items)
							}
							if (recovered(out).includes(secret.probe)) {
								return `${way} let ${secret.probe} through: ${JSON.stringify(out).slice(0, 160)}`;
							}
						}
						return undefined;
					},
					KLASS,
				));
		}
	}

	for (const secret of tokens) {
		it(`${secret.kind} as a key of structured content`, () =>
			attack(
				`held-out ${secret.kind} as a structured key`,
				() => {
					const out = JSON.stringify(
						redactDeep({ result: { [secret.token!]: { ok: true }, list: [{ [secret.token!]: 1 }] } }).value,
					);
					return out.includes(secret.probe) ? `the key survived: ${out.slice(0, 160)}` : undefined;
				},
				KLASS,
			));
	}

	const keyed = fc.sample(
		fc.record({
			key: fc.constantFrom(
				'password',
				'db_password',
				'PASSWORD',
				'secret',
				'client_secret',
				'api_key',
				'apiKey',
				'token',
				'auth_token',
				'AWS_SECRET_ACCESS_KEY',
				'private_key',
			),
			value: fc.string({
				unit: fc.constantFrom(...'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#%&*'),
				minLength: 10,
				maxLength: 24,
			}),
		}),
		{ seed: SEED + 7, numRuns: 40 },
	);
	for (const { key, value } of keyed) {
		it(`a value whose key says it is a secret: ${key}`, () =>
			attack(
				`held-out structured ${key}`,
				() => {
					const out = JSON.stringify(redactDeep({ config: { [key]: value, name: 'service' } }).value);
					return out.includes(value) ? `${key}'s value survived: ${out}` : undefined;
				},
				KLASS,
			));
	}

	it('ordinary text with colours, escapes and hex keeps its form', () => {
		for (const text of [
			'\x1b[32mPASS\x1b[0m src/a.test.ts',
			'{"name":"caf\\u00e9","path":"/a%20b"}',
			'commit 3f786850e387550fdab836ed7e6dc881de23001b',
			'progress 10%\r20%\r100%',
			'Tom &amp; Jerry &#169; 2024',
		]) {
			const out = redactSecrets(text).text;
			if (out !== text) throw new Error(`changed: ${JSON.stringify(text)} → ${JSON.stringify(out)}`);
		}
		const structured = redactDeep({ name: 'keel', count: 3, nested: { title: 'hello world' } }).value;
		if (JSON.stringify(structured) !== '{"name":"keel","count":3,"nested":{"title":"hello world"}}') {
			throw new Error(`structured content changed: ${JSON.stringify(structured)}`);
		}
	});
});
