// Runs one user pattern against one input through Keel's real code, in a worker thread, so
// the security tier can stop it when it does not answer in time (a frozen extension host is
// exactly what a backtracking pattern causes). Answers { ms } or { refused: message }.
import { parentPort } from 'worker_threads';
import { evaluatePermissions } from '../../../src/core/gate/rules/permissions';
import { FilterEngine } from '../../../src/core/filters/engine';
import { parseRuleFile } from '../../../src/core/filters/ruleFile';
import { scanForCredentials } from '../../../src/core/filters/securityScan';
import type { ToolDefinition } from '../../../src/core/tools/defineTool';
import { isDeniedRead, isProtectedPath } from '../../../src/core/gate/paths/pathPolicy';
import { matchCommandRule } from '../../../src/core/shell/shellRules';
import { matchUrlRule } from '../../../src/core/gate/rules/permissions';

export type PatternSurface =
	| 'filter match'
	| 'filter strategy'
	| 'security pattern'
	| 'path rule'
	| 'command rule'
	| 'url rule'
	| 'deny-read glob'
	| 'always-ask glob';

export interface PatternJob {
	surface: PatternSurface;
	pattern: string;
	input: string;
}

function pathTool(path: string): ToolDefinition {
	return {
		name: 'read_file',
		description: '',
		effect: 'read',
		subjects: () => [{ kind: 'path', values: [path] }],
	} as unknown as ToolDefinition;
}

function filterEngine(rule: object): { engine: FilterEngine; warnings: string[] } {
	const parsed = parseRuleFile(JSON.stringify({ rules: [rule] }), '.keel/filters.json');
	return { engine: new FilterEngine([parsed.entries]), warnings: parsed.warnings };
}

async function run(job: PatternJob): Promise<string | undefined> {
	const { pattern, input } = job;
	switch (job.surface) {
		case 'filter match': {
			const { engine, warnings } = filterEngine({
				name: 'user',
				match: { regex: pattern },
				strategy: { type: 'dedup' },
			});
			engine.apply(input, 'line one\nline two');
			return warnings[0];
		}
		case 'filter strategy': {
			const { engine, warnings } = filterEngine({
				name: 'user',
				match: { prefix: 'make' },
				strategy: [
					{ type: 'strip_noise', patterns: [pattern] },
					{ type: 'keep_matching', patterns: [pattern] },
				],
			});
			engine.apply('make', `${input}\n${input}\nlast line`);
			return warnings[0];
		}
		case 'security pattern':
			await scanForCredentials(input, [pattern]);
			return undefined;
		case 'path rule':
			for (const action of ['ask', 'allow'] as const) {
				evaluatePermissions(
					pathTool(input),
					{},
					{
						rules: [{ tool: 'read_file', match: pattern, action }],
						autoApprove: false,
						trusted: true,
					},
				);
			}
			return undefined;
		case 'command rule':
			matchCommandRule(pattern, input, 'allow');
			matchCommandRule(pattern, { text: input, complete: false, needsAllow: true }, 'restrict');
			return undefined;
		case 'url rule':
			matchUrlRule(pattern, input);
			return undefined;
		case 'deny-read glob':
			isDeniedRead(input, { denyRead: [pattern], allowRead: [pattern], alwaysAsk: [] });
			return undefined;
		case 'always-ask glob':
			isProtectedPath(input, { denyRead: [], allowRead: [], alwaysAsk: [pattern] });
			return undefined;
	}
}

parentPort?.on('message', (job: PatternJob) => void answer(job));

async function answer(job: PatternJob): Promise<void> {
	const started = process.hrtime.bigint();
	try {
		const refused = await run(job);
		parentPort!.postMessage({ ms: Number(process.hrtime.bigint() - started) / 1e6, refused });
	} catch (error) {
		parentPort!.postMessage({
			ms: Number(process.hrtime.bigint() - started) / 1e6,
			refused: `threw ${(error as Error).name}: ${(error as Error).message}`,
		});
	}
}
