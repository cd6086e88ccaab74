/**
 * The generative bench: per seed, thousands of replies composed from independent parts
 * (test/support/resilience/replyGrammar.ts) through the real loop, each wire's real adapter and
 * HTTP to the model double; salvage rate of complete calls, false executions (must be 0) and
 * duplicated side effects (must be 0), for the whole recovery and for the dialect parsers alone.
 */
import { printTable } from '../table';
import { NEGATIVES, PLACEMENTS, sampleCases, WRAPPERS, type GenCase } from '../../test/support/resilience/replyGrammar';
import { ENCODINGS } from '../../test/support/resilience/callEncodings';
import { runGenCases, type GenResult } from '../../test/support/resilience/generativeRun';

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)}%`);

export async function generativeTable(
	seed: number,
	positives: number,
	negatives: number,
): Promise<{ salvage: number; falseExecutions: number; duplicates: number }> {
	const started = Date.now();
	const { positive, negative } = sampleCases(seed, positives, negatives);
	const cases = [...positive, ...negative];
	const general = await runGenCases(cases, 'general');
	const dialects = await runGenCases(cases, 'dialects');
	const pos = (rs: GenResult[]) => rs.filter(r => r.genCase.expected);
	const neg = (rs: GenResult[]) => rs.filter(r => !r.genCase.expected);
	const salvage = (rs: GenResult[]) => pct(pos(rs).filter(r => r.salvaged).length, pos(rs).length);
	const falseRuns = (rs: GenResult[]) => neg(rs).filter(r => r.falseExecution).length;
	const dups = (rs: GenResult[]) => rs.reduce((n, r) => n + r.duplicates, 0);
	const row = (label: string, pick: (c: GenCase) => boolean) => {
		const g = general.filter(r => pick(r.genCase));
		const d = dialects.filter(r => pick(r.genCase));
		const negatives = neg(g).length;
		return [
			label,
			String(pos(g).length || negatives),
			salvage(g),
			salvage(d),
			negatives ? `${falseRuns(g)} / ${negatives}` : '—',
			negatives ? `${falseRuns(d)} / ${negatives}` : '—',
			String(dups(g)),
			String(dups(d)),
		];
	};
	const rows = [
		...WRAPPERS.map(w => row(`wrapper ${w}`, c => !!c.expected && c.parts.wrapper === w)),
		...ENCODINGS.map(e => row(`encoding ${e}`, c => !!c.expected && c.parts.encoding === e)),
		...PLACEMENTS.map(p => row(`placement ${p}`, c => c.parts.placement === p)),
		...(['openai', 'ollama', 'anthropic'] as const).map(w => row(`wire ${w}`, c => c.parts.wire === w)),
		...NEGATIVES.map(n => row(`never run: ${n}`, c => c.parts.placement === n)),
		row('overall', () => true),
	];
	console.log(
		`\n## Generative bench (seed ${seed}): ${positive.length} complete calls and ${negative.length} replies that must never run, composed from wrappers × encodings × placements × prose × chunk boundaries × wires\n`,
	);
	printTable(
		[
			'part',
			'n',
			'salvage',
			'salvage (dialects only)',
			'false runs',
			'false runs (dialects only)',
			'dup',
			'dup (dialects only)',
		],
		rows,
	);
	const missed = general.filter(r => r.genCase.expected && !r.salvaged).slice(0, 8);
	for (const r of missed) {
		console.log(
			`\nnot salvaged (${Object.values(r.genCase.parts).join('/')}): ${JSON.stringify(r.genCase.text || r.genCase.reasoning).slice(0, 300)} → ran ${JSON.stringify(r.ran)}; shown ${JSON.stringify(r.shown.slice(0, 120))}`,
		);
	}
	for (const r of general.filter(r => r.falseExecution).slice(0, 8)) {
		console.log(
			`\nFALSE EXECUTION (${Object.values(r.genCase.parts).join('/')}): ${JSON.stringify(r.genCase.text).slice(0, 300)} → ran ${JSON.stringify(r.ran)}`,
		);
	}
	console.log(
		`\n(${((Date.now() - started) / 1000).toFixed(1)} s; target: salvage ≥ 99%, 0 false executions, 0 duplicated side effects)`,
	);
	const ok = pos(general);
	return {
		salvage: ok.filter(r => r.salvaged).length / Math.max(1, ok.length),
		falseExecutions: falseRuns(general),
		duplicates: dups(general),
	};
}

if (require.main === module) {
	const arg = (name: string, fallback: string) => {
		const i = process.argv.indexOf(`--${name}`);
		return i >= 0 ? process.argv[i + 1] : fallback;
	};
	void generativeTable(
		Number(arg('seed', '1')),
		Number(arg('positives', '2000')),
		Number(arg('negatives', '1000')),
	).then(
		() => process.exit(0),
		error => {
			console.error(error);
			process.exit(1);
		},
	);
}
