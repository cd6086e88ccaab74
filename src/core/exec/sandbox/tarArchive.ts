/**
 * The little of tar the copied workspace needs: the engine's archive API (`docker cp`) takes
 * and gives tar streams. Written: folders, regular files and symbolic links with the sandbox
 * user as owner, a PAX record for a name or link longer than ustar holds. Read: the files of an
 * archive the engine made (PAX and GNU long names understood, everything else skipped).
 */
import * as fs from 'fs';

export type TarEntry =
	| { type: 'dir'; name: string; mode: number }
	| { type: 'file'; name: string; mode: number; host: string; size: number }
	| { type: 'link'; name: string; target: string };

const BLOCK = 512;

function octal(value: number, width: number): string {
	return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, kind: string, size: number, mode: number, owner: Owner, link = ''): Buffer {
	const block = Buffer.alloc(BLOCK);
	block.write(name, 0, 100, 'utf8');
	block.write(octal(mode & 0o7777, 8), 100, 'ascii');
	block.write(octal(owner.uid, 8), 108, 'ascii');
	block.write(octal(owner.gid, 8), 116, 'ascii');
	block.write(octal(size, 12), 124, 'ascii');
	block.write(octal(Math.floor(Date.now() / 1000), 12), 136, 'ascii');
	block.write(' '.repeat(8), 148, 'ascii');
	block.write(kind, 156, 'ascii');
	block.write(link, 157, 100, 'utf8');
	block.write('ustar\x0000', 257, 'ascii');
	let sum = 0;
	for (const byte of block) sum += byte;
	block.write(octal(sum, 7) + ' ', 148, 'ascii');
	return block;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** A PAX record set for what ustar cannot hold (a name or link target over 100 bytes). */
function pax(name: string, link: string | undefined, owner: Owner): Buffer[] {
	const records = [['path', name], ...(link !== undefined ? [['linkpath', link]] : [])]
		.map(([key, value]) => {
			const body = ` ${key}=${value}\n`;
			// The record's length counts its own digits.
			let length = Buffer.byteLength(body) + 1;
			while (String(length).length + Buffer.byteLength(body) !== length) length++;
			return `${length}${body}`;
		})
		.join('');
	const data = Buffer.from(records, 'utf8');
	return [header('././@PaxHeader', 'x', data.length, 0o644, owner), data, padding(data.length)];
}

export interface Owner {
	uid: number;
	gid: number;
}

/** The archive of `entries`, streamed (file contents are read as the engine takes them). */
export async function* tarStream(entries: Iterable<TarEntry>, owner: Owner): AsyncGenerator<Buffer> {
	for (const entry of entries) {
		const name = entry.type === 'dir' ? `${entry.name.replace(/\/+$/, '')}/` : entry.name;
		const link = entry.type === 'link' ? entry.target : undefined;
		if (Buffer.byteLength(name) > 99 || (link !== undefined && Buffer.byteLength(link) > 99)) {
			yield* pax(name, link, owner);
		}
		if (entry.type === 'dir') {
			yield header(name, '5', 0, entry.mode, owner);
		} else if (entry.type === 'link') {
			yield header(name, '2', 0, 0o777, owner, entry.target);
		} else {
			// The size said in the header is what is sent: a file that grew is cut, one that shrank is padded.
			let bytes: Buffer;
			try {
				bytes = await fs.promises.readFile(entry.host);
			} catch {
				bytes = Buffer.alloc(0);
			}
			const data =
				bytes.length === entry.size
					? bytes
					: Buffer.concat([bytes, Buffer.alloc(entry.size)]).subarray(0, entry.size);
			yield header(name, '0', data.length, entry.mode, owner);
			yield data;
			yield padding(data.length);
		}
	}
	yield Buffer.alloc(BLOCK * 2);
}

/** The regular files of an archive, by name (as the archive names them). */
export function tarFiles(archive: Buffer): Map<string, Buffer> {
	const files = new Map<string, Buffer>();
	let longName: string | undefined;
	for (let at = 0; at + BLOCK <= archive.length;) {
		const block = archive.subarray(at, at + BLOCK);
		if (block.every(byte => byte === 0)) break;
		const text = (start: number, length: number) =>
			block
				.subarray(start, start + length)
				.toString('utf8')
				.replace(/\0.*$/s, '');
		const size = parseInt(text(124, 12).trim() || '0', 8);
		const kind = text(156, 1) || '0';
		const data = archive.subarray(at + BLOCK, at + BLOCK + size);
		at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
		if (kind === 'x') {
			longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1] ?? longName;
			continue;
		}
		if (kind === 'L') {
			longName = data.toString('utf8').replace(/\0.*$/s, '');
			continue;
		}
		const prefix = text(345, 155);
		const name = longName ?? (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100));
		longName = undefined;
		if (kind === '0' || kind === '7') files.set(name, Buffer.from(data));
	}
	return files;
}
