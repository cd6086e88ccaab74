// The line machine's scanners read what its regular expressions used to match, without a regular
// expression on the text. Each is checked against the expression it replaces, on generated short
// lines from an alphabet of the characters that matter to it (the expressions run here only, on
// strings a few dozen characters long), and on the long lines that made the expressions backtrack.
import * as assert from 'assert';
import fc from 'fast-check';
import {
	findKeyBegin,
	isBase64Line,
	isBase64Tail,
	linePrefixLength,
	markerRanges,
	trailingBody,
} from '../../../../../src/core/gate/redact/lineShapes';
import { decodedLine, withoutInvisible } from '../../../../../src/core/gate/redact/lineViews';
import { stripAnsi } from '../../../../../src/core/util/ansi';

// What the line machine matched before, as regular expressions.
const PREFIX = /^(?:\s*\d+(?:[:-]\s*|\s+)|[^\s:]*[./][^\s:]*[:-]\d+[:-]\s*|[ +-])?/;
const TRAILING_BODY = /(?<=^|[\s:|>"'=])[A-Za-z0-9+/]{40,}={0,2}(?=["',]?\s*$)/;
const BASE64_LINE = /^[A-Za-z0-9+/]{16,}={0,2}$/;
const BASE64_TAIL = /^(?=[A-Za-z0-9+/]*(?:[\d+/=]|[a-z][A-Z]|[A-Z][a-z]))[A-Za-z0-9+/]{4,}={0,2}$/;
const INVISIBLE =
	// eslint-disable-next-line no-control-regex
	/\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])|[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\r(?!$)/g;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
const ESCAPED = /\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|%([0-9a-fA-F]{2})|&#[xX]([0-9a-fA-F]{1,6});|&#(\d{1,7});/g;
const HEX_RUN = /(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}){16,}(?![0-9a-fA-F])/g;
const BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----|PuTTY-User-Key-File-\d+:/;
const MARKER = /\[REDACTED [^\]\n]{1,40}\]/g;

function oldDecoded(text: string): string {
	const unescaped = text.replace(ESCAPED, (all, u?: string, x?: string, pct?: string, hx?: string, dec?: string) => {
		const code = parseInt(u ?? x ?? pct ?? hx ?? '', 16) || parseInt(dec ?? '', 10);
		return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
	});
	return unescaped.replace(HEX_RUN, run => {
		const bytes = Buffer.from(run, 'hex').toString('latin1');
		return /^[\x20-\x7e]+$/.test(bytes) ? bytes : run;
	});
}

/** Lines of the given characters (and short words of them), up to `max` long. */
const lineOf = (chars: string, max = 60) =>
	fc
		.array(fc.oneof(fc.constantFrom(...chars.split('')), fc.constantFrom('AbC1', 'xyz', 'a.b/c', '12', '-----')), {
			maxLength: max,
		})
		.map(parts => parts.join(''));
const runs = { numRuns: 3000 };

describe('line shapes: scanners for what the regular expressions matched', () => {
	it('the read_file / grep / diff prefix', () => {
		fc.assert(
			fc.property(lineOf(' \t0123456789:-./a+Z_'), line => {
				assert.strictEqual(linePrefixLength(line), PREFIX.exec(line)![0].length, JSON.stringify(line));
			}),
			runs,
		);
	});

	it('a key body ending a line after other text', () => {
		const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
		const body = fc.string({ unit: fc.constantFrom(...b64.split('')), minLength: 30, maxLength: 50 });
		fc.assert(
			fc.property(
				lineOf(' :|>"\'=,x_', 6),
				body,
				fc.constantFrom('', '=', '==', '===', '",', "'", ' ', ',  '),
				(head, run, tail) => {
					const line = head + run + tail;
					const found = TRAILING_BODY.exec(line);
					const mine = trailingBody(line);
					assert.deepStrictEqual(
						mine && [mine.start, mine.end],
						found ? [found.index, found.index + found[0].length] : undefined,
						JSON.stringify(line),
					);
				},
			),
			runs,
		);
	});

	it('base64 lines and the short last line of a key body', () => {
		fc.assert(
			fc.property(lineOf('AaZz09+/=.- ', 30), line => {
				assert.strictEqual(isBase64Line(line), BASE64_LINE.test(line), JSON.stringify(line));
				assert.strictEqual(isBase64Tail(line), BASE64_TAIL.test(line), JSON.stringify(line));
			}),
			runs,
		);
	});

	it('what a reader does not see, and terminal escapes', () => {
		fc.assert(
			fc.property(lineOf('\x1b[]\x07\\;0m@AZ_^\r\u200b\u00ad\ufeff\u202eab ', 40), line => {
				assert.strictEqual(withoutInvisible(line), line.replace(INVISIBLE, ''), JSON.stringify(line));
				assert.strictEqual(stripAnsi(line), line.replace(ANSI, ''), JSON.stringify(line));
			}),
			runs,
		);
	});

	it('escapes and hex runs decoded', () => {
		fc.assert(
			fc.property(lineOf('\\ux%&#;0123456789abcdefABCDEF41 g', 80), line => {
				assert.strictEqual(decodedLine(line), oldDecoded(line), JSON.stringify(line));
			}),
			runs,
		);
	});

	it('key block headers and earlier markers', () => {
		fc.assert(
			fc.property(
				lineOf(' -ABEGINPRVTKYLOC01', 30),
				fc.constantFrom('', '-----BEGIN ', 'PuTTY-User-Key-File-2:', 'PRIVATE KEY-----'),
				(a, b) => {
					const line = a + b + a;
					const old = BEGIN.exec(line);
					const mine = findKeyBegin(line);
					assert.deepStrictEqual(
						mine && [mine.index, mine.text],
						old ? [old.index, old[0]] : undefined,
						JSON.stringify(line),
					);
				},
			),
			runs,
		);
		fc.assert(
			fc.property(lineOf('[REDACTED ]x\n', 30), line => {
				assert.deepStrictEqual(
					markerRanges(line),
					[...line.matchAll(MARKER)].map(m => [m.index, m.index + m[0].length]),
					JSON.stringify(line),
				);
			}),
			runs,
		);
	});

	it('the lines that made the expressions backtrack are read in one pass each', function () {
		this.timeout(60_000);
		// Each of these made a replaced expression try every position to the end (or blew its stack).
		const long = 2 * 1024 * 1024;
		assert.strictEqual(withoutInvisible('\x1b]'.repeat(long / 2)), '');
		assert.strictEqual(linePrefixLength('a'.repeat(long)), 0);
		assert.strictEqual(trailingBody('x'.repeat(long) + '!'), undefined);
		assert.strictEqual(decodedLine('%4'.repeat(long / 2)).length, long);
	});
});
