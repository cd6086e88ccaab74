// Held-out network attacks: an IPv6 spelling of an address that is not a public host. The
// URL parser rewrites `[::127.0.0.1]` (IPv4-compatible, deprecated) as `[::7f00:1]`, which
// ipaddr.js files under "unicast"; so do unassigned ranges outside 2000::/3. Each is tried as
// the URL itself and as the address a public-looking host name resolves to (the connection
// goes to the checked address, so that is where a rebinding host would send it). Addresses are
// generated (fast-check, fixed seed); public 2000::/3 addresses are the control.
import * as assert from 'assert';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { checkAddress, checkUrl, guardedFetch, UrlRefused } from '../../src/core/gate/network/urls';
import { attack } from './tally';

const KLASS = 'held-out: IPv6 spellings of non-public hosts';
// Local names are counted apart: 'held-out: spellings of non-public hosts'.
const SEED = Number(process.env.KEEL_SEED ?? 20_261_126);

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet).map(parts => parts.join('.'));
const hextet = fc.integer({ min: 0, max: 0xffff }).map(n => n.toString(16));

/** IPv4-compatible forms of any IPv4 address (the URL parser turns the dotted ones into hex). */
const compatible = fc.oneof(
	ipv4.map(v4 => `::${v4}`),
	ipv4.map(v4 => `0:0:0:0:0:0:${v4}`),
	fc.tuple(hextet, hextet).map(([a, b]) => `::${a === '0' ? '1' : a}:${b}`),
);
/** Any IPv6 address outside 2000::/3 (the first hextet below 0x2000 or from 0x4000 up). */
const outsideGlobal = fc
	.tuple(
		fc.oneof(fc.integer({ min: 0x0001, max: 0x1fff }), fc.integer({ min: 0x4000, max: 0xfbff })),
		fc.array(hextet, { minLength: 7, maxLength: 7 }),
	)
	.map(([first, rest]) => [first.toString(16), ...rest].join(':'));

const forms = [
	...fc.sample(compatible, { seed: SEED, numRuns: 60 }),
	...fc.sample(outsideGlobal, { seed: SEED + 1, numRuns: 60 }),
	'::7f00:1',
	'::a9fe:a9fe',
	'::127.0.0.1',
	'::169.254.169.254',
	'::10.0.0.1',
	'::192.168.1.1',
	'100::1',
	'4000::1',
	'fec0::1',
];

function refusedAsUrl(address: string): string | undefined {
	try {
		const url = checkUrl(`https://[${address}]/`);
		return `checkUrl passed ${url.hostname}`;
	} catch (error) {
		return error instanceof UrlRefused ? undefined : `threw ${(error as Error).message}`;
	}
}

async function refusedWhenResolved(address: string): Promise<string | undefined> {
	let dialled = false;
	try {
		await guardedFetch(
			'https://docs.example.test/page',
			{
				resolver: async () => [{ address, family: 6 }],
				timeoutMs: 2000,
				route: () => ((dialled = true), { host: '127.0.0.1', port: 9 }),
			},
			new AbortController().signal,
		);
		return `fetched through ${address}`;
	} catch (error) {
		if (dialled) return `dialled ${address} before refusing`;
		return error instanceof UrlRefused ? undefined : `failed otherwise: ${(error as Error).message}`;
	}
}

describe('security (held out): IPv6 spellings of non-public hosts are refused', () => {
	for (const address of new Set(forms)) {
		it(`refuses [${address}] as the URL and as a resolved address`, () =>
			attack(
				`held-out IPv6 ${address}`,
				async () => refusedAsUrl(address) ?? (await refusedWhenResolved(ipaddr.parse(address).toString())),
				KLASS,
			));
	}

	// A local name with its trailing dots spelled several ways (`%2E` decodes to a dot in the host).
	for (const name of ['localhost', 'LocalHost', 'metadata.google.internal', 'printer.local', 'db.corp']) {
		for (const dots of ['.', '..', '%2E.', '.%2e', '...']) {
			const url = `https://${name}${dots}/`;
			it(`refuses ${url}`, () =>
				attack(
					`held-out local name ${url}`,
					() => {
						try {
							return `checkUrl passed ${checkUrl(url).hostname}`;
						} catch (error) {
							return error instanceof UrlRefused ? undefined : `threw ${(error as Error).message}`;
						}
					},
					KLASS.replace('IPv6 spellings of', 'spellings of'),
				));
		}
	}

	it('public IPv6 (2000::/3) and public IPv4 still pass', () => {
		for (const address of [
			'2606:4700:4700::1111',
			'2001:4860:4860::8888',
			'2a00:1450:4001:82b::200e',
			'93.184.216.34',
		]) {
			assert.doesNotThrow(() => checkAddress(address), address);
			assert.doesNotThrow(
				() => checkUrl(`https://${address.includes(':') ? `[${address}]` : address}/`),
				address,
			);
		}
	});
});
