// fetch and web_scrape against a local HTTPS server (self-signed), routed through the guard.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { tempTree, type TempTree } from '../../support/tempTree';
import { selfSignedCert, startTlsServer, type RecordingServer } from '../../support/tlsServer';
import { toolHarness, type Harness } from '../../support/toolHarness';

describe('web tools', () => {
	let server: RecordingServer;
	let tree: TempTree;
	let h: Harness;

	before(async () => {
		const tls = selfSignedCert(['docs.test']);
		server = await startTlsServer(tls, (req, res) => {
			if (req.path === '/missing') {
				res.statusCode = 404;
				return res.end('nope');
			}
			if (req.path === '/image') {
				res.setHeader('content-type', 'image/png');
				return res.end(Buffer.from([137, 80, 78, 71]));
			}
			res.setHeader('content-type', 'text/html; charset=utf-8');
			res.end(
				'<html><head><title>Docs</title><script>track()</script></head><body><nav>menu</nav><main><h1>Install</h1><p>Run <code>npm i keel</code>.</p><ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul></main></body></html>',
			);
		});
		tree = tempTree('keel-web-');
		fs.mkdirSync(path.join(tree.base, 'ws'));
		h = toolHarness(path.join(tree.base, 'ws'), {
			deps: {
				network: {
					ca: tls.ca,
					resolver: async () => [{ address: '93.184.216.34', family: 4 }],
					route: () => ({ host: '127.0.0.1', port: server.port }),
				},
			},
		});
	});
	after(async () => {
		await server.close();
		tree.cleanup();
	});

	it('fetch turns a page into readable text without scripts or navigation', async () => {
		const result = await h.run('fetch', { url: 'https://docs.test/install' });
		assert.ok(result.ok, result.output);
		assert.match(
			result.output,
			/^# Docs\nSource: https:\/\/docs\.test\/install\n\n# Install\nRun npm i keel\.\n- A\n- B/,
		);
		assert.ok(!/track\(\)|menu/.test(result.output));
	});

	it('web_scrape extracts text or an attribute per CSS selector', async () => {
		assert.strictEqual(
			(await h.run('web_scrape', { url: 'https://docs.test/', selector: 'main li a' })).output,
			'1. A\n2. B',
		);
		assert.strictEqual(
			(await h.run('web_scrape', { url: 'https://docs.test/', selector: 'li a', attribute: 'href' })).output,
			'1. /a\n2. /b',
		);
		assert.match(
			(await h.run('web_scrape', { url: 'https://docs.test/', selector: 'table' })).output,
			/No elements match/,
		);
	});

	it('reports HTTP errors and non-text bodies as results the model can act on', async () => {
		assert.match((await h.run('fetch', { url: 'https://docs.test/missing' })).output, /answered HTTP 404/);
		assert.match((await h.run('fetch', { url: 'https://docs.test/image' })).output, /image\/png, not text/);
	});

	it('asks before fetching unless network tools are auto-approved', async () => {
		const asking = toolHarness(path.join(tree.base, 'ws'), {
			settings: { autoApprove: { read: true } },
			deps: h.deps,
		});
		const before = server.hits.length;
		const result = await asking.run('fetch', { url: 'https://docs.test/' });
		assert.strictEqual(result.card.status, 'denied');
		assert.strictEqual(asking.approver.requests.length, 1);
		assert.strictEqual(server.hits.length, before);
	});
});
