import { category, choice, num, setting, str } from '../settingSpec';

export const MODEL = category('Model', {
	'model.provider': choice(
		{
			auto: 'Work it out from `#keel.model.baseUrl#`: port 11434 → Ollama, `api.openai.com` → OpenAI, `api.anthropic.com` → Anthropic, `api.z.ai` → Z.AI, port 1234 → LM Studio, port 8080 → llama.cpp, anything else → custom.',
			ollama: "Ollama's native API (`/api/chat`), so the context window (`num_ctx`) and `keep_alive` are sent. Default URL `http://127.0.0.1:11434`.",
			llamacpp: 'llama.cpp `llama-server`, OpenAI-compatible. Default URL `http://127.0.0.1:8080/v1`.',
			lmstudio: 'LM Studio, OpenAI-compatible. Default URL `http://127.0.0.1:1234/v1`.',
			zai: 'Z.AI GLM through its OpenAI-compatible endpoint. Default URL `https://api.z.ai/api/paas/v4` (needs a key).',
			openai: 'OpenAI. Default URL `https://api.openai.com/v1` (needs a key).',
			anthropic: 'Anthropic Messages API. Default URL `https://api.anthropic.com` (needs a key).',
			custom: 'Any OpenAI-compatible server at `#keel.model.baseUrl#` (default `http://127.0.0.1:8000/v1`).',
			'vscode-lm':
				'A chat model VS Code offers through its Language Model API (Copilot, or any extension that registers models); `#keel.model.name#` is `vendor/id`. Pick it with **Keel: Select Model**.',
		},
		'auto',
		"Which kind of model server Keel talks to. Pick provider and model with **Keel: Select Model**; a chat can switch provider mid-way. API keys are set with **Keel: Set API Key** and kept in VS Code's secret storage, bound to the endpoint's origin.",
		{ trust: 'restricted' },
	),
	'model.baseUrl': setting(
		str('http://127.0.0.1:11434/v1'),
		"Base URL of the model server. When set, it overrides the default URL of `#keel.model.provider#`; with provider `auto` it also decides the provider (the default is Ollama on this machine). An API key set with **Keel: Set API Key** is bound to this URL's origin.",
		{ trust: 'restricted' },
	),
	'model.name': setting(
		str('glm-4.7-flash'),
		'Model name sent to the endpoint, e.g. `glm-4.7-flash`, `qwen3:8b`, `llama3.1:8b`. **Keel: Select Model** lists what the server offers.',
	),
	'model.contextWindow': setting(
		num(32768, 1024),
		"Context window of the model in tokens. Keel keeps requests inside it (compacting old tool outputs first) and sends it to Ollama as `num_ctx`. When the server runs a smaller window (llama.cpp's `--ctx-size` per slot, the Context Length LM Studio loaded the model with, vLLM's `--max-model-len`, a model trained for less), Keel plans for the server's and says so once; the context meter's tooltip names it.",
	),
	'model.reasoningBudget': setting(
		num(8192, 0),
		'The most tokens a reasoning model may think before it answers or calls a tool; `0` sets no bound. llama.cpp is sent it as its reasoning budget and ends the thinking there itself; with other servers Keel stops reasoning that runs past it with nothing to show, says so in the chat, and asks the model for its answer or its call without more thinking (Ollama `think: false`, vLLM `enable_thinking: false`).',
	),
	'model.maxOutputTokens': setting(
		num(0, 0),
		'The most tokens one answer of the model may have (`max_tokens`, Ollama `num_predict`). Keel never asks for more than is left of the context window; `0` asks for just that (Anthropic: at most 8192). A server that allows less is asked again for what it names. A cap keeps a model caught in a repetition loop from writing for minutes; **Keel: Check Model** recommends a value from what it measured.',
	),
	'checkModel.trials': setting(
		num(3, 1, 10),
		'How many times **Keel: Check Model** runs each task in each tool-call mode (the k of pass^k). More trials tell a reliable model from a lucky one, and take longer.',
	),
	'model.supportsImages': choice(
		{
			auto: "Anthropic's models take images; other providers' models are treated as text-only.",
			yes: 'The configured model reads images: pasted and dropped images are sent.',
			no: 'Never send images.',
		},
		'auto',
		'Whether the model accepts images pasted or dropped into the chat (PNG, JPEG, GIF or WebP, up to 4 MB each, 4 per message). Set `yes` for a vision model on Ollama or an OpenAI-compatible server (llava, qwen2.5vl, gemma3, gpt-4o…).',
	),
	'model.ollamaKeepAlive': setting(
		str('30m'),
		'Ollama only: how long the model stays loaded after a request (`keep_alive`), e.g. `5m`, `30m`, `24h`, `-1` for ever.',
	),
	'model.requestTimeoutSeconds': setting(
		num(600, 5),
		'Longest a single model request may take, in seconds. Local models can be slow on first load. It is also the longest Keel waits for the first token while the server reads a long prompt (and keeps answering): past it the turn stops with a message instead of sending the request again.',
	),
});
