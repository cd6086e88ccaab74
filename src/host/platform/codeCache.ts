import * as crypto from 'crypto';
import * as fs from 'fs';
import Module from 'module';
import * as path from 'path';
import * as vm from 'vm';

/** What a load found in the cache: used, offered and refused by V8, none yet, or no cache at all. */
export type CodeCacheState = 'used' | 'rejected' | 'absent' | 'off';

/** How the host bundle loaded, for the log line that says where the time to a chat went. */
export interface HostBundleLoad {
	loadMs: number;
	codeCache: CodeCacheState;
}

export interface CachedLoad {
	exports: unknown;
	cache: CodeCacheState;
	/** Writes the code V8 has compiled so far for the next start, once, unless this load used a cache. */
	save(): void;
}

/**
 * Loads a CommonJS bundle as `require` does (the same module record, in `require.cache`, with a
 * `require` of its own that resolves beside it), but compiles it with V8's code cache from the
 * previous start. Parsing and compiling the host bundle is most of what loading it costs, and the
 * chat's first page waits for that load; the cache makes later starts skip it.
 *
 * The cache file is named by a hash of the bundle and of V8's version. V8 itself checks only a
 * cache's source length and flags, so a cache made for another build of the same length must
 * never be offered to it: the name makes that impossible. Nor does V8 checksum a cache in release
 * builds, so the file carries a digest of its own, checked before V8 sees it. Anything wrong with
 * the cache (absent, damaged, another V8) costs only the cache: the source is compiled.
 */
export function requireWithCodeCache(file: string, cacheDir: string | undefined): CachedLoad {
	const loadedBefore = require.cache[file];
	if (loadedBefore) return { exports: loadedBefore.exports, cache: 'off', save: () => undefined };
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- no place for a cache: a plain load
	if (!cacheDir) return { exports: require(file) as unknown, cache: 'off', save: () => undefined };
	const source = fs.readFileSync(file, 'utf8');
	const key = crypto.createHash('sha256').update(process.versions.v8).update('\0').update(source).digest('hex');
	const stem = `${path.basename(file, '.js')}.`;
	const cacheFile = path.join(cacheDir, `${stem}${key.slice(0, 32)}.v8cache`);
	const stored = readIfPresent(cacheFile);
	const cachedData = stored && intact(stored);
	const script = new vm.Script(Module.wrap(source), {
		filename: file,
		cachedData,
		importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
	});
	const cache: CodeCacheState = !stored ? 'absent' : !cachedData || script.cachedDataRejected ? 'rejected' : 'used';

	const record = new Module(file, module);
	record.filename = file;
	require.cache[file] = record;
	try {
		const body = script.runInThisContext() as (...args: unknown[]) => void;
		body.call(record.exports, record.exports, Module.createRequire(file), record, file, path.dirname(file));
		record.loaded = true;
	} catch (error) {
		delete require.cache[file];
		throw error;
	}
	let saved = cache === 'used';
	const save = () => {
		if (saved) return;
		saved = true;
		try {
			writeCache(cacheDir, stem, cacheFile, script.createCachedData());
		} catch {
			// A cache that cannot be written costs the next start its compile, nothing else.
		}
	};
	return { exports: record.exports, cache, save };
}

const DIGEST_BYTES = 32;

function digest(data: Buffer): Buffer {
	return crypto.createHash('sha256').update(data).digest();
}

/** The code V8 wrote, if the digest in front of it still matches it. */
function intact(stored: Buffer): Buffer | undefined {
	const data = stored.subarray(DIGEST_BYTES);
	return stored.length > DIGEST_BYTES && digest(data).equals(stored.subarray(0, DIGEST_BYTES)) ? data : undefined;
}

function readIfPresent(file: string): Buffer | undefined {
	try {
		return fs.readFileSync(file);
	} catch {
		return undefined;
	}
}

/** Written whole or not at all (a rename), and the caches of earlier builds are removed. */
function writeCache(cacheDir: string, stem: string, cacheFile: string, data: Buffer): void {
	fs.mkdirSync(cacheDir, { recursive: true });
	const partial = `${cacheFile}.${process.pid}.partial`;
	try {
		fs.writeFileSync(partial, Buffer.concat([digest(data), data]));
		fs.renameSync(partial, cacheFile);
	} finally {
		fs.rmSync(partial, { force: true });
	}
	for (const name of fs.readdirSync(cacheDir)) {
		const other = path.join(cacheDir, name);
		if (name.startsWith(stem) && name.endsWith('.v8cache') && other !== cacheFile)
			fs.rmSync(other, { force: true });
	}
}
