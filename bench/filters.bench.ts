/**
 * Output filters and the result cache, measured: characters and estimated tokens the
 * filter rules save per command family on the captured outputs in test/fixtures/filters,
 * and how often the session cache answers a call in the resilience scenarios (real loop,
 * model double). Figures only. Also `npm run bench:filters`.
 */
import { FilterEngine } from '../src/core/filters/engine';
import type { FilterConfidence } from '../src/core/filters/types';
import { defaultToolDeps } from '../src/core/tools/toolDeps';
import { ToolResultCache } from '../src/core/tools/resultCache';
import { wrapTools } from '../src/core/tools/toolset';
import { filterFixtures, readFixture } from '../test/support/filterFixtures';
import { printTable } from './table';

/** The same ~4 characters per token the context budget uses. */
const tokens = (chars: number) => Math.round(chars / 4);

function filterTable(): void {
	const engine = new FilterEngine();
	const families = new Map<
		string,
		{
			n: number;
			raw: number;
			filtered: number;
			linesRaw: number;
			linesFiltered: number;
			confidence: Record<FilterConfidence, number>;
		}
	>();
	for (const fixture of filterFixtures()) {
		const raw = readFixture(fixture.file);
		const result = engine.apply(fixture.command, raw);
		const row = families.get(fixture.family) ?? {
			n: 0,
			raw: 0,
			filtered: 0,
			linesRaw: 0,
			linesFiltered: 0,
			confidence: { full: 0, partial: 0, fallback: 0 },
		};
		row.n++;
		row.raw += raw.length;
		row.filtered += result.text.length;
		row.linesRaw += result.linesBefore;
		row.linesFiltered += result.linesAfter;
		row.confidence[result.confidence]++;
		families.set(fixture.family, row);
	}
	const rows = [...families].map(([family, r]) => [
		family,
		String(r.n),
		`${r.linesRaw} → ${r.linesFiltered}`,
		r.raw,
		r.filtered,
		`${Math.round((100 * (r.raw - r.filtered)) / r.raw)}%`,
		tokens(r.raw - r.filtered),
		`${r.confidence.full}/${r.confidence.partial}/${r.confidence.fallback}`,
	]);
	const total = [...families.values()].reduce(
		(t, r) => ({ raw: t.raw + r.raw, filtered: t.filtered + r.filtered, n: t.n + r.n }),
		{ raw: 0, filtered: 0, n: 0 },
	);
	rows.push([
		'all',
		String(total.n),
		'',
		total.raw,
		total.filtered,
		`${Math.round((100 * (total.raw - total.filtered)) / total.raw)}%`,
		tokens(total.raw - total.filtered),
		'',
	]);
	printTable(
		['command family', 'outputs', 'lines', 'chars raw', 'chars filtered', 'saved', '≈ tokens saved', 'F/P/B'],
		rows,
	);
	console.log('\n(F/P/B: confidence full / partial / fallback. Budget: ≥ 50% saved overall.)');
}

/**
 * The resilience scenarios' task tools wrapped with the toolset's shaping and a session
 * cache: the scenarios stay as they are, the cache counts what it answered.
 */
async function cacheHitRate(): Promise<void> {
	const { TaskFiles } = await import('../test/support/resilience/taskTools');
	const { makeScenarios } = await import('../test/support/resilience/scenarios');
	const { runAll } = await import('../test/support/resilience/runScenario');
	// One cache per scenario: each is its own session over its own files.
	const caches: ToolResultCache[] = [];
	const original = TaskFiles.prototype.tools;
	TaskFiles.prototype.tools = function (this: InstanceType<typeof TaskFiles>) {
		const cache = new ToolResultCache();
		caches.push(cache);
		return wrapTools(defaultToolDeps({ resultCache: cache }), original.call(this));
	};
	try {
		const scenarios = makeScenarios(4, 1);
		const results = await runAll(scenarios, true);
		const sum = (key: 'hits' | 'misses' | 'invalidations') => caches.reduce((n, c) => n + c.stats[key], 0);
		const [hits, misses, invalidations] = [sum('hits'), sum('misses'), sum('invalidations')];
		printTable(
			[
				'scenarios',
				'completed',
				'cacheable calls',
				'answered from cache',
				'hit rate',
				'entries dropped by writes',
			],
			[
				[
					String(scenarios.length),
					String(results.filter(r => r.completed).length),
					String(hits + misses),
					String(hits),
					`${((100 * hits) / Math.max(1, hits + misses)).toFixed(1)}%`,
					String(invalidations),
				],
			],
		);
		console.log(
			'\n(Each scenario is one task whose fault makes the model repeat calls; a hit is a read that did not run again.)',
		);
		const failed = results.filter(r => !r.completed);
		if (failed.length) {
			console.log(
				`Not completed: ${failed.map(r => `#${r.scenario.id} ${r.scenario.fault} (${r.reason}${r.outcome.error ? `: ${r.outcome.error.message.slice(0, 80)}` : ''})`).join('; ')}`,
			);
		}
	} finally {
		TaskFiles.prototype.tools = original;
	}
}

export const title = 'Output filters: characters and tokens saved per command family; result cache hit rate';

export async function run(): Promise<void> {
	filterTable();
	console.log('');
	await cacheHitRate();
}
