import type Docker from 'dockerode';
import { Writable } from 'stream';

/**
 * What every exec runs. The command comes in through $KEEL_CMD (no quoting to get wrong);
 * bash when the image has it, else sh. GNU `timeout` puts the command in its own process
 * group and at the deadline signals the whole group (TERM, then KILL 2 s later); exit 124
 * means it fired. When the command ends, every other process of the sandbox user is killed
 * (`kill -9 -1` spares only the caller and PID 1, in one system call, so nothing forks away
 * from it), and the stream ends even when a background job held it. Commands run one at a
 * time, so this kills nothing but what the command left. A command can kill this wrapper
 * first; the runner then does the same from a fresh exec (END_ALL), which it always runs.
 */
export const WRAPPER = [
	': > /tmp/.keel/alive 2>/dev/null',
	'KEEL_SH=/bin/sh; [ -x /bin/bash ] && KEEL_SH=/bin/bash',
	'command -v timeout >/dev/null 2>&1 || exec "$KEEL_SH" -c "$KEEL_CMD"',
	'timeout -k 2 "$KEEL_TIMEOUT" "$KEEL_SH" -c "$KEEL_CMD" &',
	'keel_pid=$!',
	'wait "$keel_pid"; keel_rc=$?',
	'kill -9 -1 2>/dev/null',
	'exit "$keel_rc"',
].join('\n');

/** Kills every process of the sandbox user but PID 1: what the runner runs after every command. */
export const END_ALL = ['/bin/sh', '-c', 'kill -9 -1 2>/dev/null; exit 0'];

/** Output that suggests a limit was hit even though the command itself exited 0. */
export const LIMIT_HINT = /fork: (retry: )?Resource temporarily unavailable|Cannot fork|Cannot allocate memory|Killed/;

export interface CgroupCounters {
	/** How many times the kernel OOM-killed a process in the container. */
	oomKills: number;
	/** How many forks the pids limit refused. */
	pidsMax: number;
}

/** cgroup v1 and v2 locations of the two counters, as seen from inside the container. */
const COUNTER_FILES = [
	'/sys/fs/cgroup/memory/memory.oom_control',
	'/sys/fs/cgroup/memory.events',
	'/sys/fs/cgroup/pids/pids.events',
	'/sys/fs/cgroup/pids.events',
];

/** Parses `== <file>` sections: memory files give oom_kill, pids files give max (v2's memory.events has a "max" too). */
export function parseCounters(text: string): CgroupCounters {
	const counters: CgroupCounters = { oomKills: 0, pidsMax: 0 };
	for (const section of text.split(/^== /m).slice(1)) {
		const file = section.slice(0, section.indexOf('\n'));
		const value = (pattern: RegExp) => Number(pattern.exec(section)?.[1] ?? 0);
		if (file.includes('memory')) {
			counters.oomKills += value(/^oom_kill (\d+)/m);
		} else if (file.includes('pids')) {
			counters.pidsMax += value(/^max (\d+)/m);
		}
	}
	return counters;
}

/** Reads the counters with one small exec; cheap enough to run only after a failure. */
export async function readCounters(docker: Docker, container: Docker.Container): Promise<CgroupCounters> {
	const script = `for f in ${COUNTER_FILES.join(' ')}; do [ -r "$f" ] && echo "== $f" && cat "$f"; done; true`;
	const exec = await container.exec({ Cmd: ['/bin/sh', '-c', script], AttachStdout: true, AttachStderr: true });
	const stream = await exec.start({ hijack: true, stdin: false });
	let text = '';
	await new Promise<void>((resolve, reject) => {
		const out = new Writable({
			write: (chunk: Buffer, _encoding, done) => ((text += chunk.toString('utf8')), done()),
		});
		const ignored = new Writable({ write: (_chunk, _encoding, done) => done() });
		docker.modem.demuxStream(stream, out, ignored);
		stream.on('end', resolve);
		stream.on('error', reject);
	});
	return parseCounters(text);
}
