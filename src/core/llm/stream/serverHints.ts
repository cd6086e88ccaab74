/**
 * What to tell the user about a model server, per kind of server: how to start it, how to
 * get a model it lacks, how to raise its context. One table, so advice for one server (Ollama's
 * `ollama pull`) never reaches the user of another (llama.cpp, a cloud endpoint).
 */
export interface ServerHints {
	/** When nothing answers at its address. */
	start: string;
	/** When it does not know the model. */
	missingModel(model: string): string;
	/** When it cut a prompt short (local servers do this silently). */
	context?: string;
}

const GENERIC: ServerHints = {
	start: 'check that the server is running, or change keel.model.baseUrl',
	missingModel: model =>
		`check the name (Keel: Select Model lists the models the server reports) or set keel.model.name to one it has; "${model}" is not one of them`,
};

const HINTS: Record<string, ServerHints> = {
	ollama: {
		start: 'start Ollama with `ollama serve`, or change keel.model.baseUrl',
		missingModel: model => `pull it (\`ollama pull ${model}\`) or set keel.model.name to a model the server has`,
		context:
			"raise Ollama's context (OLLAMA_CONTEXT_LENGTH on the server, or num_ctx; its default is 2048–4096 tokens)",
	},
	llamacpp: {
		start: "start llama.cpp's server (`llama-server -m model.gguf`), or change keel.model.baseUrl",
		missingModel: () =>
			'llama-server serves the model it was started with: restart it with that model, or set keel.model.name to the name it reports',
		context: "raise the llama.cpp server's context (--ctx-size)",
	},
	lmstudio: {
		start: "start LM Studio's local server (Developer → Start Server), or change keel.model.baseUrl",
		missingModel: () => 'load the model in LM Studio, or set keel.model.name to a model it has loaded',
		context: "raise the model's Context Length in LM Studio's model settings",
	},
	custom: {
		...GENERIC,
		context: "raise the server's context size (llama.cpp --ctx-size, vLLM --max-model-len)",
	},
};

/** The advice for a kind of server (keel.model.provider); an unknown or cloud kind gets the general advice. */
export function serverHints(kind: string | undefined): ServerHints {
	return (kind && HINTS[kind]) || GENERIC;
}
