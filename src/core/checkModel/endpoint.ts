import { listModels } from '../llm/catalog/modelCatalog';
import type { ResolvedProvider } from '../llm/catalog/providers';

/** The context window the server reports for the model (Ollama /api/show, llama.cpp and LM Studio /models), if any. */
export async function advertisedContextWindow(
	resolved: ResolvedProvider,
	apiKey: string | undefined,
	fetchImpl?: typeof fetch,
): Promise<number | undefined> {
	const models = await listModels(resolved, apiKey, fetchImpl);
	return models.find(model => model.id === resolved.model)?.contextWindow;
}
