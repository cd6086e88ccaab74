/**
 * `npm run eval`: Keel: Check Model from the command line (checkModelCli.ts), or with `--golden`
 * the golden tool-calling set (goldenCli.ts).
 */
import { toAgentError } from '../../src/core/errors';
import { checkModelMain, SIGNAL_EXIT } from './checkModelCli';
import { goldenMain } from './goldenCli';

const run = process.argv.includes('--golden') ? goldenMain() : checkModelMain(process.argv.slice(2));
void run.then(
	code => process.exit(code),
	error => {
		const agentError = toAgentError(error);
		console.error(agentError.code === 'cancelled' ? 'Check Model was cancelled.' : agentError.message);
		// Stopped by a signal: the code that signal set (stopOnSignals), so a caller can tell which.
		const stopped = Object.values(SIGNAL_EXIT).includes(Number(process.exitCode)) ? Number(process.exitCode) : 130;
		process.exit(agentError.code === 'cancelled' ? stopped : 1);
	},
);
