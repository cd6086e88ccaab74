/**
 * Programs whose arguments become the names of files they write, as data: how each reads its
 * options (getopt.ts) and which option values and operands it writes. shellWrites.ts applies it
 * to a command's words, so every spelling the program accepts (attached, separate, `=`, an
 * abbreviated long name, bundled short flags, options after operands) yields the same target,
 * judged like a redirection's. Options whose value is a command line the program runs are listed
 * too: that line is judged like any other.
 */
import { hasOption } from './getopt';
import type { WriteRole, WriterEntry } from './writerEntry';
import { FETCHERS_AND_TOOLS } from './writerTableTools';

export type { WriteRole, WriterEntry };

const GZIP: WriterEntry = {
	grammar: {
		valued: 'S',
		longValued: ['suffix'],
		longFlags: ['stdout', 'decompress', 'test', 'list', 'keep', 'force'],
	},
	operands: 'all',
	operandRole: 'compressed',
	when: p => !hasOption(p, '-c', '--stdout', '-t', '--test', '-l', '--list'),
};

export const WRITERS: Readonly<Record<string, WriterEntry>> = {
	sort: {
		grammar: {
			valued: 'kostST',
			longValued: [
				'key',
				'output',
				'field-separator',
				'buffer-size',
				'temporary-directory',
				'files0-from',
				'parallel',
				'batch-size',
				'compress-program',
				'random-source',
				'sort',
			],
			longFlags: ['reverse', 'unique', 'numeric-sort', 'check', 'merge', 'stable', 'zero-terminated', 'debug'],
		},
		writes: { '-o': 'file', '--output': 'file', '-T': 'folder', '--temporary-directory': 'folder' },
		runs: ['--compress-program'],
	},
	shuf: {
		grammar: {
			valued: 'inio',
			longValued: ['input-range', 'head-count', 'output', 'random-source'],
			longFlags: ['echo', 'repeat', 'zero-terminated'],
		},
		writes: { '-o': 'file', '--output': 'file' },
	},
	iconv: {
		grammar: {
			valued: 'fto',
			longValued: ['from-code', 'to-code', 'output'],
			longFlags: ['list', 'silent', 'verbose'],
		},
		writes: { '-o': 'file', '--output': 'file' },
	},
	uniq: {
		grammar: {
			valued: 'fsw',
			longValued: ['skip-fields', 'skip-chars', 'check-chars'],
			longFlags: ['count', 'repeated', 'unique', 'ignore-case', 'zero-terminated', 'all-repeated', 'group'],
		},
		operands: [1],
	},
	tee: { grammar: { longFlags: ['append', 'ignore-interrupts', 'output-error'] }, operands: 'all' },
	touch: { grammar: { valued: 'drt', longValued: ['date', 'reference', 'time'] }, operands: 'all' },
	truncate: { grammar: { valued: 'rs', longValued: ['reference', 'size'] }, operands: 'all' },
	mkdir: { grammar: { valued: 'mZ', longValued: ['mode', 'context'] }, operands: 'all', operandRole: 'folder' },
	mktemp: {
		grammar: { valued: 'p', longValued: ['suffix', 'tmpdir'], longFlags: ['directory', 'dry-run', 'quiet'] },
		writes: { '-p': 'folder', '--tmpdir': 'folder' },
		operands: 'all',
		operandRole: 'prefix',
	},
	sponge: { grammar: {}, operands: 'all' },
	split: {
		grammar: {
			valued: 'abClnt',
			longValued: [
				'suffix-length',
				'additional-suffix',
				'bytes',
				'line-bytes',
				'lines',
				'number',
				'separator',
				'filter',
			],
			longFlags: ['numeric-suffixes', 'hex-suffixes', 'elide-empty-files', 'unbuffered', 'verbose'],
		},
		operands: [1],
		operandRole: 'prefix',
		runs: ['--filter'],
		unknownWith: ['--additional-suffix'],
	},
	csplit: {
		grammar: {
			valued: 'bfn',
			longValued: ['suffix-format', 'prefix', 'digits'],
			longFlags: ['keep-files', 'suppress-matched', 'quiet', 'silent', 'elide-empty-files'],
		},
		writes: { '-f': 'prefix', '--prefix': 'prefix' },
		unknownWith: ['-b', '--suffix-format'],
	},
	tar: {
		grammar: {
			valued: 'fCTXbgFIKLNVH',
			oldStyleBundle: true,
			longValued: [
				'file',
				'directory',
				'files-from',
				'exclude-from',
				'blocking-factor',
				'listed-incremental',
				'info-script',
				'new-volume-script',
				'use-compress-program',
				'to-command',
				'rsh-command',
				'checkpoint-action',
				'transform',
				'exclude',
				'format',
				'owner',
				'group',
				'mode',
				'mtime',
				'newer',
				'label',
				'index-file',
				'suffix',
			],
			longFlags: [
				'create',
				'append',
				'update',
				'catenate',
				'concatenate',
				'extract',
				'get',
				'list',
				'diff',
				'compare',
				'delete',
				'verbose',
				'gzip',
				'bzip2',
				'xz',
				'zstd',
				'auto-compress',
			],
		},
		writes: {
			'-f': 'file',
			'--file': 'file',
			'-g': 'file',
			'--listed-incremental': 'file',
			'--index-file': 'file',
		},
		runs: [
			'-I',
			'--use-compress-program',
			'-F',
			'--info-script',
			'--new-volume-script',
			'--to-command',
			'--rsh-command',
		],
		when: p =>
			hasOption(
				p,
				'-c',
				'--create',
				'-r',
				'--append',
				'-u',
				'--update',
				'-A',
				'--catenate',
				'--concatenate',
				'--delete',
			),
	},
	zip: {
		grammar: {
			valued: 'bnPtxiO',
			longValued: ['out', 'unzip-command', 'temp-path', 'suffixes', 'password', 'exclude', 'include'],
		},
		writes: { '-O': 'zip', '--out': 'zip' },
		runs: ['--unzip-command'],
		operands: [0],
		operandRole: 'zip',
	},
	dd: { grammar: {}, keys: { of: 'file' } },
	xxd: { grammar: { valued: 'cglosn', longValued: [] }, operands: [1] },
	gcc: { grammar: { valued: 'oIDLlUxeuT' }, writes: { '-o': 'file' } },
	...FETCHERS_AND_TOOLS,
	gzip: GZIP,
	bzip2: GZIP,
	xz: GZIP,
	zstd: { ...GZIP, writes: { '-o': 'file' }, grammar: { ...GZIP.grammar, valued: 'So' } },
	lz4: GZIP,
};

/** Aliases: the same grammar under another name. */
for (const [alias, name] of [
	['cc', 'gcc'],
	['g++', 'gcc'],
	['c++', 'gcc'],
	['clang', 'gcc'],
	['clang++', 'gcc'],
	['gawk', 'awk'],
	['gunzip', 'gzip'],
	['bunzip2', 'bzip2'],
	['unxz', 'xz'],
	['unzstd', 'zstd'],
] as const) {
	if (WRITERS[name]) (WRITERS as Record<string, WriterEntry>)[alias] = WRITERS[name];
}

/** Suffixes the compressors add (`-S` overrides), and the decompressors take away. */
export const COMPRESSED_SUFFIX: Readonly<Record<string, string>> = {
	gzip: '.gz',
	bzip2: '.bz2',
	xz: '.xz',
	zstd: '.zst',
	lz4: '.lz4',
};
export const DECOMPRESSORS = new Set(['gunzip', 'bunzip2', 'unxz', 'unzstd']);
