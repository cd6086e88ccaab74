import type { ChatModel } from '../llm/chatModel';
import type { ServerWindowFigures } from './score';

/**
 * What the model's server says of its window: the one the model was trained for and the one
 * it runs now (llama.cpp /props per slot, LM Studio's loaded instance, vLLM, Ollama /api/ps).
 */
export async function serverWindowOf(model: ChatModel, signal?: AbortSignal): Promise<ServerWindowFigures> {
	const facts = (await model.server?.describe(signal)) ?? {};
	return { trained: facts.trained, running: facts.running, source: facts.source };
}
