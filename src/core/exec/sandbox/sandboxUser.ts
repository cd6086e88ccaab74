import type Docker from 'dockerode';
import { Writable } from 'stream';
import { ExecError } from '../execError';

/**
 * keel.shell.user as Docker reads it (moby/sys/user GetExecUser): "user[:group]", each part a
 * number when Go's strconv.Atoi takes it (a sign and leading zeros allowed, so `+0`, `-0`, `00`
 * are 0), else a name looked up in the image's /etc/passwd or /etc/group. An empty user part
 * means uid 0, and an absent group means the passwd entry's group, or 0 when there is none.
 * Numbers are handed to Docker in their plain form, so what was judged is what runs; names and
 * an absent group are judged by the kernel after the container starts (verifyRunningUser).
 */
export interface SandboxUser {
	/** What the container is created with. */
	docker: string;
	uid: number | string;
	gid: number | string | undefined;
}

const ROOT_REFUSED =
	'keel.shell.user must not be root (uid 0 or gid 0, however it is written): the sandbox runs commands only as a non-root user. Set it to your own uid:gid, e.g. "1000:1000", or clear it.';

/** Go's strconv.Atoi on a decimal string: an optional sign, then digits only. */
const NUMERIC = /^[+-]?[0-9]+$/;
/** What useradd takes as a name (and a trailing $ for machine accounts). */
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*\$?$/;
/** moby/sys/user's range check: ids are non-negative and below 2^31. */
const MAX_ID = 2 ** 31 - 1;

function refuse(message: string): never {
	throw new ExecError('containerFailed', message);
}

function part(text: string, what: 'user' | 'group', setting: string): number | string {
	if (NUMERIC.test(text)) {
		const value = Number(text.replace(/^\+/, ''));
		if (value === 0) {
			refuse(ROOT_REFUSED);
		}
		if (!Number.isSafeInteger(value) || value < 0 || value > MAX_ID) {
			refuse(`keel.shell.user "${setting}": ${text} is not a ${what} id (0 < id < 2^31).`);
		}
		return value;
	}
	if (!NAME.test(text)) {
		refuse(`keel.shell.user "${setting}" is not uid:gid (numbers, or names the image knows), e.g. "1000:1000".`);
	}
	if (text === 'root') {
		refuse(ROOT_REFUSED);
	}
	return text;
}

/** Parses and refuses what can be refused before the container exists; throws ExecError with the sentence to show. */
export function parseSandboxUser(setting: string): SandboxUser {
	const parts = setting.split(':');
	if (parts.length > 2) {
		refuse(`keel.shell.user "${setting}" has more than one ":"; write uid:gid, e.g. "1000:1000".`);
	}
	const [userText, groupText] = parts;
	if (userText === '') {
		// Docker runs an empty user part as uid 0.
		refuse(ROOT_REFUSED);
	}
	const uid = part(userText, 'user', setting);
	if (groupText === '') {
		refuse(`keel.shell.user "${setting}" ends with ":"; name the group (uid:gid) or drop the colon.`);
	}
	const gid = groupText === undefined ? undefined : part(groupText, 'group', setting);
	return { docker: gid === undefined ? String(uid) : `${uid}:${gid}`, uid, gid };
}

export interface RunningIds {
	uid: number[];
	gid: number[];
	groups: number[];
}

/** The Uid:, Gid: and Groups: lines of /proc/<pid>/status (real, effective, saved, filesystem). */
export function parseStatusIds(status: string): RunningIds {
	const line = (key: string) =>
		(new RegExp(`^${key}:\\s*(.*)$`, 'm').exec(status)?.[1] ?? '').split(/\s+/).filter(Boolean).map(Number);
	return { uid: line('Uid'), gid: line('Gid'), groups: line('Groups') };
}

/**
 * Asks the kernel who a command in the container runs as (the shell's own /proc/self/status,
 * read with builtins so any image with /bin/sh answers) and refuses a container where any id
 * is 0: a name the image maps to root, a missing group that defaults to 0, a supplementary
 * group 0 from the image's /etc/group.
 */
export async function verifyRunningUser(
	docker: Docker,
	container: Docker.Container,
	setting: string,
	user: string,
	keeper: string,
): Promise<void> {
	const exec = await container.exec({
		Cmd: ['/bin/sh', '-c', 'while IFS= read -r l; do echo "$l"; done < /proc/self/status'],
		User: user,
		AttachStdout: true,
		AttachStderr: true,
	});
	const stream = await exec.start({ hijack: true, stdin: false });
	let text = '';
	await new Promise<void>((resolve, reject) => {
		const out = new Writable({ write: (chunk: Buffer, _e, done) => ((text += chunk.toString('utf8')), done()) });
		docker.modem.demuxStream(stream, out, out);
		stream.on('end', resolve);
		stream.on('close', resolve);
		stream.on('error', reject);
	});
	const ids = parseStatusIds(text);
	if (ids.uid.length === 0 || ids.gid.length === 0) {
		refuse(
			`The sandbox could not tell which user it runs as (keel.shell.user "${setting}"): ${text.slice(0, 200)}`,
		);
	}
	if (ids.uid.includes(Number(keeper.split(':')[0]))) {
		// A name that resolves to PID 1's own user: commands could then signal and trace it.
		refuse(
			`keel.shell.user "${setting}" runs as uid ${ids.uid[0]}, the sandbox's own (its PID 1); write another uid:gid as numbers, e.g. "1000:1000".`,
		);
	}
	if ([...ids.uid, ...ids.gid, ...ids.groups].includes(0)) {
		const groupHint = ids.uid.includes(0)
			? ''
			: ids.gid.includes(0)
				? ' Its group resolved to 0: give the group too, e.g. "1000:1000".'
				: " The image's /etc/group adds it to group 0.";
		refuse(
			`${ROOT_REFUSED}${groupHint} (keel.shell.user "${setting}" runs as uid ${ids.uid[0]}, gid ${ids.gid[0]}, groups ${ids.groups.join(',') || 'none'}.)`,
		);
	}
}
