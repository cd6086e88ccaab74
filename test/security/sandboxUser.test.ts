// keel.shell.user, spelled every way Docker reads a user (moby/sys/user: a sign and leading
// zeros on numbers, empty parts, names from the image's /etc/passwd and /etc/group), judged by
// asking the kernel inside the container who a command runs as. Any uid, gid or supplementary
// group 0 is root's reach over the workspace's files.
import * as fc from 'fast-check';
import * as fs from 'fs';
import { makeWorkspace, requireDocker } from '../support/dockerEngine';
import { approvedShell, resultText, wallRunner } from './support/sandboxWall';
import { attack } from './tally';

const KLASS = 'sandbox 4: keel.shell.user never runs as root';

/** Spellings Go's strconv.Atoi reads as 0. */
const zero = fc
	.tuple(fc.constantFrom('', '+', '-'), fc.integer({ min: 1, max: 6 }))
	.map(([sign, n]) => `${sign}${'0'.repeat(n)}`);
/** Ids that are not root, spelled with signs and zeros too. */
const nonRoot = fc
	.tuple(fc.constantFrom('', '+', '0', '00'), fc.constantFrom('1000', '1001', '4242'))
	.map(([prefix, id]) => `${prefix}${id}`);
/** Names: the image knows root (0) and keel (1000). */
const names = fc.constantFrom('root', 'keel');
const userPart = fc.oneof(zero, nonRoot, names, fc.constant(''));
const groupPart = fc.oneof(zero, nonRoot, names, fc.constant(''));
const spelling = fc.oneof(
	userPart,
	fc.tuple(userPart, groupPart).map(([u, g]) => `${u}:${g}`),
);

const GENERATED = [...new Set(fc.sample(spelling, { numRuns: 40, seed: 4242 }))];
const NAMED = [
	'0',
	'00',
	'+0',
	'-0',
	'0000',
	'00:00',
	':0',
	':1000',
	'1000:0',
	'0:1000',
	'root',
	'keel:root',
	'1234',
	'root:keel',
];

describe('security: the sandbox user is never root, however keel.shell.user is spelled (real engine)', function () {
	this.timeout(900_000);
	let root: string;
	before(requireDocker());
	before(() => (root = makeWorkspace({ 'a.txt': 'a\n' })));
	after(() => root && fs.rmSync(root, { recursive: true, force: true }));

	for (const user of [...new Set([...NAMED, ...GENERATED])]) {
		it(`keel.shell.user ${JSON.stringify(user)}`, () =>
			attack(
				`S4 user ${JSON.stringify(user)}`,
				async () => {
					const runner = wallRunner(root, { limits: { user } });
					try {
						const result = await approvedShell(root, runner).run('run_command', {
							command: 'echo "IDS u=$(id -u) g=$(id -g) G=$(id -G)"',
						});
						const ids = /IDS u=(\d+) g=(\d+) G=([\d ]*)/.exec(resultText(result));
						if (!ids) return undefined;
						const all = [ids[1], ids[2], ...ids[3].split(' ')].filter(Boolean).map(Number);
						return all.includes(0) ? `ran as ${ids[0]}` : undefined;
					} finally {
						await runner.disposeAsync();
					}
				},
				KLASS,
			));
	}

	it('non-root spellings still run, as the ids Docker gives them', async () => {
		for (const [user, uid, gid] of [
			['1000:1000', 1000, 1000],
			['+1000:01000', 1000, 1000],
			['keel', 1000, 1000],
			['4242:4242', 4242, 4242],
		] as const) {
			const runner = wallRunner(root, { limits: { user } });
			try {
				const text = resultText(
					await approvedShell(root, runner).run('run_command', { command: 'echo "IDS $(id -u):$(id -g)"' }),
				);
				if (!text.includes(`IDS ${uid}:${gid}`)) throw new Error(`${user}: ${text}`);
			} finally {
				await runner.disposeAsync();
			}
		}
	});
});
