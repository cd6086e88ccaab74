import * as crypto from 'crypto';
import * as fs from 'fs';

/**
 * Damage that leaves no journal, found cheaply on open.
 *
 * A killed window cannot damage the file without leaving a journal (its cut commit is rolled
 * back from it, storeLock.ts). What can is below SQLite: a power cut or an OS crash on a disk
 * that acknowledged writes it had not made (torn or lost pages), or a disk fault that changes
 * bytes later. SQLite's full check finds such damage but reads and cross-checks every page
 * (hundreds of ms for a long history), too slow for every open. Instead:
 *
 * - When a store closes (and after a full check), it seals the file: its size, modification
 *   time and SHA-256 go into `<db>.seal`. On open, a file whose size and time still match its
 *   seal was not written since; its hash must match too, or its bytes changed with no write to
 *   explain them (a disk fault), and the full check runs. Hashing runs at disk speed in native
 *   code, a few ms for a history of thousands of messages (bench/store.bench.ts).
 * - A file written after its seal was written by a window that has not closed it yet, or one
 *   that was killed (the journal covers that), unless the last write came before this computer
 *   started: then the machine went down with the file open, a cut write may not have reached
 *   the disk, and the full check runs, once.
 *
 * Either way the check repairs what is derived data or reports the file (repair.ts).
 */

interface Seal {
	size: number;
	mtimeMs: number;
	sha256: string;
}

/** A clock adjusted a little since boot must not make a write look older than the boot. */
const BOOT_SLACK_MS = 60_000;

export function sealFile(file: string): string {
	return `${file}.seal`;
}

/**
 * Why the whole file must be checked, or undefined when the cheap test passes. Call it holding
 * the file's lock, so no window writes while it is hashed.
 */
export function whyCheck(file: string, booted: number): string | undefined {
	const stat = fs.statSync(file);
	const seal = readSeal(file);
	if (seal && seal.size === stat.size && Math.abs(seal.mtimeMs - stat.mtimeMs) < 1) {
		return hashFile(file) === seal.sha256
			? undefined
			: 'its bytes changed on disk since Keel last closed it, with no write to explain it (a disk fault?)';
	}
	if (stat.mtimeMs < booted - BOOT_SLACK_MS) {
		return 'it was last written before this computer started and was not closed cleanly (a power cut or a crash may have cut a write)';
	}
	return undefined;
}

/** Records the file as it is now. Call it holding the file's lock, with nothing left to write. */
export function writeSeal(file: string): void {
	const sha256 = hashFile(file);
	const { size, mtimeMs } = fs.statSync(file);
	const temporary = `${sealFile(file)}.${process.pid}`;
	fs.writeFileSync(temporary, JSON.stringify({ size, mtimeMs, sha256 } satisfies Seal));
	fs.renameSync(temporary, sealFile(file));
}

function readSeal(file: string): Seal | undefined {
	try {
		const seal = JSON.parse(fs.readFileSync(sealFile(file), 'utf8')) as Partial<Seal>;
		return typeof seal.size === 'number' && typeof seal.mtimeMs === 'number' && typeof seal.sha256 === 'string'
			? (seal as Seal)
			: undefined;
	} catch {
		return undefined; // None yet, or cut by a crash: the time test decides.
	}
}

/** SHA-256 of the file, read in 1 MB pieces so a large history is never held in memory. */
function hashFile(file: string): string {
	const hash = crypto.createHash('sha256');
	const buffer = Buffer.allocUnsafe(1 << 20);
	const fd = fs.openSync(file, 'r');
	try {
		for (let read; (read = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0;) {
			hash.update(buffer.subarray(0, read));
		}
	} finally {
		fs.closeSync(fd);
	}
	return hash.digest('hex');
}
