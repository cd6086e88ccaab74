/**
 * Think-augmented function calling against the stubborn model: the argument-fault classes run
 * k times with TAFC off and on (same policy otherwise), and the table reports what changed:
 * argument errors per model reply, tasks completed, and the tokens it cost.
 *
 * What a double can show: the scripted model fills `thinking` when the schema asks for it
 * (so the cost is real: a bigger schema on every request and the reasoning text in every
 * call), but which arguments it gets wrong is decided by the script, not by reasoning, so
 * the argument-error rate can only stay where it is. Any difference in that column is noise
 * from the stubborn coin or a defect (the field leaking into validation). The benefit TAFC
 * is meant for needs a real model: `npm run eval` against one.
 */
import { printTable } from '../table';
import { makeScenarios, type FaultClass, type Scenario } from '../../test/support/resilience/scenarios';
import { runAll, type ScenarioResult } from '../../test/support/resilience/runScenario';

/** The classes whose fault sits in the call's arguments (malformed JSON, wrong keys, cut off, glued). */
export const ARGUMENT_CLASSES: readonly FaultClass[] = [
	'badJson',
	'ollamaParse500',
	'llamacppParse500',
	'invalidArgs400',
	'argShapes',
	'gluedCalls',
	'truncatedWrite',
];

const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(1)}%`;

interface Arm {
	errors: number;
	requests: number;
	completed: number;
	tasks: number;
	tokens: number;
}

function arm(results: ScenarioResult[]): Arm {
	return {
		errors: results.reduce((n, r) => n + r.argumentErrors, 0),
		requests: results.reduce((n, r) => n + r.requests, 0),
		completed: results.filter(r => r.completed).length,
		tasks: results.length,
		tokens: results.reduce((n, r) => n + r.tokens, 0),
	};
}

export async function tafcTable(perClass: number, seed: number, k: number): Promise<void> {
	const scenarios = makeScenarios(perClass, seed, ARGUMENT_CLASSES);
	const run = async (tafc: boolean) => {
		const all: ScenarioResult[] = [];
		for (let trial = 0; trial < k; trial++) {
			all.push(
				...(await runAll(
					scenarios.map((s): Scenario => ({ ...s, stubborn: true, trial, tafc })),
					true,
				)),
			);
		}
		return all;
	};
	const off = await run(false);
	const on = await run(true);
	const rows = [...ARGUMENT_CLASSES, 'overall'].map(c => {
		const pick = (rs: ScenarioResult[]) => rs.filter(r => c === 'overall' || r.scenario.fault === c);
		const a = arm(pick(off));
		const b = arm(pick(on));
		const extra = b.tokens / Math.max(1, b.tasks) - a.tokens / Math.max(1, a.tasks);
		return [
			c,
			String(a.tasks),
			pct(a.errors, a.requests),
			pct(b.errors, b.requests),
			pct(a.completed, a.tasks),
			pct(b.completed, b.tasks),
			String(Math.round(a.tokens / Math.max(1, a.tasks))),
			String(Math.round(b.tokens / Math.max(1, b.tasks))),
			`${extra >= 0 ? '+' : ''}${Math.round(extra)} (${pct(extra, a.tokens / Math.max(1, a.tasks))})`,
		];
	});
	console.log(
		`\n## TAFC against the stubborn model: ${scenarios.length} argument-fault tasks × ${k} trials per arm (seed ${seed}); thinking on every tool of the task (threshold 0)\n`,
	);
	printTable(
		[
			'fault class',
			'runs',
			'arg errors / reply (off)',
			'(on)',
			'recovered (off)',
			'(on)',
			'tokens/task (off)',
			'(on)',
			'extra tokens/task',
		],
		rows,
	);
	console.log(
		'\n(reference: with vs without TAFC on the same seeded tasks and coins. Argument errors are replies whose call Keel repaired, reflected or refused by schema. The scripted model writes the `thinking` text when offered but its mistakes are scripted, so no change in errors is expected from a double; the extra tokens are the measured price. At the default threshold 0.6 none of these tools (complexity ≤ 0.25) would be augmented at all.)',
	);
}
