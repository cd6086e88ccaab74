// SSRF attacks against the real fetch and web_scrape tools. Two local HTTPS servers with a
// self-signed certificate: "public" (what 93.184.216.34 is routed to after the guard passed
// it) and "internal" (where ANY other address would be dialled). A request reaching the
// internal server, or its canary reaching the model, is an escape.
import * as fs from 'fs';
import * as path from 'path';
import { tempTree, type TempTree } from '../support/tempTree';
import { selfSignedCert, startTlsServer, type RecordingServer } from '../support/tlsServer';
import { toolHarness, type Harness } from '../support/toolHarness';
import { attack } from './tally';

const INTERNAL = 'CANARY_INTERNAL_METADATA_4411';
const PUBLIC_IP = '93.184.216.34';

describe('security: network guard', () => {
	let tree: TempTree;
	let publicServer: RecordingServer;
	let internal: RecordingServer;
	let h: Harness;
	let resolverCalls: string[];
	let rebindCount = 0;

	before(async () => {
		const tls = selfSignedCert([
			'public.test',
			'redirect.test',
			'rebind.test',
			'internal.test',
			'mixed.test',
			'hop.test',
		]);
		internal = await startTlsServer(tls, (_req, res) => res.end(INTERNAL));
		publicServer = await startTlsServer(tls, (req, res) => {
			const to = (location: string) => {
				res.writeHead(302, { Location: location });
				res.end();
			};
			if (req.path.startsWith('/to/')) {
				return to(decodeURIComponent(req.path.slice(4)));
			}
			if (req.path.startsWith('/loop/')) {
				const n = Number(req.path.slice(6));
				return to(`https://hop.test/loop/${n + 1}`);
			}
			res.setHeader('content-type', 'text/html');
			res.end('<html><title>Public</title><body><p>public page</p></body></html>');
		});
		resolverCalls = [];
		const answers: Record<string, string[]> = {
			'public.test': [PUBLIC_IP],
			'redirect.test': [PUBLIC_IP],
			'hop.test': [PUBLIC_IP],
			'internal.test': ['10.0.0.5'],
			'metadata.test': ['169.254.169.254'],
			'mixed.test': [PUBLIC_IP, '127.0.0.1'],
			'v6local.test': ['::1'],
			'mapped.test': ['::ffff:127.0.0.1'],
			'nat64.test': ['64:ff9b::a00:5'],
		};
		tree = tempTree('keel-net-');
		fs.mkdirSync(path.join(tree.base, 'ws'));
		h = toolHarness(path.join(tree.base, 'ws'), {
			deps: {
				network: {
					ca: tls.ca,
					timeoutMs: 5000,
					resolver: async host => {
						resolverCalls.push(host);
						// Rebinding: public on the first lookup, loopback on every later one.
						if (host === 'rebind.test') {
							return [{ address: rebindCount++ === 0 ? PUBLIC_IP : '127.0.0.1', family: 4 }];
						}
						return (answers[host] ?? []).map(address => ({
							address,
							family: address.includes(':') ? 6 : 4,
						}));
					},
					route: address => ({
						host: '127.0.0.1',
						port: address === PUBLIC_IP ? publicServer.port : internal.port,
					}),
				},
			},
		});
	});
	after(async () => {
		await publicServer.close();
		await internal.close();
		tree.cleanup();
	});

	const escaped = (output: string) =>
		internal.hits.length > 0
			? `internal server was hit (${internal.hits.map(x => x.host + x.path).join(', ')})`
			: output.includes(INTERNAL)
				? 'internal canary reached the model'
				: undefined;

	it('sanity: a public page is fetched through the pinned address', async () => {
		const result = await h.run('fetch', { url: 'https://public.test/' });
		if (!result.ok || !/public page/.test(result.output)) {
			throw new Error(`the guard blocks legitimate fetches: ${result.output}`);
		}
	});

	const urls = [
		'http://public.test/',
		'ftp://public.test/',
		'file:///etc/passwd',
		'https://127.0.0.1/',
		'https://localhost/',
		'https://LOCALHOST./',
		'https://foo.localhost/',
		'https://0x7f.1/',
		'https://2130706433/',
		'https://017700000001/',
		'https://127.1/',
		'https://0/',
		'https://0.0.0.0/',
		'https://[::1]/',
		'https://[::]/',
		'https://[::ffff:127.0.0.1]/',
		'https://[::ffff:7f00:1]/',
		'https://169.254.169.254/latest/meta-data/',
		'https://10.0.0.1/',
		'https://192.168.1.1/',
		'https://172.16.0.1/',
		'https://100.64.0.1/',
		'https://[fd00::1]/',
		'https://[fe80::1]/',
		'https://[64:ff9b::7f00:1]/',
		'https://[2002:7f00:1::]/',
		'https://224.0.0.1/',
		'https://255.255.255.255/',
		'https://internal.test/',
		'https://metadata.test/',
		'https://mixed.test/',
		'https://v6local.test/',
		'https://mapped.test/',
		'https://nat64.test/',
		'https://user:pass@public.test/',
		'https://public.test:22/',
		'https://intranet/',
		'https://printer.local/',
		'https://svc.internal/',
		'javascript:alert(1)',
		'data:text/html,hi',
		'//127.0.0.1/',
		'https://127.0.0.1.nip.io.internal/',
	];
	for (const url of urls) {
		for (const tool of ['fetch', 'web_scrape']) {
			it(`${tool} refuses ${url}`, () =>
				attack(`${tool} ${url}`, async () => {
					const result = await h.run(tool, { url, selector: 'body' });
					return escaped(result.output) ?? (result.ok ? `fetched: ${result.output.slice(0, 60)}` : undefined);
				}));
		}
	}

	const redirects = [
		'https://127.0.0.1/',
		'https://internal.test/',
		'https://169.254.169.254/',
		'http://public.test/',
		'https://[::1]/',
		'https://mixed.test/',
		'https://localhost/',
	];
	for (const target of redirects) {
		it(`a redirect to ${target} is re-checked and refused`, () =>
			attack(`redirect → ${target}`, async () => {
				const result = await h.run('fetch', { url: `https://redirect.test/to/${encodeURIComponent(target)}` });
				return escaped(result.output) ?? (result.ok ? 'followed' : undefined);
			}));
	}

	// Class 10: an allow rule covers the URL it names, not where that URL redirects. Every hop
	// is decided again; a hop the rules do not allow on their own is refused, not followed.
	const hosts = [
		'public.test',
		'hop.test',
		'redirect.test.evil',
		'PUBLIC.test',
		'public.test.',
		'redirect.test@public.test',
	];
	const ruleSets: Array<{ name: string; rules: Array<{ tool: string; match: string; action: 'allow' | 'deny' }> }> = [
		{
			name: 'allow redirect.test/**',
			rules: [{ tool: 'fetch', match: 'https://redirect.test/**', action: 'allow' }],
		},
		{
			name: 'allow */** on redirect.test',
			rules: [{ tool: '*', match: 'https://redirect.test/**', action: 'allow' }],
		},
		{
			name: 'allow + deny admin',
			rules: [
				{ tool: 'fetch', match: 'https://redirect.test/**', action: 'allow' },
				{ tool: 'fetch', match: 'https://public.test/**', action: 'deny' },
			],
		},
	];
	for (const { name, rules } of ruleSets) {
		for (const host of hosts) {
			for (const tail of ['', 'docs/x', '?q=1']) {
				const target = `https://${host}/${tail}`;
				it(`under "${name}", a redirect to ${target} is decided again`, () =>
					attack(
						`C10 ${name} → ${target}`,
						async () => {
							const ruled = toolHarness(path.join(tree.base, 'ws'), {
								settings: { autoApprove: { read: true }, rules },
								deps: { network: h.deps.network },
							});
							const result = await ruled.run('fetch', {
								url: `https://redirect.test/to/${encodeURIComponent(target)}`,
							});
							return (
								escaped(result.output) ??
								(/public page/.test(result.output)
									? `followed to ${target} without approval`
									: undefined)
							);
						},
						'class 10 (redirects under allow)',
					));
			}
		}
	}
	it('under a deny rule on a path, a same-origin redirect into it is refused', () =>
		attack(
			'C10 same-origin deny',
			async () => {
				const rules = [
					{ tool: 'fetch', match: 'https://redirect.test/**', action: 'allow' as const },
					{ tool: 'fetch', match: 'https://redirect.test/private/**', action: 'deny' as const },
				];
				const ruled = toolHarness(path.join(tree.base, 'ws'), {
					settings: { autoApprove: { read: true }, rules },
					deps: { network: h.deps.network },
				});
				const result = await ruled.run('fetch', {
					url: `https://redirect.test/to/${encodeURIComponent('https://redirect.test/private/x')}`,
				});
				return /public page/.test(result.output) ? 'followed into a denied path' : undefined;
			},
			'class 10 (redirects under allow)',
		));

	it('stops after 3 redirects', () =>
		attack('redirect loop', async () => {
			const before = publicServer.hits.length;
			const result = await h.run('fetch', { url: 'https://hop.test/loop/0' });
			const hops = publicServer.hits.length - before;
			return result.ok || hops > 4 ? `followed ${hops} hops` : undefined;
		}));

	it('DNS rebinding: resolved once, connection pinned to the checked address', () =>
		attack('rebinding', async () => {
			rebindCount = 0;
			resolverCalls.length = 0;
			const result = await h.run('fetch', { url: 'https://rebind.test/' });
			const lookups = resolverCalls.filter(x => x === 'rebind.test').length;
			return (
				escaped(result.output) ??
				(lookups !== 1
					? `resolved ${lookups} times`
					: !result.ok
						? `pinned fetch failed: ${result.output}`
						: undefined)
			);
		}));

	it('a body over the cap is cut, not buffered whole', () =>
		attack('body cap', async () => {
			const small = toolHarness(path.join(tree.base, 'ws'), {
				deps: { network: { ...h.deps.network, maxBytes: 20 } },
			});
			const result = await small.run('fetch', { url: 'https://public.test/' });
			return result.output.includes('public page') ? 'full body passed the cap' : undefined;
		}));
});
