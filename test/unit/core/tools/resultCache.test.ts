import * as assert from 'assert';
import { canonicalArguments, isCacheable, ToolResultCache } from '../../../../src/core/tools/resultCache';
import { overflowThreshold } from '../../../../src/core/tools/toolSystemConfig';

describe('session result cache', () => {
	const settings = { enabled: true, ttlSeconds: 300 };

	it('caches reads, listings, searches, fetches and diagnostics; never commands, writes or MCP tools', () => {
		assert.ok(isCacheable({ name: 'read_file', effect: 'read' }));
		assert.ok(isCacheable({ name: 'fetch', effect: 'network' }));
		assert.ok(!isCacheable({ name: 'run_command', effect: 'exec' }));
		assert.ok(!isCacheable({ name: 'write_file', effect: 'write' }));
		assert.ok(!isCacheable({ name: 'mcp_github_search', effect: 'read' }));
	});

	it('keys on canonical arguments: key order and ./ do not matter', () => {
		const cache = new ToolResultCache();
		assert.strictEqual(canonicalArguments({ b: 1, a: [{ d: 2, c: 3 }] }), '{"a":[{"c":3,"d":2}],"b":1}');
		assert.strictEqual(
			cache.key('read_file', { path: './src/a.ts', offset: 1 }),
			cache.key('read_file', { offset: 1, path: 'src/a.ts' }),
		);
	});

	it('expires after the TTL (0 = never) and is scoped to the session', () => {
		let now = 0;
		const cache = new ToolResultCache(() => now);
		cache.set('s1', 'k', { ok: true, display: 'x' }, ['a.txt']);
		assert.ok(cache.get('s1', 'k', settings));
		assert.strictEqual(cache.get('s2', 'k', settings), undefined);
		now = 301_000;
		assert.ok(cache.get('s1', 'k', { enabled: true, ttlSeconds: 0 }));
		assert.strictEqual(cache.get('s1', 'k', settings), undefined);
	});

	it('a write drops the entries covering its path: the file, its folders, the workspace-wide ones', () => {
		const cache = new ToolResultCache();
		cache.set('s', 'file', { ok: true, display: '' }, ['src/a.ts']);
		cache.set('s', 'folder', { ok: true, display: '' }, ['src']);
		cache.set('s', 'other', { ok: true, display: '' }, ['docs/b.md']);
		cache.set('s', 'grep-all', { ok: true, display: '' }, ['']);
		cache.set('s', 'url', { ok: true, display: '' }, []);
		cache.invalidatePaths(['./src/a.ts']);
		assert.deepStrictEqual(
			['file', 'folder', 'other', 'grep-all', 'url'].filter(k => cache.get('s', k, settings)),
			['other', 'url'],
		);
		cache.invalidatePaths(['']);
		assert.deepStrictEqual(
			['other', 'url'].filter(k => cache.get('s', k, settings)),
			['url'],
		);
	});
});

describe('result cache: tool-wide invalidation', () => {
	it('drops every entry of one tool (diagnostics after the problems changed)', () => {
		const cache = new ToolResultCache();
		const settings = { enabled: true, ttlSeconds: 0 };
		cache.set('s', cache.key('diagnostics', {}), { ok: true, display: '' }, ['']);
		cache.set('s', cache.key('read_file', { path: 'a' }), { ok: true, display: '' }, ['a']);
		cache.invalidateTool('diagnostics');
		assert.strictEqual(cache.get('s', cache.key('diagnostics', {}), settings), undefined);
		assert.ok(cache.get('s', cache.key('read_file', { path: 'a' }), settings));
	});
});

describe('overflow threshold', () => {
	it('follows the context window: a share of it at ~4 characters per token, never below 2,000', () => {
		assert.strictEqual(overflowThreshold(32768), 39322);
		assert.strictEqual(overflowThreshold(4096, 0.3), 4915);
		assert.strictEqual(overflowThreshold(200_000, 0.3), 240_000);
		assert.strictEqual(overflowThreshold(1024, 0.1), 2000);
		assert.strictEqual(overflowThreshold(Number.NaN), 39322);
	});
});
