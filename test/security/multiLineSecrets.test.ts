// Secrets that span lines, the way tools print them: private keys and PEM blocks (real ones from
// Node's crypto, PGP and PuTTY shapes), Google service-account JSON (pretty-printed, its key an
// escaped one-liner), each as a command or a reader would show it (CRLF, indented in YAML, a
// diff's `+`, grep's `file:12:`, `cat -n`, a Markdown quote, cut before its END), and the
// secrets Keel holds (the provider's key, an MCP server's resolved env, a key file among them).
// Redacted whole (a tool's result) and as a live stream cut into random chunks (a running
// command's card), where every intermediate view counts: nothing of the key may show at any time.
import * as assert from 'assert';
import * as fc from 'fast-check';
import { generateKeyPairSync, randomBytes } from 'crypto';
import { holdSecret, redactSecrets, StreamRedactor } from '../../src/core/gate/redact/redact';
import { releaseHeldSecrets } from '../../src/core/gate/redact/heldSecrets';
import { attack } from './tally';

const KLASS = 'redaction 3: secrets that span lines, whole and streamed';
const SEED = Number(process.env.KEEL_SECURITY_SEED ?? 20261129);

const b64 = (bytes: number) => randomBytes(bytes).toString('base64');

/** A key block and a piece of its body: the probe that must never be seen. */
interface Block {
	kind: string;
	text: string;
	probe: string;
}

function blocks(): Block[] {
	const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
	const pkcs8 = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trim();
	const pkcs1 = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString().trim();
	const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
		.privateKey.export({ type: 'sec1', format: 'pem' })
		.toString()
		.trim();
	const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trim();
	const encrypted = rsa.privateKey
		.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'p' })
		.toString()
		.trim();
	const openssh = `-----BEGIN OPENSSH PRIVATE KEY-----\n${[b64(52), b64(52), b64(52), b64(30)].join('\n')}\n-----END OPENSSH PRIVATE KEY-----`;
	const pgp = `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${b64(48)}\n${b64(48)}\n=Ab3d\n-----END PGP PRIVATE KEY BLOCK-----`;
	const putty = `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\n${b64(36)}\n${b64(12)}\nPrivate-Lines: 1\n${b64(36)}\nPrivate-MAC: 7f3a9c`;
	const pick = (pem: string, line: number) => pem.split('\n')[line].slice(6, 30);
	const pems: Block[] = [
		{ kind: 'PKCS#8 RSA', text: pkcs8, probe: pick(pkcs8, 3) },
		{ kind: 'PKCS#1 RSA', text: pkcs1, probe: pick(pkcs1, 3) },
		{ kind: 'EC', text: ec, probe: pick(ec, 2) },
		{ kind: 'Ed25519', text: ed, probe: pick(ed, 1) },
		{ kind: 'encrypted PKCS#8', text: encrypted, probe: pick(encrypted, 3) },
		{ kind: 'OpenSSH', text: openssh, probe: pick(openssh, 2) },
		{ kind: 'PGP', text: pgp, probe: pick(pgp, 2) },
		{ kind: 'PuTTY', text: putty, probe: pick(putty, 7) },
	];
	// A Google service-account key file: pretty JSON, the key one escaped line. (Its private_key_id
	// names the key, as the Cloud console lists it: an identifier, not a credential, and not cut.)
	const id = randomBytes(20).toString('hex');
	const account = JSON.stringify(
		{
			type: 'service_account',
			project_id: 'p',
			private_key_id: id,
			private_key: `${pkcs8}\n`,
			client_email: 'svc@p.iam.gserviceaccount.com',
			client_id: '1234567890',
		},
		null,
		2,
	);
	return [
		...pems,
		{ kind: 'service-account JSON (key)', text: account, probe: pick(pkcs8, 3) },
		{ kind: 'service-account JSON, one line', text: JSON.stringify(JSON.parse(account)), probe: pick(pkcs8, 5) },
	];
}

/** How a tool prints a block: each a function of the block's text. */
const VIEWS: Array<[string, (text: string) => string]> = [
	['as is', t => t],
	['CRLF', t => t.replace(/\n/g, '\r\n')],
	['in YAML', t => `service:\n  key: |\n${t.replace(/^/gm, '    ')}\n  name: x`],
	['a diff adds it', t => `diff --git a/k b/k\n--- /dev/null\n+++ b/k\n@@ -0,0 +1,30 @@\n${t.replace(/^/gm, '+')}`],
	[
		'grep -n',
		t =>
			t.replace(
				/^/gm,
				(() => {
					let n = 10;
					return () => `conf/key.pem:${n++}:`;
				})(),
			),
	],
	[
		'cat -n',
		t =>
			t.replace(
				/^/gm,
				(() => {
					let n = 1;
					return () => `${String(n++).padStart(6)}\t`;
				})(),
			),
	],
	['a Markdown quote', t => t.replace(/^/gm, '> ')],
	['cut before its end', t => t.split('\n').slice(0, -2).join('\n')],
	['between other output', t => `building…\nok 12 tests\n${t}\ndone in 3.2 s`],
];

/** `text` cut into pieces at `cuts` (fractions of its length). */
function chunks(text: string, cuts: number[]): string[] {
	const at = [...new Set(cuts.map(c => Math.floor(c * text.length)))].sort((a, b) => a - b);
	const out: string[] = [];
	let from = 0;
	for (const cut of at) {
		out.push(text.slice(from, cut));
		from = cut;
	}
	out.push(text.slice(from));
	return out;
}

/** Whole and streamed: where `probe` showed, or undefined. */
function seenIn(text: string, probe: string, cuts: number[]): string | undefined {
	if (redactSecrets(text).text.includes(probe)) return 'the whole output';
	const stream = new StreamRedactor();
	const pieces = chunks(text, cuts);
	for (let i = 0; i < pieces.length; i++) {
		if (stream.push(pieces[i]).includes(probe)) return `the live stream after chunk ${i + 1} of ${pieces.length}`;
	}
	return undefined;
}

const cutsArb = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 0, maxLength: 40 });

describe(`security: ${KLASS}`, function () {
	this.timeout(300_000);
	const all = blocks();

	for (const [view, show] of VIEWS) {
		it(`key blocks shown ${view}: cut whole and in every chunking`, async () => {
			const failed: string[] = [];
			for (const block of all) {
				const text = show(block.text);
				if (!text.includes(block.probe)) continue;
				await attack(
					`${block.kind}, ${view}`,
					() => {
						const run = fc.check(
							fc.property(cutsArb, cuts => seenIn(text, block.probe, cuts) === undefined),
							{ numRuns: 60, seed: SEED },
						);
						const cuts = run.counterexample?.[0];
						return cuts
							? `seen in ${seenIn(text, block.probe, cuts)} (cut at ${cuts.length} places)`
							: undefined;
					},
					KLASS,
				).catch(error => failed.push((error as Error).message.split('\n')[0]));
			}
			assert.deepStrictEqual(failed, []);
		});
	}

	describe('what Keel holds', () => {
		afterEach(() => releaseHeldSecrets());

		it('a held key of any shape, a key file held as an MCP env value: cut in every view and chunking', async () => {
			const shapes = fc.oneof(
				fc.stringMatching(/^[a-z]{4,8}(-[a-z]{4,8}){3}-\d{4}$/),
				fc.stringMatching(/^[A-Za-z0-9]{24,48}$/),
				fc.stringMatching(/^sk-[a-z]{2,6}-[A-Za-z0-9_-]{20,40}$/),
			);
			await fc.assert(
				fc.asyncProperty(shapes, fc.constantFrom(...VIEWS), cutsArb, async (key, [view, show], cuts) => {
					releaseHeldSecrets();
					holdSecret(key, 'API key', 4);
					const pem = all[0].text;
					holdSecret(pem, 'MCP server env');
					const text = show(`error: invalid key "${key}"\n${pem}\nretry with ${key}`);
					await attack(
						`held ${key.slice(0, 6)}…, ${view}`,
						() => {
							const where = seenIn(text, key, cuts) ?? seenIn(text, all[0].probe, cuts);
							return where ? `seen in ${where}` : undefined;
						},
						KLASS,
					);
				}),
				{ numRuns: 80, seed: SEED },
			);
		});
	});

	it('the generator is not empty: each probe is in its block', () => {
		for (const block of all) assert.ok(block.text.includes(block.probe), block.kind);
	});
});
