/**
 * Keel's sandbox run from inside a container, as in a dev container that reaches the host's
 * engine through its socket: `node sandboxInContainer.js <workspace> <command>` runs one
 * command through a DockerRunner on the engine at DOCKER_HOST (or the mounted socket) and
 * prints what the run_command tool would show, as JSON. Started by
 * test/integration/docker.mappedWorkspace.test.ts in a container of the first engine, and by
 * the workspace-modes bench, which passes a count of further runs and reads the wall time of each (`ms`).
 */
import * as path from 'path';
import { DockerRunner } from '../../src/core/exec/dockerRunner';
import { defaultLimits } from '../../src/core/exec/sandbox/sandboxSpec';
import { commandToolResult } from '../../src/core/tools/shell/shellTools';

async function main(): Promise<void> {
	const [workspace, command, runs = '0'] = process.argv.slice(2);
	const lines: string[] = [];
	const runner = new DockerRunner({
		workspaceRoot: workspace,
		settings: () => ({
			image: { kind: 'managed', dockerfileDir: path.resolve(__dirname, '../../../sandbox') },
			limits: defaultLimits,
		}),
		logger: { info: m => lines.push(m), warn: m => lines.push(m), error: m => lines.push(m) },
	});
	try {
		const ms: number[] = [];
		let result = await runner.run({ command, cwd: '', timeoutMs: 30_000, outputLimitBytes: 1 << 16 });
		for (let i = 0; i < Number(runs); i++) {
			const started = performance.now();
			result = await runner.run({ command, cwd: '', timeoutMs: 30_000, outputLimitBytes: 1 << 16 });
			ms.push(performance.now() - started);
		}
		const shown = commandToolResult(command, result, {
			timeoutSeconds: 30,
			outputLimitBytes: 1 << 16,
			memoryMb: defaultLimits.memoryMb,
			pids: defaultLimits.pids,
		});
		console.log(JSON.stringify({ result, display: shown.display, log: lines, ms }));
	} catch (error) {
		console.log(
			JSON.stringify({
				error: { code: (error as { code?: string }).code, message: (error as Error).message },
				log: lines,
			}),
		);
	} finally {
		await runner.disposeAsync();
	}
}

void main();
