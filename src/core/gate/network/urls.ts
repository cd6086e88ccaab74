/**
 * The network guard behind fetch and web_scrape. https only; the host name is resolved ONCE,
 * every address it resolves to must be public unicast (ipaddr.js ranges: private, loopback,
 * link-local, unique-local, CGNAT, IPv4-mapped, NAT64, 6to4, Teredo, reserved all refused),
 * and the connection is pinned to the checked address, so a DNS answer that changes between
 * check and connect (rebinding) cannot redirect it. Redirects (≤ 3) go through all of it again.
 */
import * as dns from 'dns';
import * as https from 'https';
import ipaddr from 'ipaddr.js';
import { withTimeout } from '../../util/abort';

export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

export interface NetworkOptions {
	resolver?: Resolver;
	timeoutMs?: number;
	maxBytes?: number;
	maxRedirects?: number;
	/** Extra trusted CA (tests run a local HTTPS server with a self-signed certificate). */
	ca?: string | Buffer;
	/**
	 * Test seam, code-only (never from settings): where to actually dial a checked, public
	 * address. Lets a test serve "93.184.216.34:443" from a local server after the guard passed it.
	 */
	route?: (address: string, port: number) => { host: string; port: number };
}

export class UrlRefused extends Error {}

const systemResolver: Resolver = host => dns.promises.lookup(host, { all: true, verbatim: true });
const ALLOWED_PORTS = new Set(['', '443', '8443']);
const BLOCKED_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa', '.intranet', '.corp'];

/** Parses and checks the URL itself; throws UrlRefused with the reason. */
export function checkUrl(raw: string): URL {
	let url: URL;
	try {
		url = new URL(raw.trim());
	} catch {
		throw new UrlRefused(`"${raw}" is not a valid URL. Give a full https:// URL.`);
	}
	if (url.protocol !== 'https:') {
		throw new UrlRefused(`Only https:// URLs can be fetched (got ${url.protocol}).`);
	}
	if (url.username || url.password) {
		throw new UrlRefused('URLs with embedded credentials (user:pass@) are refused.');
	}
	if (!ALLOWED_PORTS.has(url.port)) {
		throw new UrlRefused(`Port ${url.port} is refused; only the standard https ports (443, 8443) are allowed.`);
	}
	const host = url.hostname
		.replace(/^\[|\]$/g, '')
		.replace(/\.+$/, '')
		.toLowerCase();
	if (
		host === 'localhost' ||
		BLOCKED_SUFFIXES.some(s => host.endsWith(s)) ||
		(!host.includes('.') && !ipaddr.isValid(host))
	) {
		throw new UrlRefused(`${host} is a local or internal host name; only public hosts can be fetched.`);
	}
	if (ipaddr.isValid(host)) {
		checkAddress(host);
	}
	return url;
}

/** Throws unless the address is public unicast. IPv4-mapped IPv6 is judged by the IPv4 it carries, and refused anyway. */
export function checkAddress(address: string): void {
	if (!ipaddr.isValid(address)) {
		throw new UrlRefused(`${address} is not an IP address.`);
	}
	const parsed = ipaddr.parse(address);
	const range = parsed.range();
	if (range !== 'unicast') {
		throw new UrlRefused(`${address} is a ${range} address; only public addresses can be fetched.`);
	}
	// Public IPv6 is 2000::/3 only. What ipaddr.js calls unicast outside it (the IPv4-compatible
	// ::a.b.c.d that the URL parser writes as [::7f00:1], unassigned ranges) carries no public host.
	if (parsed instanceof ipaddr.IPv6 && !parsed.match(ipaddr.IPv6.parseCIDR('2000::/3'))) {
		throw new UrlRefused(
			`${address} is outside the public IPv6 range (2000::/3); only public addresses can be fetched.`,
		);
	}
}

export interface FetchedPage {
	url: string;
	status: number;
	contentType: string;
	body: Buffer;
	truncated: boolean;
	redirects: string[];
	/** The address each hop connected to, after its check. */
	addresses: string[];
}

/** `onRedirect` sees each hop's URL before it is requested and throws UrlRefused to stop there. */
export async function guardedFetch(
	raw: string,
	options: NetworkOptions,
	signal: AbortSignal,
	onRedirect?: (from: URL, to: URL) => void,
): Promise<FetchedPage> {
	const maxRedirects = options.maxRedirects ?? 3;
	const redirects: string[] = [];
	const addresses: string[] = [];
	const combined = withTimeout(signal, options.timeoutMs ?? 15_000);
	let url = checkUrl(raw);
	for (let hop = 0; ; hop++) {
		const address = await resolveChecked(url.hostname.replace(/^\[|\]$/g, ''), options.resolver ?? systemResolver);
		addresses.push(address);
		const response = await request(url, address, options, combined);
		const location = response.headers.location;
		if (response.status >= 300 && response.status < 400 && location) {
			if (hop >= maxRedirects) {
				throw new UrlRefused(`Stopped after ${maxRedirects} redirects (last: ${url.href}).`);
			}
			const next = checkUrl(new URL(location, url).href);
			onRedirect?.(url, next);
			url = next;
			redirects.push(url.href);
			continue;
		}
		return {
			url: url.href,
			status: response.status,
			contentType: String(response.headers['content-type'] ?? ''),
			body: response.body,
			truncated: response.truncated,
			redirects,
			addresses,
		};
	}
}

async function resolveChecked(host: string, resolver: Resolver): Promise<string> {
	if (ipaddr.isValid(host)) {
		checkAddress(host);
		return host;
	}
	const answers = await resolver(host);
	if (answers.length === 0) {
		throw new UrlRefused(`${host} did not resolve.`);
	}
	// Every answer must be public: a mix of public and private is a classic rebinding setup.
	answers.forEach(answer => checkAddress(answer.address));
	return answers[0].address;
}

function request(
	url: URL,
	address: string,
	options: NetworkOptions,
	signal: AbortSignal,
): Promise<{
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
	truncated: boolean;
}> {
	const maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
	const port = Number(url.port || 443);
	const target = options.route ? options.route(address, port) : { host: address, port };
	return new Promise((resolve, reject) => {
		const req = https.request(
			{
				host: target.host,
				port: target.port,
				path: url.pathname + url.search,
				method: 'GET',
				// TLS is still verified against the real host name: pinning the IP must not weaken the certificate check.
				servername: ipaddr.isValid(url.hostname.replace(/^\[|\]$/g, '')) ? undefined : url.hostname,
				headers: {
					Host: url.host,
					'User-Agent': 'Keel (VS Code extension)',
					Accept: 'text/html,text/plain,application/json;q=0.9,*/*;q=0.5',
					'Accept-Encoding': 'identity',
				},
				ca: options.ca,
				signal,
				agent: false,
			},
			response => {
				const chunks: Buffer[] = [];
				let size = 0;
				let truncated = false;
				response.on('data', (chunk: Buffer) => {
					if (size + chunk.length > maxBytes) {
						chunks.push(chunk.subarray(0, maxBytes - size));
						size = maxBytes;
						truncated = true;
						response.destroy();
						finish();
						return;
					}
					chunks.push(chunk);
					size += chunk.length;
				});
				let done = false;
				const finish = () => {
					if (!done) {
						done = true;
						resolve({
							status: response.statusCode ?? 0,
							headers: response.headers,
							body: Buffer.concat(chunks),
							truncated,
						});
					}
				};
				response.on('end', finish);
				response.on('error', error => (truncated ? finish() : reject(error)));
			},
		);
		req.on('error', reject);
		req.end();
	});
}
