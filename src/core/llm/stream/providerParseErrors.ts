/**
 * Servers that parse tool calls themselves put the model's raw text inside their error:
 * Ollama `error parsing tool call: raw='…', err=…` (ollama#12884, #17638), llama.cpp
 * `Failed to parse input at pos N: …` (llama.cpp#20761). Pulling it out lets us recover the
 * call, or at least show the model exactly what it wrote.
 */
export function extractProviderRaw(message: string): string | undefined {
	const ollama = /raw='([\s\S]*?)'(?:, err=|$)/.exec(message) ?? /raw='([\s\S]*)$/.exec(message);
	if (ollama) {
		return ollama[1];
	}
	const llama = /Failed to parse input at pos \d+:\s?([\s\S]*)$/i.exec(message);
	if (llama && llama[1].trim()) {
		return llama[1];
	}
	return undefined;
}
