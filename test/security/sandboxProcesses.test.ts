// Every process a command starts ends with it: background jobs, setsid, nohup, disown, double
// forks, daemonising programs, a command that first kills the wrapper that would clean up after
// it. Judged by the engine itself (`docker top`) after the command returned, and again a moment
// later for a daemon that comes back on a timer.
import * as fc from 'fast-check';
import * as fs from 'fs';
import type { DockerRunner } from '../../src/core/exec/dockerRunner';
import { makeWorkspace, requireDocker } from '../support/dockerEngine';
import { approvedShell, processesIn, wallRunner } from './support/sandboxWall';
import { attack } from './tally';

const KLASS = 'sandbox 5: processes end with the command';

/** `M` is the marker process: `sleep <unique number>`. */
const LAUNCHERS = [
	'M &',
	'setsid M &',
	'setsid -f M',
	'nohup M &',
	'M & disown',
	'(M &)',
	'( (M &) & )',
	'sh -c "M &"',
	'bash -c "M & disown"',
	'setsid sh -c "M &"',
	'(trap "" HUP TERM INT; M) &',
	"perl -e 'fork and exit; require POSIX; POSIX::setsid(); fork and exit; exec @ARGV' M",
	'start-stop-daemon --start --background --exec /bin/sleep -- N',
	'(sleep 1; setsid M) >/dev/null 2>&1 &',
	'timeout 100 M &',
	'exec -a innocent M &',
	'script -qc "M" /dev/null &',
];
const REDIRECTS = ['', ' >/dev/null 2>&1 </dev/null'];
/** What a command may do first to stop the clean-up that follows it. */
const PRELUDES = ['', 'kill -9 $PPID 2>/dev/null; ', 'kill -9 -1 2>/dev/null; ', 'trap "" HUP TERM; '];

describe('security: no process outlives its command in the sandbox (real engine, docker top)', function () {
	this.timeout(900_000);
	let root: string;
	let runner: DockerRunner;
	let marker = 3000;

	before(requireDocker());
	before(async () => {
		root = makeWorkspace({ 'a.txt': 'a\n' });
		runner = wallRunner(root);
		await runner.run({ command: 'true', cwd: '', timeoutMs: 120_000, outputLimitBytes: 1000 });
	});
	after(async () => {
		await runner?.disposeAsync();
		if (root) fs.rmSync(root, { recursive: true, force: true });
	});

	// PID 1 survives every kill; a command that takes it over (trace it, write its memory) keeps
	// whatever it likes running. x86-64: ptrace is syscall 101, PTRACE_ATTACH 16, PTRACE_SEIZE 0x4206.
	for (const [name, line] of [
		['PTRACE_ATTACH to PID 1', `perl -e 'exit(syscall(101, 16, 1, 0, 0) == 0 ? 0 : 1)' && echo TOOK-PID-$((6*7))`],
		[
			'PTRACE_SEIZE of PID 1',
			`perl -e 'exit(syscall(101, 0x4206, 1, 0, 0) == 0 ? 0 : 1)' && echo TOOK-PID-$((6*7))`,
		],
		[
			'opening /proc/1/mem for writing',
			`perl -e 'open(F, "+<", "/proc/1/mem") or exit 1' && echo TOOK-PID-$((6*7))`,
		],
		['signalling PID 1', `kill -0 1 && echo TOOK-PID-$((6*7))`],
	] as const) {
		it(`cannot take over PID 1: ${name}`, () =>
			attack(
				`S5 PID 1: ${name}`,
				async () => {
					const result = await approvedShell(root, runner).run('run_command', { command: line });
					return /TOOK-PID-42/.test(JSON.stringify(result.output)) ? `${name} succeeded` : undefined;
				},
				KLASS,
			));
	}

	const generated = fc.sample(
		fc.tuple(fc.constantFrom(...PRELUDES), fc.constantFrom(...LAUNCHERS), fc.constantFrom(...REDIRECTS)),
		{ numRuns: 40, seed: 555 },
	);
	const cases = [
		...LAUNCHERS.map(l => ['', l, ''] as const),
		...generated.filter(([p, l, r]) => p !== '' || r !== '' || !LAUNCHERS.includes(l)),
	];
	// A daemon may come back on a timer after the command returned: each case is checked at once,
	// and every marker of every case once more a moment after the last one, in one look.
	const started = new Map<number, string>();
	const alive = async (id: string, n: number) =>
		(await processesIn(id).catch(() => [])).filter(p => p.includes(`sleep ${n}`));
	for (const [prelude, launcher, redirect] of cases) {
		const shape = `${prelude}${launcher}${redirect}`;
		it(`ends: ${shape}`, () =>
			attack(
				`S5 ${shape}`,
				async () => {
					const n = ++marker;
					started.set(n, shape);
					const line =
						prelude +
						launcher
							.replace(/\bM\b/g, `sleep ${n}`)
							.replace(/\bN\b/, String(n))
							.replace(/(&?)$/, `${redirect}$1`) +
						'\necho started';
					await approvedShell(root, runner).run('run_command', { command: line });
					const id = await runner.containerId();
					const left = id ? await alive(id, n) : [];
					return left.length > 0 ? `still running after the command: ${left.join(' | ')}` : undefined;
				},
				KLASS,
			));
	}
	it('ends: nothing any of them started comes back a moment later', () =>
		attack(
			'S5 a daemon on a timer, every shape',
			async () => {
				await new Promise(resolve => setTimeout(resolve, 2_000));
				const id = await runner.containerId();
				if (!id) return undefined;
				const listed = await processesIn(id).catch(() => []);
				const back = [...started].filter(([n]) => listed.some(p => p.includes(`sleep ${n}`)));
				return back.length > 0 ? `running again: ${back.map(([, shape]) => shape).join(' | ')}` : undefined;
			},
			KLASS,
		));
});
