import * as assert from 'assert';
import * as fc from 'fast-check';
import { ExecError } from '../../../../src/core/exec/execError';
import { parseSandboxUser, parseStatusIds } from '../../../../src/core/exec/sandbox/sandboxUser';

/** Go's strconv.Atoi on a decimal string, as moby/sys/user applies it to each part. */
const atoi = (text: string) => (/^[+-]?[0-9]+$/.test(text) ? Number(text.replace(/^\+/, '')) : undefined);

describe('keel.shell.user as Docker reads it', () => {
	it('refuses every spelling of uid 0 or gid 0, and an empty user part (which Docker runs as 0)', () => {
		const zero = fc
			.tuple(fc.constantFrom('', '+', '-'), fc.integer({ min: 1, max: 8 }))
			.map(([s, n]) => s + '0'.repeat(n));
		const id = fc.oneof(zero, fc.integer({ min: 1, max: 99999 }).map(String), fc.constantFrom('root', 'keel', ''));
		fc.assert(
			fc.property(id, fc.option(id, { nil: undefined }), (user, group) => {
				const setting = group === undefined ? user : `${user}:${group}`;
				const uid = atoi(user);
				const gid = group === undefined ? undefined : atoi(group);
				const root = user === '' || uid === 0 || gid === 0 || user === 'root' || group === 'root';
				let parsed: ReturnType<typeof parseSandboxUser> | undefined;
				try {
					parsed = parseSandboxUser(setting);
				} catch (error) {
					assert.ok(error instanceof ExecError, String(error));
					if (root) assert.match((error as Error).message, /must not be root/);
					return;
				}
				assert.ok(!root, `${setting} was accepted`);
				assert.ok(group !== '', `${setting}: an empty group part is refused`);
				// Numbers reach Docker in their plain form, so what was judged is what runs.
				if (uid !== undefined) assert.strictEqual(parsed.uid, uid);
				if (gid !== undefined) assert.strictEqual(parsed.gid, gid);
				assert.strictEqual(parsed.docker, [parsed.uid, parsed.gid].filter(x => x !== undefined).join(':'));
			}),
			{ numRuns: 2000 },
		);
	});

	it('says what to write for malformed values', () => {
		assert.throws(() => parseSandboxUser('1000:1000:0'), /more than one ":"/);
		assert.throws(() => parseSandboxUser('1000:'), /name the group/);
		assert.throws(() => parseSandboxUser('-5'), /not a user id/);
		assert.throws(() => parseSandboxUser('4294967296'), /not a user id/);
		assert.throws(() => parseSandboxUser('0x10'), /not uid:gid/);
		assert.deepStrictEqual(parseSandboxUser('+01000:0042'), { docker: '1000:42', uid: 1000, gid: 42 });
		assert.deepStrictEqual(parseSandboxUser('keel'), { docker: 'keel', uid: 'keel', gid: undefined });
	});

	it('reads the ids the kernel reports in /proc/self/status', () => {
		const status = 'Name:\tsh\nUid:\t1000\t1000\t1000\t1000\nGid:\t0\t0\t0\t0\nGroups:\t0 27 \n';
		assert.deepStrictEqual(parseStatusIds(status), {
			uid: [1000, 1000, 1000, 1000],
			gid: [0, 0, 0, 0],
			groups: [0, 27],
		});
		assert.deepStrictEqual(parseStatusIds('Uid:\t5\t5\t5\t5\nGid:\t5\t5\t5\t5\nGroups:\t\n').groups, []);
	});
});
