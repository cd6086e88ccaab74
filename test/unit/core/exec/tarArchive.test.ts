// The copied workspace's archives, judged by the authority on tar: GNU tar extracts what Keel
// writes (long and non-ASCII names, folders, links, contents byte for byte), and Keel reads the
// files of what GNU tar writes, in its ustar, GNU (long-name entries) and PAX formats.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import { tarFiles, tarStream, type TarEntry } from '../../../../src/core/exec/sandbox/tarArchive';

// A name segment: anything a file system holds but '/' and NUL, up to 60 characters (so paths pass 100 bytes).
const segment = fc
	.string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
	.filter(s => !/[/\0]/.test(s) && s !== '.' && s !== '..' && Buffer.byteLength(s) < 200);
const files = fc.uniqueArray(
	fc.record({ dirs: fc.array(segment, { maxLength: 3 }), name: segment, bytes: fc.uint8Array({ maxLength: 2000 }) }),
	{ minLength: 1, maxLength: 6, selector: f => [...f.dirs, f.name].join('/').toLowerCase() },
);

async function collect(stream: AsyncGenerator<Buffer>): Promise<Buffer> {
	const parts: Buffer[] = [];
	for await (const part of stream) parts.push(part);
	return Buffer.concat(parts);
}

describe('tar archives of the copied workspace', function () {
	this.timeout(60_000);
	let scratch: string;
	beforeEach(() => (scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-tar-'))));
	afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

	it('GNU tar extracts what Keel writes: every folder, file and link, byte for byte', async () => {
		await fc.assert(
			fc.asyncProperty(files, async cases => {
				const source = fs.mkdtempSync(path.join(scratch, 'src-'));
				const out = fs.mkdtempSync(path.join(scratch, 'out-'));
				const entries: TarEntry[] = [];
				const dirs = new Set<string>();
				cases.forEach((c, i) => {
					const host = path.join(source, String(i));
					fs.writeFileSync(host, c.bytes);
					c.dirs.forEach((_, d) => dirs.add(c.dirs.slice(0, d + 1).join('/')));
					entries.push({
						type: 'file',
						name: [...c.dirs, c.name].join('/'),
						mode: 0o640,
						host,
						size: c.bytes.length,
					});
				});
				// A name may not be both a folder and a file: drop the cases the generator made so.
				const clash = entries.some(e => dirs.has(e.name));
				fc.pre(!clash);
				const all: TarEntry[] = [
					...[...dirs].sort().map(name => ({ type: 'dir' as const, name, mode: 0o755 })),
					...entries,
				];
				all.push({ type: 'link', name: `link-${'x'.repeat(120)}`, target: `${'y/'.repeat(70)}target` });
				const archive = path.join(scratch, 'a.tar');
				fs.writeFileSync(archive, await collect(tarStream(all, { uid: 1000, gid: 1000 })));
				execFileSync('tar', ['-xf', archive, '-C', out, '--no-same-owner']);
				cases.forEach((c, i) => {
					const got = fs.readFileSync(path.join(out, ...c.dirs, c.name));
					assert.deepStrictEqual(got, Buffer.from(c.bytes), `${entries[i].name}`);
				});
				assert.strictEqual(
					fs.readlinkSync(path.join(out, `link-${'x'.repeat(120)}`)),
					`${'y/'.repeat(70)}target`,
				);
				const listed = execFileSync('tar', ['-tvf', archive, '--numeric-owner'], { encoding: 'utf8' });
				assert.match(listed, /1000\/1000/);
			}),
			{ numRuns: 25 },
		);
	});

	for (const format of ['ustar', 'gnu', 'pax']) {
		it(`reads the files GNU tar writes in the ${format} format`, () => {
			const source = fs.mkdtempSync(path.join(scratch, 'src-'));
			const long = `${'deep/'.repeat(format === 'ustar' ? 20 : 40)}ü-file.txt`;
			fs.mkdirSync(path.join(source, path.dirname(long)), { recursive: true });
			fs.writeFileSync(path.join(source, long), 'long\n');
			fs.writeFileSync(path.join(source, 'short.bin'), Buffer.from([0, 1, 2, 255]));
			const archive = execFileSync('tar', ['-c', `--format=${format}`, '-C', source, long, 'short.bin']);
			const read = tarFiles(archive);
			assert.deepStrictEqual([...read.keys()].sort(), [long, 'short.bin'].sort());
			assert.strictEqual(read.get(long)?.toString(), 'long\n');
			assert.deepStrictEqual(read.get('short.bin'), Buffer.from([0, 1, 2, 255]));
		});
	}
});
