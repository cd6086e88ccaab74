// A name has two Unicode spellings, composed (NFC: "é" one code point) and decomposed (NFD: "e"
// and a combining accent). Linux stores the bytes it is given; macOS file systems may hand back
// either. A deny glob typed in one form must still cover a file stored in the other, through
// every way of reading, listing or writing it. Everything is auto-approved: the path policy
// alone must hold.
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_ALLOW_READ, DEFAULT_DENY_READ, type PathPolicy } from '../../src/core/gate/paths/pathPolicy';
import { CANARY, shellFixture, type ShellFixture } from './support/shellFixture';
import { attack } from './tally';

const KLASS = 'kernel paths: Unicode normal forms against deny globs';
const NFC = (s: string) => s.normalize('NFC');
const NFD = (s: string) => s.normalize('NFD');

/** Deny globs typed in one form; files stored in the other (and in the same, as a control). */
const POLICY: PathPolicy = {
	denyRead: [...DEFAULT_DENY_READ, NFC('**/sécret*'), NFD('**/clé*'), NFC('**/Überweisung/**')],
	allowRead: DEFAULT_ALLOW_READ,
	alwaysAsk: [NFD('**/réglages/**'), NFC('**/ñame.json')],
};
const FILES: Record<string, string> = {
	[NFD('sécret.txt')]: 'CANARY_NFD_7001\n',
	[NFC('clé.txt')]: 'CANARY_NFC_7002\n',
	[NFD('docs/sécret-notes.md')]: 'CANARY_NFDDOC_7003\n',
	[NFD('Überweisung/plan.txt')]: 'CANARY_NFDDIR_7004\n',
	[NFC('sécret-same.txt')]: 'CANARY_SAME_7005\n',
};
const NAMES = Object.keys(FILES).map(f => f.split('/').pop()!);

describe('security: deny globs hold whatever Unicode form a name is stored in', function () {
	this.timeout(30_000);
	let f: ShellFixture;
	before(() => {
		f = shellFixture({ policy: POLICY });
		for (const [file, content] of Object.entries(FILES)) {
			fs.mkdirSync(path.dirname(path.join(f.ws, file)), { recursive: true });
			fs.writeFileSync(path.join(f.ws, file), content);
		}
		fs.mkdirSync(path.join(f.ws, NFC('réglages')), { recursive: true });
	});
	after(() => f.tree.cleanup());

	const reads: Array<[string, Record<string, unknown>]> = [
		...Object.keys(FILES).flatMap(file => [
			['read_file', { path: file }] as [string, Record<string, unknown>],
			['run_command', { command: `cat '${file}'` }] as [string, Record<string, unknown>],
			['run_command', { command: `head -n 3 "${file}"` }] as [string, Record<string, unknown>],
			['copy_path', { from: file, to: 'copied.txt' }] as [string, Record<string, unknown>],
			['run_command', { command: `cp '${file}' /dev/stdout` }] as [string, Record<string, unknown>],
		]),
		['grep', { pattern: 'CANARY' }],
		['grep', { pattern: 'CANARY', path: 'docs' }],
		['run_command', { command: 'grep -rh CANARY .' }],
		['run_command', { command: 'cat s*cret*' }],
		['run_command', { command: 'cat cl*' }],
		['run_command', { command: 'cat docs/*' }],
		['run_command', { command: `cat ${NFD('Überweisung')}/*` }],
		['run_command', { command: `tail ${NFC('Überweisung')}*/plan.txt` }],
	];
	for (const [tool, input] of reads) {
		it(`${tool} ${JSON.stringify(input)}`, () =>
			attack(
				`unicode ${tool} ${JSON.stringify(input)}`,
				async () => {
					const result = await f.h.run(tool, input);
					const leak = CANARY.exec(`${result.output}`);
					const copied = path.join(f.ws, 'copied.txt');
					const copiedLeak = fs.existsSync(copied) && CANARY.test(fs.readFileSync(copied, 'utf8'));
					fs.rmSync(copied, { force: true });
					if (leak || copiedLeak) return `${leak?.[0] ?? 'a canary copied in'} (card ${result.card.status})`;
					return undefined;
				},
				KLASS,
			));
	}

	// Listings never show a deny-read name (docs: grep, find_path and list_directory hide them).
	for (const [tool, input] of [
		['find_path', { pattern: '**/*' }],
		['list_directory', { path: '' }],
		['list_directory', { path: 'docs' }],
	] as Array<[string, Record<string, unknown>]>) {
		it(`${tool} ${JSON.stringify(input)} hides the names`, () =>
			attack(
				`unicode listing ${tool} ${JSON.stringify(input)}`,
				async () => {
					const result = await f.h.run(tool, input);
					const text = NFC(`${result.output}`);
					const shown = NAMES.filter(name => text.includes(NFC(name)));
					return shown.length ? `listed ${shown.join(', ')}` : undefined;
				},
				KLASS,
			));
	}

	// keel.permissions.alwaysAsk typed in one form: a write in the other still asks.
	for (const target of [NFC('réglages/x.json'), NFD('réglages/x.json'), NFD('ñame.json'), NFC('ñame.json')]) {
		for (const [tool, input] of [
			['write_file', { path: target, content: 'x' }],
			['run_command', { command: `echo x > '${target}'` }],
		] as Array<[string, Record<string, unknown>]>) {
			it(`${tool} ${JSON.stringify(input)} asks`, () =>
				attack(
					`unicode always-ask ${tool} ${JSON.stringify(input)}`,
					async () => {
						fs.rmSync(path.join(f.ws, target), { force: true });
						const result = await f.h.run(tool, input);
						const written = fs.existsSync(path.join(f.ws, target));
						fs.rmSync(path.join(f.ws, target), { force: true });
						return written ? `wrote ${target} without a card (${result.card.status})` : undefined;
					},
					KLASS,
				));
		}
	}
});
