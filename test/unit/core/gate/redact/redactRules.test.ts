// The redactor's rules as data: the maintained rule sets generated from the installed gitleaks and
// secretlint (and up to date with them), every rule findable by its keywords, and the classes Keel
// generates (every connection-string scheme with credentials, every member of a token family,
// every secret Keel holds in every spelling) cut, on generated inputs.
import * as assert from 'assert';
import fc from 'fast-check';
import * as path from 'path';
import { RE2JS } from 're2js';
import { generate } from '../../../../../scripts/redactRules/generate';
import { holdSecret, releaseHeldSecrets } from '../../../../../src/core/gate/redact/heldSecrets';
import {
	leadingLiterals,
	parsePattern,
	requiredLiterals,
	widen,
} from '../../../../../src/core/gate/redact/patternShape';
import { redactDeep, redactSecrets } from '../../../../../src/core/gate/redact/redact';
import { ALL_RULES, KEEL_RULES, MAINTAINED } from '../../../../../src/core/gate/redact/redactRules';

const ROOT = path.join(__dirname, '../../../../../..');
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const token = (min: number, max = min) =>
	fc.string({ unit: fc.constantFrom(...ALNUM.split('')), minLength: min, maxLength: max });

describe('redaction rules', () => {
	it('are generated from the installed gitleaks and secretlint, and the data is up to date', function () {
		this.timeout(60_000);
		const fresh = generate(ROOT);
		assert.deepStrictEqual(fresh, MAINTAINED, 'run npm run redact-rules:generate');
		assert.ok(MAINTAINED.rules.filter(r => r.from === 'gitleaks').length >= 200);
		assert.ok(MAINTAINED.rules.filter(r => r.from === 'secretlint').length >= 10);
		assert.deepStrictEqual(
			MAINTAINED.sources.map(s => s.name),
			['gitleaks', '@secretlint/secretlint-rule-preset-recommend'],
		);
	});

	it('every rule compiles as RE2 and is found by its keywords', () => {
		for (const rule of ALL_RULES) {
			assert.doesNotThrow(
				() => RE2JS.compile(rule.regex, rule.lookbehind ? RE2JS.LOOKBEHINDS : 0),
				`${rule.id} does not compile`,
			);
			if (rule.token) continue;
			assert.ok(rule.keywords.length > 0 && rule.keywords.every(k => k === k.toLowerCase()), rule.id);
			if (rule.anchored) {
				// Tried only at its keywords: every match must start with one.
				const starts = widen(() => leadingLiterals(parsePattern(rule.regex)));
				assert.ok(
					starts?.every(s => rule.keywords.some(k => s.startsWith(k))),
					`${rule.id}: a match can start with ${JSON.stringify(starts)}, not at a keyword`,
				);
			}
		}
	});

	it("Keel's own rules name keywords every match holds", () => {
		for (const rule of KEEL_RULES.filter(r => !r.token && r.id !== 'cut-token')) {
			const needed = widen(() => requiredLiterals(parsePattern(rule.regex)));
			assert.ok(
				needed?.every(lit => rule.keywords.some(k => lit.includes(k))),
				`${rule.id}: a match holds one of ${JSON.stringify(needed)}, keywords are ${JSON.stringify(rule.keywords)}`,
			);
		}
	});

	it('cuts the password of a URL with any scheme, with or without a user', () => {
		const scheme = fc.oneof(
			fc.constantFrom(
				'redis',
				'rediss',
				'postgres',
				'postgresql',
				'mysql',
				'mongodb+srv',
				'amqp',
				'https',
				'ftp',
				'smtp',
				'ldap',
				'sqlserver',
				'git+ssh',
			),
			fc.stringMatching(/^[a-z][a-z0-9+.-]{1,12}$/),
		);
		fc.assert(
			fc.property(
				scheme,
				fc.constantFrom('', 'app', 'default', 'user.name'),
				token(2, 30),
				fc.constantFrom('db.example.com', 'host:6379', '10.0.0.5'),
				(s, user, password, host) => {
					const out = redactSecrets(`connect ${s}://${user}:${password}@${host}/0`).text;
					assert.ok(!out.includes(`:${password}@`), out);
				},
			),
			{ numRuns: 500 },
		);
	});

	it('cuts credentials passed as connection-string or query parameters', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('?', '&', ';'),
				fc.constantFrom('password', 'Password', 'pwd', 'access_token', 'api_key', 'sig', 'token'),
				token(6, 24),
				(sep, name, value) => {
					const out = redactSecrets(
						`jdbc:postgresql://h/db?ssl=true${sep}${name}=${value}${sep === ';' ? ';Server=x' : '&x=1'}`,
					).text;
					assert.ok(!out.includes(value), out);
				},
			),
			{ numRuns: 300 },
		);
	});

	it('cuts every member of a token family, those the rule sets list and those they do not yet', () => {
		assert.deepStrictEqual(
			MAINTAINED.families.map(f => f.stem),
			['do', 'gh', 'xox'],
		);
		const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'.split(''));
		fc.assert(
			fc.property(fc.constantFrom(...MAINTAINED.families), letter, token(24, 60), (family, c, body) => {
				const secret = `${family.stem}${c}${family.separator}${family.stem === 'do' ? 'v1_' : ''}${body}`;
				const out = redactSecrets(`value: ${secret} end`).text;
				assert.ok(!out.includes(body.slice(-12)), out);
			}),
			{ numRuns: 500 },
		);
		// Slack's browser session tokens and cookies (URL-encoded), which no rule set names.
		for (const secret of [
			'xoxc-1234567890123-1234567890123-1234567890123-0a1b2c3d4e5f60718293a4b5c6d7e8f9',
			'xoxd-AbCdEf%2BgHiJkLmN0pQrStUvWxYz1234567890%2FaBcDeFgHiJ%3D',
		]) {
			assert.ok(!redactSecrets(`cookie ${secret};`).text.includes(secret.slice(-10)), secret);
		}
	});

	it('cuts a secret Keel holds in every spelling, and half of it before a cut', () => {
		releaseHeldSecrets();
		try {
			fc.assert(
				fc.property(
					fc.string({ minLength: 8, maxLength: 40 }).filter(s => s.trim().length >= 8 && !s.includes('…')),
					value => {
						holdSecret(value, 'API key');
						for (const shown of [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]) {
							const out = redactSecrets(`error: invalid key "${shown}" given`).text;
							assert.ok(!out.includes(shown), out);
						}
					},
				),
				{ numRuns: 200 },
			);
			holdSecret('kx-5f0c1a9e7b3d2c4e6f8a', 'API key');
			assert.ok(!redactSecrets('the key was kx-5f0c1a9e7b…').text.includes('kx-5f0c1a9e7b'));
		} finally {
			releaseHeldSecrets();
		}
	});

	it('walks structured content of any depth without recursion', () => {
		let deep: unknown = 'ghp_' + 'a1B2'.repeat(9);
		for (let i = 0; i < 200_000; i++) deep = [deep];
		let out = redactDeep(deep).value;
		for (let i = 0; i < 200_000; i++) out = (out as unknown[])[0];
		assert.match(out as string, /^\[REDACTED /);
	});
});
