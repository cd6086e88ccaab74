/**
 * Whether a model's own reasoning goes back to its server in later requests, decided once per
 * model and the same in every request of a session, so each request extends the one before.
 *
 * Most chat templates (Qwen3, QwQ, DeepSeek-R1, GLM-4.5+, gpt-oss, Llama) render reasoning only
 * after the newest user message and drop it at the next one: sending it within a turn makes
 * the server re-read everything from the previous turn's first reasoning on, at every turn.
 * Keel therefore sends it to none of them. DeepSeek (V3.1 and later), Kimi and MiniMax reject
 * or degrade tool-call turns whose reasoning is missing: those always get it back.
 */
const WANTS_REASONING_BACK = /deepseek-(?:chat|reasoner|v3\.[1-9]|v[4-9])|kimi|moonshot|minimax/i;

export function replaysReasoning(model: string): boolean {
	return WANTS_REASONING_BACK.test(model);
}
