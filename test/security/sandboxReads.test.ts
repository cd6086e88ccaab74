// The same attacks where execution really happens in the Docker sandbox: the workspace is
// mounted at /workspace, so a secret spelled past the guard (a NUL, an escape, a `%20` folder
// before `..`) or read by an awk or sed program is printed by the container's own programs.
// Everything is auto-approved; a line gets through only if the container printed the canary.
import * as fs from 'fs';
import * as path from 'path';
import { DockerRunner } from '../../src/core/exec/dockerRunner';
import { defaultLimits } from '../../src/core/exec/sandbox/sandboxSpec';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { DOCKERFILE_DIR, makeWorkspace, requireDocker } from '../support/dockerEngine';
import { toolHarness, type Harness } from '../support/toolHarness';
import { EVERYTHING_AUTO } from './support/shellFixture';
import { attack } from './tally';

const LINES: Array<[string, string]> = [
	["cat $'.env\\x00'", 'kernel paths: words as bash hands them (quotes, NUL, braces)'],
	["head $'.env\\0junk'", 'kernel paths: words as bash hands them (quotes, NUL, braces)'],
	["sort $'\\x2e\\x65\\x6e\\x76'", 'kernel paths: words as bash hands them (quotes, NUL, braces)'],
	['cat ".e"$\'nv\\c@x\'', 'kernel paths: words as bash hands them (quotes, NUL, braces)'],
	['cat {.env,nothing}', 'kernel paths: words as bash hands them (quotes, NUL, braces)'],
	['grep -h CANARY .e{n,}v', 'kernel paths: words as bash hands them (quotes, NUL, braces)'],
	["cat /workspace/$'.env\\x00'", 'kernel paths: words as bash hands them (quotes, NUL, braces)'],
	["cat 'a%20b/../.env'", 'kernel paths: `..` after a link, odd segments'],
	["cat 'http:/../.env'", 'kernel paths: `..` after a link, odd segments'],
	["cat 'back\\slash/../.env'", 'kernel paths: `..` after a link, odd segments'],
	['cat inner/../../.env', 'kernel paths: `..` after a link, odd segments'],
	[`awk 'BEGIN{while((getline l < ".env")>0) print l}'`, 'writers: inline programs (awk, sed, interpreters)'],
	[`awk 'BEGIN{"cat .env" | getline l; print l}'`, 'writers: inline programs (awk, sed, interpreters)'],
	[`sed 'r .env' src/a.txt`, 'writers: inline programs (awk, sed, interpreters)'],
	[`sed '1R .aws/credentials' src/a.txt`, 'writers: inline programs (awk, sed, interpreters)'],
	[`perl -e 'open F, "<.env"; print <F>'`, 'writers: inline programs (awk, sed, interpreters)'],
	[`echo 'open F, "<.env"; print <F>' | perl`, 'writers: inline programs (awk, sed, interpreters)'],
	[`perl -ne'print' .env`, 'writers: inline programs (awk, sed, interpreters)'],
];

describe('security: what the sandbox really reads', function () {
	this.timeout(300_000);
	let runner: DockerRunner;
	let h: Harness;

	before(requireDocker());
	before(() => {
		const base = makeWorkspace({
			'ws/src/a.txt': 'a\n',
			'ws/.env': 'CANARY_SBXENV_8001\n',
			'ws/.aws/credentials': 'CANARY_SBXAWS_8002\n',
			'ws/sub/deep/x': 'x\n',
		});
		const ws = path.join(base, 'ws');
		for (const name of ['a%20b', 'http:', 'back\\slash']) fs.mkdirSync(path.join(ws, name));
		// A link inside the workspace to a deeper folder: `inner/../..` is sub/, then the root.
		fs.symlinkSync('sub/deep', path.join(ws, 'inner'));
		runner = new DockerRunner({
			workspaceRoot: () => ws,
			settings: () => ({ image: { kind: 'managed', dockerfileDir: DOCKERFILE_DIR }, limits: defaultLimits }),
		});
		const shell = createShellTools({
			selector: new ShellBackendSelector(() => 'docker', runner, undefined),
			settings: () => ({ timeoutSeconds: 60, outputLimitBytes: 1 << 20, memoryMb: 512, pids: 256 }),
		});
		h = toolHarness(ws, { settings: EVERYTHING_AUTO, extra: shell });
	});
	after(async () => {
		await runner?.disposeAsync();
	});

	for (const [line, klass] of LINES) {
		it(`asks before ${line}`, () =>
			attack(
				`sandbox ${line}`,
				async () => {
					const result = await h.run('run_command', { command: line });
					const leak = /CANARY_SBX\w+/.exec(`${result.output}`);
					return leak
						? `printed ${leak[0]} in the sandbox without a card (${result.card.status})`
						: undefined;
				},
				klass,
			));
	}

	it('the same programs on ordinary files still run unasked in the sandbox', async () => {
		for (const line of [
			"awk '{print $1}' src/a.txt",
			"sed -n '1p' src/a.txt",
			'cat sub/deep/x',
			'grep -h a src/a.txt',
		]) {
			const result = await h.run('run_command', { command: line });
			if (result.card.status !== 'succeeded')
				throw new Error(`${line}: ${result.card.status} ${result.card.policyReason ?? ''}`);
		}
	});
});
