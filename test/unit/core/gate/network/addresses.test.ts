// Addresses the workspace wrote: whose choice a setting is, the consent that admits it, and the
// fetch that dials only what was admitted. Generated scopes and URLs, not a list of examples.
import * as assert from 'assert';
import fc from 'fast-check';
import { admitAddress, AddressRefused, settingOrigin } from '../../../../../src/core/gate/network/addresses';
import { endpointFetch } from '../../../../../src/core/gate/network/network';

const host = fc.constantFrom('127.0.0.1:11434', 'api.example.com', 'evil.example', 'localhost:8080');
const url = fc
	.tuple(fc.constantFrom('http', 'https'), host, fc.constantFrom('', '/', '/v1', '/v1/', '/api'))
	.map(([scheme, h, path]) => `${scheme}://${h}${path}`);
const maybe = fc.option(url, { nil: undefined });

describe('gate: addresses', () => {
	it("a setting is the workspace's choice exactly when a workspace scope sets a value the user did not", () => {
		fc.assert(
			fc.property(maybe, maybe, maybe, (globalValue, workspaceValue, workspaceFolderValue) => {
				const origin = settingOrigin('keel.model.baseUrl', {
					globalValue,
					workspaceValue,
					workspaceFolderValue,
				});
				const effective = workspaceFolderValue ?? workspaceValue;
				const norm = (v?: string) => v?.replace(/\/+$/, '');
				const expected = effective !== undefined && norm(effective) !== norm(globalValue);
				assert.strictEqual(origin.from === 'workspace', expected, JSON.stringify(origin));
				if (origin.from === 'workspace') {
					assert.match(origin.where, /^keel\.model\.baseUrl in the workspace( folder)? settings$/);
				}
			}),
		);
	});

	it('admits what the user chose; what the workspace wrote only with a yes, and a refusal names the address', async () => {
		await fc.assert(
			fc.asyncProperty(url, fc.constantFrom('yes', 'no', 'throws', 'none'), async (address, answer) => {
				const asked: string[] = [];
				const consent =
					answer === 'none'
						? undefined
						: {
								allow: async (u: URL) => {
									asked.push(u.href);
									if (answer === 'throws') throw new Error('dialog closed');
									return answer === 'yes';
								},
							};
				assert.strictEqual(
					(await admitAddress(address, { from: 'user' }, consent)).href,
					new URL(address).href,
				);
				assert.deepStrictEqual(asked, [], 'the user\u2019s own address is not asked about');
				const admitted = admitAddress(address, { from: 'workspace', where: 'a prompt file' }, consent);
				if (answer === 'yes') {
					assert.strictEqual((await admitted).origin, new URL(address).origin);
				} else {
					await assert.rejects(admitted, (error: Error) => {
						assert.ok(error instanceof AddressRefused);
						assert.ok(error.message.includes(new URL(address).origin), error.message);
						assert.ok(error.message.includes('a prompt file'), error.message);
						return true;
					});
				}
			}),
		);
	});

	it('a model client dials only the admitted origin, whatever URL it builds', async () => {
		await fc.assert(
			fc.asyncProperty(url, url, fc.constantFrom('string', 'URL', 'Request'), async (admitted, target, form) => {
				const dialled: string[] = [];
				const inner: typeof fetch = async input => {
					dialled.push(String(input instanceof Request ? input.url : input));
					return new Response('ok');
				};
				const gated = endpointFetch(new URL(admitted), inner);
				const request = form === 'string' ? target : form === 'URL' ? new URL(target) : new Request(target);
				const same = new URL(admitted).origin === new URL(target).origin;
				const outcome = await gated(request).then(
					() => 'sent',
					(error: Error) => (error instanceof AddressRefused ? 'refused' : error.message),
				);
				assert.strictEqual(outcome, same ? 'sent' : 'refused');
				assert.strictEqual(dialled.length, same ? 1 : 0);
			}),
		);
	});
});
