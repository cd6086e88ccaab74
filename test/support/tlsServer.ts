// A local HTTPS server with a self-signed certificate (openssl, generated per run) so the
// network guard's TLS, redirect and pinning paths run for real. Records every request.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as https from 'https';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';

export interface TlsFixture {
	ca: Buffer;
	key: Buffer;
	cert: Buffer;
}

let cached: TlsFixture | undefined;

/** One self-signed cert valid for the given names and 93.184.216.34 (a "public" test address). */
export function selfSignedCert(names: string[]): TlsFixture {
	if (cached) {
		return cached;
	}
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-tls-'));
	const san = [...names.map(n => `DNS:${n}`), 'IP:93.184.216.34', 'IP:127.0.0.1'].join(',');
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-days',
			'2',
			'-subj',
			'/CN=keel-test',
			'-addext',
			`subjectAltName=${san}`,
			'-keyout',
			path.join(dir, 'key.pem'),
			'-out',
			path.join(dir, 'cert.pem'),
		],
		{ stdio: 'ignore' },
	);
	const cert = fs.readFileSync(path.join(dir, 'cert.pem'));
	cached = { ca: cert, cert, key: fs.readFileSync(path.join(dir, 'key.pem')) };
	fs.rmSync(dir, { recursive: true, force: true });
	return cached;
}

export interface RecordingServer {
	port: number;
	hits: Array<{ host: string; path: string }>;
	close(): Promise<void>;
}

export type Handler = (req: { host: string; path: string }, res: import('http').ServerResponse) => void;

export async function startTlsServer(tls: TlsFixture, handler: Handler): Promise<RecordingServer> {
	const hits: Array<{ host: string; path: string }> = [];
	const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
		const hit = { host: String(req.headers.host ?? ''), path: req.url ?? '/' };
		hits.push(hit);
		handler(hit, res);
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		hits,
		close: () =>
			new Promise(resolve => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
