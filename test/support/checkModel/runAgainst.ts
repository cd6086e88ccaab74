// Runs Check Model in this process against a personality behind the model double, with a
// scratch parent of its own so a test can see that nothing was left behind.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCheckModel, type CheckModelOptions } from '../../../src/core/checkModel/runCheckModel';
import type { CheckReport } from '../../../src/core/checkModel/types';
import { defaultLimits } from '../../../src/core/exec/sandbox/sandboxSpec';
import { OllamaChatModel } from '../../../src/core/llm/wires/ollama/ollamaChatModel';
import { OpenAIChatModel } from '../../../src/core/llm/wires/openai/openaiChatModel';
import { DOCKERFILE_DIR } from '../dockerEngine';
import type { ModelDouble } from '../modelDouble';
import { fastRecovery } from '../resilience/runScenario';

export const SANDBOX = { image: { kind: 'managed' as const, dockerfileDir: DOCKERFILE_DIR }, limits: defaultLimits };

export interface CheckRun {
	report: CheckReport;
	/** The scratch parent: empty once the check is over. */
	tmpDir: string;
}

const parents: string[] = [];

/** A scratch parent for one check; the tests assert it is empty, and it goes when the run ends. */
export function scratchParent(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-check-test-'));
	parents.push(dir);
	return dir;
}

after(() => {
	for (const dir of parents.splice(0)) {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

export async function checkAgainst(
	double: ModelDouble,
	wire: 'openai' | 'ollama',
	options: Partial<CheckModelOptions> = {},
): Promise<CheckRun> {
	const tmpDir = options.tmpDir ?? scratchParent();
	const model =
		wire === 'ollama'
			? new OllamaChatModel({ baseUrl: double.url, model: 'double' })
			: new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'double' });
	const report = await runCheckModel({
		model,
		endpoint: { provider: wire, baseUrl: wire === 'ollama' ? double.url : double.openaiBaseUrl, model: 'double' },
		current: { toolMode: 'auto', contextWindow: 32_768, maxOutputTokens: 0 },
		recovery: fastRecovery,
		tmpDir,
		...options,
	});
	return { report, tmpDir };
}
