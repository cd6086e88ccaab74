// Loading the host bundle with V8's code cache from the previous start: the bundle behaves as a
// plain `require` would load it, the second start uses the cache, and no cache ever runs in place
// of the source it was not made from (a rebuilt bundle of the same length, a damaged file).
import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { requireWithCodeCache, type CachedLoad } from '../../../../src/host/platform/codeCache';

describe('requireWithCodeCache', () => {
	let root: string;
	let bundle: string;
	let cacheDir: string;

	beforeEach(() => {
		root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-code-cache-'));
		bundle = path.join(root, 'dist', 'host.js');
		cacheDir = path.join(root, 'storage', 'code-cache');
		fs.mkdirSync(path.join(root, 'dist', 'vendor'), { recursive: true });
		fs.writeFileSync(
			path.join(root, 'dist', 'vendor', 'sdk.js'),
			'module.exports = { name: "vendor beside the bundle" };',
		);
	});
	afterEach(() => {
		forget(bundle);
		forget(path.join(root, 'dist', 'vendor', 'sdk.js'));
		fs.rmSync(root, { recursive: true, force: true });
	});

	/** A fresh start: Node forgets the bundle, as a new extension host would not have it. */
	function start(): CachedLoad {
		forget(bundle);
		return requireWithCodeCache(bundle, cacheDir);
	}

	it('loads the bundle as require does, then uses the cache it saved on the next start', () => {
		fs.writeFileSync(
			bundle,
			`const sdk = require('./vendor/sdk.js');
			exports.where = { file: __filename, dir: __dirname, self: module.id === __filename };
			exports.vendor = () => sdk.name;
			module.exports.twice = n => n * 2;`,
		);
		const first = start();
		assert.strictEqual(first.cache, 'absent');
		const api = first.exports as { where: object; vendor(): string; twice(n: number): number };
		assert.deepStrictEqual(api.where, { file: bundle, dir: path.dirname(bundle), self: true });
		assert.strictEqual(api.vendor(), 'vendor beside the bundle');
		assert.strictEqual(api.twice(21), 42);
		// In require.cache like any module, so what Keel reports as loaded includes it, and a second
		// load in the same process gives the same module.
		assert.strictEqual(require.cache[bundle]?.exports, first.exports);
		assert.strictEqual(requireWithCodeCache(bundle, cacheDir).exports, first.exports);

		first.save();
		assert.deepStrictEqual(cacheFiles(), 1);
		const second = start();
		assert.strictEqual(second.cache, 'used');
		assert.strictEqual((second.exports as typeof api).twice(4), 8);
		second.save(); // nothing to add to a cache that was used
		assert.deepStrictEqual(cacheFiles(), 1);
	});

	it('never runs a cache in place of another build, whatever the two builds are', () => {
		// Pairs of builds of the same length (V8 itself compares only the length), each saved and
		// then replaced by the other: the module always answers with the source on disk.
		const build = fc
			.tuple(fc.integer({ min: 0, max: 999 }), fc.constantFrom('+', '-', '*'), fc.integer({ min: 1, max: 9 }))
			.map(([value, op, n]) => `exports.answer = () => ${String(value).padStart(3, '0')} ${op} ${n};`);
		fc.assert(
			fc.property(fc.array(build, { minLength: 2, maxLength: 5 }), builds => {
				for (const source of builds) {
					fs.writeFileSync(bundle, source);
					const loaded = start();
					const expected = Function('exports', `${source}; return exports.answer();`)({}) as number;
					assert.strictEqual((loaded.exports as { answer(): number }).answer(), expected, source);
					loaded.save();
				}
				// Only the cache of the build on disk is kept.
				assert.strictEqual(cacheFiles(), 1);
			}),
			{ numRuns: 25 },
		);
	});

	it('compiles the source when the cache file is damaged, and replaces it', () => {
		fs.writeFileSync(bundle, 'exports.value = [1, 2, 3].map(n => n * n);');
		start().save();
		const [file] = fs.readdirSync(cacheDir);
		const whole = fs.readFileSync(path.join(cacheDir, file));
		const damages: Array<[string, Buffer]> = [
			['truncated', whole.subarray(0, whole.length >> 1)],
			['one byte flipped', Buffer.from(whole.map((byte, i) => (i === whole.length - 7 ? byte ^ 0xff : byte)))],
			['empty', Buffer.alloc(0)],
		];
		for (const [damage, bytes] of damages) {
			fs.writeFileSync(path.join(cacheDir, file), bytes);
			const loaded = start();
			assert.strictEqual(loaded.cache, 'rejected', damage);
			assert.deepStrictEqual((loaded.exports as { value: number[] }).value, [1, 4, 9], damage);
			loaded.save();
			assert.strictEqual(start().cache, 'used', `${damage}: the cache is written again`);
		}
	});

	it('loads without a cache when there is no place for one, or the place cannot be written', () => {
		fs.writeFileSync(bundle, 'exports.ok = true;');
		forget(bundle);
		const plain = requireWithCodeCache(bundle, undefined);
		assert.strictEqual(plain.cache, 'off');
		assert.strictEqual((plain.exports as { ok: boolean }).ok, true);

		fs.mkdirSync(path.dirname(cacheDir), { recursive: true });
		fs.writeFileSync(cacheDir, 'a file where the cache folder would be');
		const blocked = start();
		assert.strictEqual((blocked.exports as { ok: boolean }).ok, true);
		assert.doesNotThrow(() => blocked.save());
	});

	it('leaves no half-loaded module behind when the bundle throws', () => {
		fs.writeFileSync(bundle, 'exports.before = 1; throw new Error("broken build");');
		assert.throws(() => start(), /broken build/);
		assert.strictEqual(require.cache[bundle], undefined);
	});

	function cacheFiles(): number {
		return fs.readdirSync(cacheDir).filter(name => name.endsWith('.v8cache')).length;
	}
});

function forget(file: string): void {
	delete require.cache[file];
}
