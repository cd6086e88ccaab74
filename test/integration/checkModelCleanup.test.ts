// Check Model from the command line, stopped by real signals while its Docker sandbox runs:
// SIGTERM, SIGHUP and a double Ctrl+C leave no container and no scratch folder; SIGKILL leaves both,
// and the next run reaps them (Keel's own by label and owner file, the owner verifiably gone),
// sparing what belongs to a live process.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Docker from 'dockerode';
import { ownerText } from '../../src/core/exec/owner';
import { LABEL } from '../../src/core/exec/sandbox/sandboxSpec';
import { OWNER_FILE, SCRATCH_PREFIX } from '../../src/core/checkModel/scratch';
import { personality, scriptPersonality } from '../support/checkModel/personalities';
import { scratchParent } from '../support/checkModel/runAgainst';
import { requireDocker } from '../support/dockerEngine';
import { startModelDouble, type ModelDouble } from '../support/modelDouble';

const MAIN = path.resolve(__dirname, '../../bench/eval/main.js');
const docker = new Docker();

interface Run {
	child: ChildProcess;
	stderr: () => string;
	exit: Promise<number | null>;
}

function start(double: ModelDouble, tmpDir: string): Run {
	const child = spawn(
		process.execPath,
		[
			MAIN,
			'--base-url',
			double.openaiBaseUrl,
			'--model',
			'double',
			'--tasks',
			'fix-test',
			'--modes',
			'text',
			'--trials',
			'1',
		],
		{ env: { ...process.env, TMPDIR: tmpDir }, stdio: ['ignore', 'ignore', 'pipe'] },
	);
	let stderr = '';
	child.stderr!.on('data', chunk => (stderr += chunk));
	const exit = new Promise<number | null>(resolve =>
		child.on('close', (code, signal) => resolve(code ?? (signal ? -1 : null))),
	);
	return { child, stderr: () => stderr, exit };
}

/** Resolves once the run's sandbox is up and its first trial started. */
async function running(run: Run): Promise<void> {
	for (let i = 0; i < 1200 && !/Task 1\/1/.test(run.stderr()); i++) {
		await new Promise(resolve => setTimeout(resolve, 100));
	}
	assert.match(run.stderr(), /Task 1\/1/, 'the check never started its first task');
}

/** Keel's containers owned by `pid`, and the scratch folders in `tmpDir`. */
async function leftovers(pid: number, tmpDir: string): Promise<{ containers: string[]; scratch: string[] }> {
	const all = await docker.listContainers({ all: true, filters: { label: [`${LABEL}=container`] } });
	return {
		containers: all.filter(c => c.Labels['keel.owner'] === `${os.hostname()}/${pid}`).map(c => c.Id),
		scratch: fs.readdirSync(tmpDir).filter(name => name.startsWith(SCRATCH_PREFIX)),
	};
}

describe('Check Model cleans up after signals (real processes, real Docker)', function () {
	this.timeout(300_000);
	before(requireDocker());
	let double: ModelDouble;
	beforeEach(async () => {
		double = await startModelDouble();
		// The probe (one tool call, get_weather) is answered; the suite's answers take two minutes, so a signal lands mid-trial.
		const clean = personality('clean');
		scriptPersonality(double, req =>
			JSON.stringify(req.body).includes('get_weather')
				? clean.step(req)
				: { ...clean.step(req), headerDelayMs: 120_000 },
		);
	});
	afterEach(() => double.close());

	// SIGHUP: the terminal running it closed (Node's default would exit without cleaning up).
	for (const [signal, code] of [
		['SIGTERM', 143],
		['SIGHUP', 129],
	] as const) {
		it(`${signal}: the run stops with ${code} and leaves no container and no scratch folder`, async () => {
			const tmpDir = scratchParent();
			const run = start(double, tmpDir);
			await running(run);
			const during = await leftovers(run.child.pid!, tmpDir);
			assert.equal(during.containers.length, 1, 'the sandbox container runs, labelled with its owner');
			assert.equal(during.scratch.length, 1);
			run.child.kill(signal);
			assert.equal(await run.exit, code, run.stderr());
			assert.deepEqual(await leftovers(run.child.pid!, tmpDir), { containers: [], scratch: [] });
		});
	}

	it('a double Ctrl+C stops at once and still leaves nothing behind', async () => {
		const tmpDir = scratchParent();
		const run = start(double, tmpDir);
		await running(run);
		run.child.kill('SIGINT');
		await new Promise(resolve => setTimeout(resolve, 20));
		run.child.kill('SIGINT');
		assert.equal(await run.exit, 130, run.stderr());
		assert.match(run.stderr(), /Stopping now\./, 'the second Ctrl+C took the short path');
		assert.deepEqual(await leftovers(run.child.pid!, tmpDir), { containers: [], scratch: [] });
	});

	it('SIGKILL leaves its container and scratch folder, and the next run reaps them, sparing a live owner', async () => {
		const tmpDir = scratchParent();
		const killed = start(double, tmpDir);
		await running(killed);
		killed.child.kill('SIGKILL');
		await killed.exit;
		const left = await leftovers(killed.child.pid!, tmpDir);
		assert.equal(left.containers.length, 1, 'SIGKILL runs no clean-up: the container stays for now');
		assert.equal(left.scratch.length, 1);
		// A scratch folder of a live process (this one): not the next run's to remove.
		const live = path.join(tmpDir, `${SCRATCH_PREFIX}live`);
		fs.mkdirSync(live);
		fs.writeFileSync(path.join(live, OWNER_FILE), ownerText());
		const next = start(double, tmpDir);
		await running(next);
		assert.deepEqual(
			await leftovers(killed.child.pid!, tmpDir).then(l => ({
				...l,
				scratch: l.scratch.filter(n => left.scratch.includes(n)),
			})),
			{ containers: [], scratch: [] },
			'the next run reaped the killed one',
		);
		assert.ok(fs.existsSync(live), "a live owner's folder stays");
		next.child.kill('SIGINT');
		assert.equal(await next.exit, 130, next.stderr());
		fs.rmSync(live, { recursive: true, force: true });
	});
});
