/**
 * What servers do with a forced call (`tool_choice: "required"` or a named function; Anthropic
 * `{type: "any"}` / `{type: "tool"}`), as their code and their users report it. Keel sends one
 * only as a recovery step and only where it is not known to be ignored or refused; what a server
 * really did is then remembered per server and model (agent/recovery/forcingMemory.ts) and wins
 * over what is written here.
 *
 * - OpenAI and Anthropic enforce both; so do vLLM and SGLang (guided decoding), which arrive as
 *   "custom" servers and are learned.
 * - llama.cpp enforces "required" with its grammar, except on reasoning templates (#27217,
 *   #27767); a named choice is read as the string it is not and downgraded to "auto" (the
 *   server logs "Wrong type supplied for parameter 'tool_choice'"; PR #26849 closed).
 * - LM Studio ignores "required" (lmstudio#1904).
 * - Ollama ignores it on every layer (ollama#17921, v0.32.15), and its native API has no field.
 */
export type ForcingVerdict = 'honoured' | 'ignored' | 'refused';
export type ForceKind = 'required' | 'named';
/** Per kind of forced call: what the server does, or 'unknown' until Keel has seen it. */
export type ForcingPrior = Record<ForceKind, ForcingVerdict | 'unknown'>;

const UNKNOWN: ForcingPrior = { required: 'unknown', named: 'unknown' };

/** By keel.model.provider (catalog/providers.ts ProviderKind); a server not listed is learned. */
const BY_PROVIDER: Record<string, ForcingPrior> = {
	openai: { required: 'honoured', named: 'honoured' },
	llamacpp: { required: 'unknown', named: 'ignored' },
	lmstudio: { required: 'ignored', named: 'unknown' },
	ollama: { required: 'ignored', named: 'ignored' },
};

export function openaiForcing(provider: string | undefined): ForcingPrior {
	return (provider !== undefined && BY_PROVIDER[provider]) || UNKNOWN;
}

/** Anthropic's own API enforces it; another server speaking Messages (LM Studio, Ollama, llama.cpp) is learned. */
export function anthropicForcing(baseUrl: string): ForcingPrior {
	try {
		return new URL(baseUrl).hostname === 'api.anthropic.com'
			? { required: 'honoured', named: 'honoured' }
			: UNKNOWN;
	} catch {
		return UNKNOWN;
	}
}
