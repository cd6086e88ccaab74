// `npm run eval -- --base-url … --model …`: Check Model from the command line, as a user or CI
// with a model server runs it, against the same personalities as the in-process suite.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { personality, scriptPersonality, type PersonalityName } from '../support/checkModel/personalities';
import { scratchParent } from '../support/checkModel/runAgainst';
import { startModelDouble, type ModelDouble } from '../support/modelDouble';

const MAIN = path.resolve(__dirname, '../../bench/eval/main.js');

interface CliRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** The CLI in its own process; TMPDIR points its scratch folder somewhere the test can look. */
function cli(args: string[], tmpDir: string, onStderr?: (text: string, child: ReturnType<typeof spawn>) => void) {
	return new Promise<CliRun>((resolve, reject) => {
		const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, TMPDIR: tmpDir } });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', chunk => (stdout += chunk));
		child.stderr.on('data', chunk => {
			stderr += chunk;
			onStderr?.(stderr, child);
		});
		child.on('error', reject);
		child.on('close', code => resolve({ code, stdout, stderr }));
	});
}

/** What the report must say for each personality: the verdict line and the settings it changes. */
const EXPECTED: Record<PersonalityName, { verdict: RegExp; changes: RegExp[] }> = {
	clean: { verdict: /\*\*Verdict: works well\.\*\*/, changes: [] },
	textOnly: {
		verdict: /\*\*Verdict: works well\.\*\* double works well with Keel using text tool calls/,
		changes: [/\| `keel\.recovery\.toolMode` \| auto \| \*\*text\*\* \|/],
	},
	// Keel repairs its native calls; its text-mode calls need no repair (Keel's text reader takes a trailing comma).
	flaky: {
		verdict: /\*\*Verdict: works well\.\*\*/,
		changes: [
			/\| `keel\.recovery\.toolMode` \| auto \| \*\*text\*\* \| Text-mode calls needed Keel to repair fewer calls/,
		],
	},
	truncating: {
		verdict: /\*\*Verdict: usable with care\.\*\*.*the server cut \d+ of \d+ prompts/,
		changes: [/\| `keel\.model\.contextWindow` \| 32768 \| \*\*4096\*\* \|/],
	},
};

describe('Check Model from the command line (npm run eval)', function () {
	this.timeout(120_000);
	let double: ModelDouble;
	beforeEach(async () => (double = await startModelDouble()));
	afterEach(() => double.close());

	for (const name of Object.keys(EXPECTED) as PersonalityName[]) {
		it(`writes the ${name} model's report as Markdown, with its recommendations`, async () => {
			const model = personality(name, { window: 4096 });
			scriptPersonality(double, model.step);
			const tmpDir = scratchParent();
			const out = path.join(tmpDir, '..', `${path.basename(tmpDir)}.md`);
			const run = await cli(
				[
					'--base-url',
					double.openaiBaseUrl,
					'--model',
					'double',
					'--trials',
					'1',
					'--no-sandbox',
					'--out',
					out,
				],
				tmpDir,
			);
			assert.equal(run.code, 0, run.stderr);
			assert.match(run.stderr, /Task 1\/10: Read a file and answer · trial 1\/1 · native/);
			assert.match(run.stdout, new RegExp(`Report written to ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
			const markdown = fs.readFileSync(out, 'utf8');
			fs.rmSync(out);
			assert.match(markdown, /^# Keel Check Model: double/);
			assert.match(markdown, EXPECTED[name].verdict);
			const changed = markdown.split('\n').filter(line => /^\| `keel\./.test(line) && !/\| keep \|/.test(line));
			assert.equal(changed.length, EXPECTED[name].changes.length, changed.join('\n'));
			EXPECTED[name].changes.forEach(change => assert.match(markdown, change));
			assert.deepEqual(fs.readdirSync(tmpDir), [], 'the scratch folder is gone');
		});
	}

	it('Ctrl+C stops it: exit code 130 and no scratch folder left', async () => {
		scriptPersonality(double, personality('clean').step);
		const tmpDir = scratchParent();
		let interrupted = false;
		const run = await cli(
			['--base-url', double.openaiBaseUrl, '--model', 'double', '--no-sandbox'],
			tmpDir,
			(text, child) => {
				if (!interrupted && /Task 3\/10/.test(text)) {
					interrupted = true;
					child.kill('SIGINT');
				}
			},
		);
		assert.ok(interrupted, run.stderr);
		assert.equal(run.code, 130, run.stderr);
		assert.match(run.stderr, /Check Model was cancelled\./);
		assert.deepEqual(fs.readdirSync(tmpDir), []);
	});

	it('says how to call it when the base URL or the model is missing', async () => {
		const run = await cli(['--model', 'double'], scratchParent());
		assert.equal(run.code, 2);
		assert.match(run.stderr, /usage: npm run eval -- --base-url URL --model NAME/);
	});
});
