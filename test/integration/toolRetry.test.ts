// One retry layer for tools, through the real loop, the real fetch tool and its network guard,
// against a real HTTPS server: a server that answers 503 every time gets exactly 3 requests
// (the first and 2 retries), and the chat's retry notices count those same 2 retries.
import * as assert from 'assert';
import type { AgentOptions } from '../../src/core/agent/loop/runAgent';
import { defaultToolPolicySettings, ToolPolicy } from '../../src/core/agent/toolPolicy/toolPolicy';
import { ToolRegistry } from '../../src/core/tools/registry';
import { defaultToolDeps, type ToolDeps } from '../../src/core/tools/toolDeps';
import { createWebTools } from '../../src/core/tools/web/webTools';
import { startModelDouble, text, toolCall, type ModelDouble } from '../support/modelDouble';
import { harness } from '../support/resilience/harness';
import { selfSignedCert, startTlsServer, type RecordingServer } from '../support/tlsServer';

describe('one retry layer for tools: fetch against a real HTTPS server through the loop', function () {
	this.timeout(30_000);
	let double: ModelDouble;
	let web: RecordingServer;
	let deps: ToolDeps;
	let flaky = 0;

	before(async () => {
		double = await startModelDouble();
		const tls = selfSignedCert(['docs.test']);
		web = await startTlsServer(tls, (req, res) => {
			if (req.path === '/down' || (req.path === '/flaky' && ++flaky === 1)) {
				res.statusCode = 503;
				return res.end('busy');
			}
			if (req.path === '/missing') {
				res.statusCode = 404;
				return res.end('no such page');
			}
			res.setHeader('content-type', 'text/plain');
			res.end('the docs');
		});
		deps = defaultToolDeps({
			network: {
				ca: tls.ca,
				resolver: async () => [{ address: '93.184.216.34', family: 4 }],
				route: () => ({ host: '127.0.0.1', port: web.port }),
			},
		});
	});
	beforeEach(() => {
		double.reset();
		web.hits.length = 0;
	});
	after(async () => {
		await double.close();
		await web.close();
	});

	/** The host gives each session its tool policy; the eval bench and tests may not. */
	function fetchTurn(path: string, options: { policy?: boolean; overrides?: Partial<AgentOptions> } = {}) {
		const registry = new ToolRegistry(createWebTools(deps));
		const toolPolicy = options.policy
			? new ToolPolicy(() => ({ ...defaultToolPolicySettings, infraRetryDelayMs: 5 }))
			: undefined;
		double.script(toolCall('fetch', { url: `https://docs.test${path}` }), text('Here is what I found.'));
		const pauses: number[] = [];
		const t = harness(double, 'openai', {
			registry,
			toolPolicy,
			approvalSettings: { autoApprove: { network: true } },
			// Pauses are recorded, not waited for, unless the test keeps the real clock.
			clock: options.policy ? undefined : { now: () => Date.now(), sleep: async ms => void pauses.push(ms) },
			...options.overrides,
		});
		const hits = () => web.hits.filter(h => h.path === path).length;
		const retryNotices = () => t.notices().filter(n => n.code === 'toolRetry');
		const sentBack = () => JSON.stringify(double.modelRequests[1]?.body.messages.at(-1) ?? {});
		return { t, pauses, hits, retryNotices, sentBack };
	}

	for (const policy of [false, true]) {
		it(`a server that answers 503 every time gets 3 requests and the chat says "(1/2)", "(2/2)"${policy ? ' (with the tool policy the host attaches)' : ''}`, async () => {
			const f = fetchTurn('/down', { policy });
			const outcome = await f.t.run();
			assert.strictEqual(outcome.reason, 'completed');
			assert.strictEqual(f.hits(), 3, 'the first request and 2 retries, from one layer only');
			assert.deepStrictEqual(
				f.retryNotices().map(n => n.text),
				['fetch: server error; retrying (1/2).', 'fetch: server error; retrying (2/2).'],
			);
			assert.strictEqual(f.retryNotices().length, f.hits() - 1, 'one notice per retry that reached the server');
			if (!policy) {
				assert.deepStrictEqual(f.pauses, [500, 1000]);
			}
			assert.match(
				f.sentBack(),
				/\[tool_error\]\\ncategory: server_error\\nerror: https:\/\/docs\.test\/down answered HTTP 503\./,
			);
			const cards = f.t.events.flatMap(e => (e.type === 'toolCallUpdated' ? [e.call.status] : []));
			assert.strictEqual(cards.at(-1), 'failed');
			assert.strictEqual(cards.filter(s => s === 'failed').length, 1, 'one failed card, not one per attempt');
		});
	}

	it('a server that answers 503 once gets 2 requests, and the model reads the page', async () => {
		flaky = 0;
		const f = fetchTurn('/flaky');
		await f.t.run();
		assert.strictEqual(f.hits(), 2);
		assert.strictEqual(f.retryNotices().length, 1);
		assert.match(f.sentBack(), /the docs/);
	});

	it('a 404 is an answer, not a passing failure: 1 request, no retry', async () => {
		const f = fetchTurn('/missing');
		await f.t.run();
		assert.strictEqual(f.hits(), 1);
		assert.strictEqual(f.retryNotices().length, 0);
		assert.match(f.sentBack(), /category: permanent_failure/);
	});

	it('with recovery off (the naive loop) every call runs once', async () => {
		const f = fetchTurn('/down', { overrides: { recovery: { enabled: false } } });
		await f.t.run();
		assert.strictEqual(f.hits(), 1);
		assert.strictEqual(f.retryNotices().length, 0);
	});
});
