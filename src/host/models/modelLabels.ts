import type { ModelInfo } from '../../core/llm/catalog/modelCatalog';

/**
 * The window the server runs beside the one the model was trained for: they differ (llama.cpp
 * `--ctx-size`, LM Studio's loaded Context Length), and Keel plans for the one that runs.
 */
export function windowLabel(model: ModelInfo): string | undefined {
	const n = (v: number) => v.toLocaleString('en-US');
	const { contextWindow: trained, runningWindow: running } = model;
	if (running !== undefined && trained !== undefined && running !== trained) {
		return `${n(running)} ctx running · ${n(trained)} trained`;
	}
	if (running !== undefined) {
		return `${n(running)} ctx running`;
	}
	return trained !== undefined ? `${n(trained)} ctx trained` : undefined;
}
