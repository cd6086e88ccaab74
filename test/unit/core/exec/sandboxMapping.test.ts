import * as assert from 'assert';
import fc from 'fast-check';
import { mapThroughMounts, ownContainerIds } from '../../../../src/core/exec/sandbox/sandboxMapping';

const ID = 'a'.repeat(20) + '0123456789abcdef'.repeat(2) + 'b'.repeat(12);
// As the kernel writes it in a Docker container (Docker 20.10 on ext4, cgroup v2).
const MOUNTINFO = [
	'612 540 0:57 / / rw,relatime master:300 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/X',
	'613 612 0:60 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw',
	`620 612 254:0 /var/lib/docker/containers/${ID}/resolv.conf /etc/resolv.conf rw,relatime - ext4 /dev/vda rw`,
	`621 612 254:0 /var/lib/docker/containers/${ID}/hostname /etc/hostname rw,relatime - ext4 /dev/vda rw`,
	'623 612 254:0 /home/me/project /workspaces/project rw,relatime - ext4 /dev/vda rw',
].join('\n');

const segment = fc.stringMatching(/^[a-z0-9._-]{1,8}$/).filter(s => s !== '.' && s !== '..');
const absolute = fc.array(segment, { minLength: 1, maxLength: 4 }).map(parts => `/${parts.join('/')}`);

describe('the workspace mapped through the container Keel runs in', () => {
	it("finds the container's id where the engine mounted /etc/hostname, then the hostname", () => {
		assert.deepStrictEqual(ownContainerIds(MOUNTINFO, 'laptop'), [ID]);
		assert.deepStrictEqual(ownContainerIds(MOUNTINFO, ID.slice(0, 12)), [ID]);
		assert.deepStrictEqual(ownContainerIds('', '0123456789ab'), ['0123456789ab']);
		// Outside a container: nothing to ask the engine about.
		assert.deepStrictEqual(ownContainerIds('22 27 0:21 / /proc rw - proc proc rw', 'laptop'), []);
	});

	it('maps a folder through the deepest mount that holds it, keeping the rest of its path', () => {
		fc.assert(
			fc.property(
				absolute,
				absolute,
				absolute,
				absolute,
				fc.array(segment, { maxLength: 3 }),
				(outer, inner, a, b, rest) => {
					const mounts = [
						{ Source: a, Destination: outer },
						{ Source: b, Destination: `${outer}${inner}` },
					];
					const tail = rest.map(part => `/${part}`).join('');
					assert.strictEqual(mapThroughMounts(`${outer}${inner}${tail}`, mounts), `${b}${tail}`);
					assert.strictEqual(mapThroughMounts(`${outer}${tail}`, mounts.slice(0, 1)), `${a}${tail}`);
				},
			),
		);
	});

	it('maps nothing that no mount holds, nor a sibling that only shares a prefix', () => {
		const mounts = [{ Source: '/home/me/project', Destination: '/workspaces/project' }];
		assert.strictEqual(mapThroughMounts('/workspaces/project', mounts), '/home/me/project');
		assert.strictEqual(mapThroughMounts('/workspaces/project-2', mounts), undefined);
		assert.strictEqual(mapThroughMounts('/srv', mounts), undefined);
	});
});
