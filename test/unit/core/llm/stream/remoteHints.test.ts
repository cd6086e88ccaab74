import * as assert from 'assert';
import fc from 'fast-check';
import { describeModelFailure } from '../../../../../src/core/llm/stream/httpErrors';
import { isLoopbackUrl, remoteLoopbackHint } from '../../../../../src/core/llm/stream/remoteHints';

const octet = fc.integer({ min: 0, max: 255 });
const port = fc.integer({ min: 1, max: 65535 });
/** Every spelling of "this machine" a base URL can carry. */
const loopbackHost = fc.oneof(
	fc.tuple(octet, octet, octet).map(([a, b, c]) => `127.${a}.${b}.${c}`),
	fc.constantFrom('localhost', 'LOCALHOST', 'ollama.localhost', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0', '[::]'),
);
/** Addresses of other machines: public, private and link-local, by number or by name. */
const otherHost = fc.oneof(
	fc
		.tuple(fc.integer({ min: 1, max: 223 }), octet, octet, octet)
		.filter(([a]) => a !== 127)
		.map(([a, b, c, d]) => `${a}.${b}.${c}.${d}`),
	fc.constantFrom(
		'host.docker.internal',
		'gpu-box.lan',
		'api.openai.com',
		'[fe80::1]',
		'[2001:db8::1]',
		'localhost.example.com',
	),
);
const remote = fc.constantFrom(
	'ssh-remote',
	'wsl',
	'dev-container',
	'attached-container',
	'codespaces',
	'tunnel',
	'127.0.0.1:8080',
);
const url = (host: string, p: number) => `http://${host}:${p}/v1`;

describe('a loopback model address in a remote window', () => {
	it('says the address is the remote machine, with the ways out, for every loopback spelling and remote', () => {
		fc.assert(
			fc.property(loopbackHost, port, remote, (host, p, where) => {
				const error = describeModelFailure(
					{ connection: true },
					{ baseUrl: url(host, p), model: 'm', remote: where },
				);
				assert.strictEqual(error.code, 'modelUnreachable');
				assert.match(error.message, /^No model server answered at /);
				assert.match(error.message, /is that remote machine, not your own/);
				assert.match(error.message, /set keel\.model\.baseUrl to an address the remote machine can reach/);
				assert.match(error.message, /run the model server there/);
			}),
		);
	});

	it('adds nothing in a local window or for an address of another machine', () => {
		fc.assert(
			fc.property(loopbackHost, otherHost, port, remote, (loop, other, p, where) => {
				assert.strictEqual(remoteLoopbackHint(url(loop, p), undefined), undefined);
				assert.strictEqual(isLoopbackUrl(url(other, p)), false, other);
				assert.strictEqual(remoteLoopbackHint(url(other, p), where), undefined);
			}),
		);
	});

	it('gives each kind of remote its own way to reach the user machine', () => {
		const hint = (where: string) => remoteLoopbackHint('http://127.0.0.1:11434', where)!;
		assert.match(hint('ssh-remote'), /an SSH remote.*`ssh -R 11434:127\.0\.0\.1:11434 <host>`/);
		assert.match(hint('wsl'), /WSL.*networkingMode=mirrored/);
		assert.match(hint('dev-container'), /a dev container.*http:\/\/host\.docker\.internal:11434/);
		assert.match(
			hint('127.0.0.1:8080'),
			/a browser window served by 127\.0\.0\.1:8080.*forward your machine's port/,
		);
		assert.match(hint('k8s-pod'), /the remote "k8s-pod"/);
		// Not an answer for every other failure: a server that answered is not a place problem.
		assert.doesNotMatch(
			describeModelFailure(
				{ status: 500, body: 'x' },
				{ baseUrl: 'http://127.0.0.1:1', model: 'm', remote: 'wsl' },
			).message,
			/remote/,
		);
	});
});
