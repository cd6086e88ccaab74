/**
 * `npm run eval`: Keel: Check Model from the command line (checkModelCli.ts), or with `--golden`
 * the golden tool-calling set (goldenCli.ts).
 */
import { toAgentError } from '../../src/core/errors';
import { checkModelMain } from './checkModelCli';
import { goldenMain } from './goldenCli';

const run = process.argv.includes('--golden') ? goldenMain() : checkModelMain(process.argv.slice(2));
void run.then(
	code => process.exit(code),
	error => {
		const agentError = toAgentError(error);
		console.error(agentError.code === 'cancelled' ? 'Check Model was cancelled.' : agentError.message);
		process.exit(agentError.code === 'cancelled' ? (process.exitCode === 143 ? 143 : 130) : 1);
	},
);
