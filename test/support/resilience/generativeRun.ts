// Runs generated replies through the REAL loop (runTurn), the real adapter of each wire and
// HTTP to the model double, and scores what happened: which tools ran, how often, with which
// arguments, and what the user was shown as the answer.

import { isDeepStrictEqual } from 'node:util';
import type { RecoverySettings } from '../../../src/core/agent/recovery/recoverySettings';
import { runTurn, type TurnOutcome } from '../../../src/core/agent/loop/runAgent';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { startModelDouble, text, type DataStep, type ModelDouble } from '../modelDouble';
import { modelOn } from './harness';
import { fastRecovery } from './runScenario';
import type { GenCase } from './replyGrammar';
import { recordingTools, type Execution } from './genTools';

export interface GenResult {
	genCase: GenCase;
	ran: Execution[];
	/** Positive: the expected call ran exactly once with its arguments, and no wrapper or argument was shown as the answer. */
	salvaged: boolean;
	/** Negative: anything ran at all. */
	falseExecution: boolean;
	/** Runs of one call beyond its first. */
	duplicates: number;
	shown: string;
	outcome: TurnOutcome;
}

/** `dialects` turns the general extractor off: the figures of the dialect parsers alone. */
export type Extraction = 'general' | 'dialects';

export async function runGenCases(cases: GenCase[], extraction: Extraction, concurrency = 8): Promise<GenResult[]> {
	const results: GenResult[] = new Array(cases.length);
	let next = 0;
	const worker = async () => {
		const double = await startModelDouble();
		try {
			while (next < cases.length) {
				const index = next++;
				results[index] = await runGenCase(double, cases[index], extraction);
			}
		} finally {
			await double.close();
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, cases.length) }, worker));
	return results;
}

export async function runGenCase(double: ModelDouble, genCase: GenCase, extraction: Extraction): Promise<GenResult> {
	double.reset();
	double.script(replyStep(genCase), text('Done.'), text('Done.'), text('Done.'));
	const ran: Execution[] = [];
	const recovery = { ...fastRecovery, textCallExtraction: extraction } as Partial<RecoverySettings>;
	const abort = new AbortController();
	const timer = setTimeout(() => abort.abort(), 30_000);
	const outcome = await runTurn(
		{
			model: modelOn(double, genCase.parts.wire),
			registry: new ToolRegistry(recordingTools(ran)),
			approvals: undefined,
			approvalSettings: { autoApprove: { read: true, write: true, exec: true } },
			workspace: { rootName: 'generative' } as never,
			systemPrompt: 'You are a careful agent. Use the tools.',
			maxSteps: 4,
			emit: () => undefined,
			recovery,
		},
		[],
		genCase.prompt,
		`g${Math.random().toString(36).slice(2, 8)}`,
		abort.signal,
	).finally(() => clearTimeout(timer));
	const shown = outcome.messages
		.filter(m => m.kind === 'assistant')
		.map(m => m.content)
		.join('\n');
	return score(genCase, ran, shown, outcome);
}

function replyStep(c: GenCase): DataStep {
	const cut = c.finishReason === 'length' ? (c.parts.wire === 'anthropic' ? 'max_tokens' : 'length') : undefined;
	return {
		kind: 'reply',
		text: c.text,
		textChunks: c.chunks,
		...(c.reasoning ? { reasoning: c.reasoning } : {}),
		...(cut ? { finishReason: cut } : {}),
	};
}

function score(genCase: GenCase, ran: Execution[], shown: string, outcome: TurnOutcome): GenResult {
	const same = new Map<string, number>();
	for (const run of ran) {
		const key = `${run.name} ${JSON.stringify(run.input)}`;
		same.set(key, (same.get(key) ?? 0) + 1);
	}
	const duplicates = [...same.values()].reduce((n, count) => n + count - 1, 0);
	const expected = genCase.expected;
	const salvaged =
		expected !== undefined &&
		ran.length === 1 &&
		ran[0].name === expected.tool &&
		// fast-check builds records without a prototype: compare as plain objects.
		isDeepStrictEqual(ran[0].input, { ...expected.args }) &&
		!leaksCall(shown, expected.args);
	return { genCase, ran, salvaged, falseExecution: !expected && ran.length > 0, duplicates, shown, outcome };
}

/** Markup or an argument of the call left in the answer the user reads. */
function leaksCall(shown: string, args: Record<string, unknown>): boolean {
	if (/<\||\|>|<\/|\[\/|```|｜|<\w+=|<think>/.test(shown)) return true;
	return Object.values(args).some(
		v => typeof v === 'string' && v.length >= 6 && /[^a-z]/.test(v) && shown.includes(v),
	);
}
