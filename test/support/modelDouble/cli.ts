// Runs a model double as its own process: `node out/test/support/modelDouble/cli.js
// [--port N] [--script steps.json]`. Prints MODEL_DOUBLE_URL=… once listening so a parent
// process (test runner, shell script) can read the address, then serves until killed.

import { readFileSync } from 'node:fs';
import { startModelDouble } from './server';
import type { DataStep } from './types';

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	if (i >= 0) return process.argv[i + 1];
	const eq = process.argv.find(a => a.startsWith(`--${name}=`));
	return eq?.slice(name.length + 3);
}

async function main(): Promise<void> {
	const portArg = arg('port') ?? process.env.MODEL_DOUBLE_PORT;
	const port = portArg ? Number(portArg) : 0;
	if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${portArg}`);
	const models = arg('models')?.split(',').filter(Boolean);

	const double = await startModelDouble({ port, ...(models ? { models } : {}) });
	const scriptFile = arg('script');
	if (scriptFile) {
		const steps = JSON.parse(readFileSync(scriptFile, 'utf8')) as DataStep[];
		double.script(...(Array.isArray(steps) ? steps : [steps]));
	}
	process.stdout.write(`MODEL_DOUBLE_URL=${double.url}\n`);

	const stop = () => {
		double.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGTERM', stop);
	process.once('SIGINT', stop);
}

main().catch(err => {
	process.stderr.write(`model double: ${err instanceof Error ? err.message : String(err)}\n`);
	process.exit(1);
});
