/**
 * Histories against the rules real servers enforce: per wire, generated earlier turns
 * (test/support/resilience/genHistories.ts) through the real loop, the wire's real adapter and
 * HTTP to the model double switched to a random subset of its servers' history rules. Counts
 * requests refused in the first form, histories still refused after one re-form (target 0), and
 * turns that did not complete.
 */
import fc from 'fast-check';
import { printTable } from '../table';
import { startModelDouble, type Wire } from '../../test/support/modelDouble';
import { historyCaseArb, runHistoryCase } from '../../test/support/resilience/genHistories';

const WIRES: Wire[] = ['openai', 'anthropic', 'ollama'];

export async function historiesTable(seed: number, perWire: number): Promise<{ refusedAfterReform: number }> {
	const started = Date.now();
	const double = await startModelDouble();
	const rows: string[][] = [];
	let total = 0;
	try {
		for (const [w, wire] of WIRES.entries()) {
			let first = 0;
			let after = 0;
			let unfinished = 0;
			for (const c of fc.sample(historyCaseArb(wire), { seed: seed + w, numRuns: perWire })) {
				const run = await runHistoryCase(double, wire, c);
				if (run.statuses[0] === 400) first++;
				if (run.refused > 1) after++;
				if (run.outcome.reason !== 'completed') unfinished++;
			}
			total += after;
			rows.push([wire, String(perWire), String(first), String(after), String(unfinished)]);
		}
	} finally {
		await double.close();
	}
	console.log(
		`\n## Histories (seed ${seed}): generated earlier turns against random subsets of real servers' history rules\n`,
	);
	printTable(['wire', 'n', 'refused in the first form', 'refused after one re-form', 'turns not completed'], rows);
	console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s; target: 0 refused after one re-form)`);
	return { refusedAfterReform: total };
}
