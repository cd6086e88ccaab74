import * as assert from 'assert';
import { generateKeyPairSync } from 'crypto';
import { redactSecrets } from '../../../../../src/core/gate/redact/redact';

describe('redactSecrets', () => {
	it('cuts credential-shaped strings and says which kinds', () => {
		const text = [
			'aws AKIAABCDEFGHIJKLMNOP',
			'gh ghp_' + 'a'.repeat(36),
			'OPENAI_API_KEY=sk-proj-' + 'x'.repeat(30),
			'url https://bob:hunter2pass@example.com/x',
			'-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----',
		].join('\n');
		const { text: out, hits } = redactSecrets(text);
		assert.ok(!/AKIAABCDEFGHIJKLMNOP|ghp_a|sk-proj-x|hunter2pass|MIIE/.test(out), out);
		assert.ok(hits.length >= 5);
		assert.match(out, /\[REDACTED AWS access key\]/);
	});

	it('leaves ordinary code alone', () => {
		const code = 'const token = getToken();\nfunction password(x) { return x; }\nconst sk = "sk-short";';
		assert.deepStrictEqual(redactSecrets(code), { text: code, hits: [] });
	});

	it('cuts a private key body read without its BEGIN line (offset read or grep), by entropy', () => {
		const key = generateKeyPairSync('rsa', { modulusLength: 2048 })
			.privateKey.export({ type: 'pkcs8', format: 'pem' })
			.toString();
		const body = key.split('\n').slice(3, 6);
		const { text, hits } = redactSecrets(
			body.map((line, i) => `${i + 4}  ${line}`).join('\n') + `\nkeys/k.pem:9:${body[0]}`,
		);
		assert.ok(!body.some(line => text.includes(line.slice(10, 40))), text);
		// One body, one secret: the read lines and the grep hit right after them are one run.
		assert.deepStrictEqual([...new Set(hits)], ['key material']);
	});

	it('leaves hashes, integrity strings and type annotations alone', () => {
		const text =
			'commit 3f786850e387550fdab836ed7e6dc881de23001b\n"integrity": "sha512-' +
			'Ab1+'.repeat(21) +
			'==",\npassword: string;\nsecret: this.secret,';
		assert.deepStrictEqual(redactSecrets(text).hits, []);
	});
});
