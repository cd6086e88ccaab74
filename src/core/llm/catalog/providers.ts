import { AnthropicChatModel } from '../wires/anthropic/anthropicChatModel';
import type { ChatModel } from '../chatModel';
import { OllamaChatModel } from '../wires/ollama/ollamaChatModel';
import { OpenAIChatModel } from '../wires/openai/openaiChatModel';
import { HttpModelServer } from './modelServer';

import type { ProviderKind, WireKind } from './providerKinds';

export type { ProviderKind, WireKind };

export interface ProviderPreset {
	kind: ProviderKind;
	label: string;
	wire: WireKind;
	defaultBaseUrl: string;
	/** Cloud endpoints need a key; local servers work without one. */
	needsKey: boolean;
}

/** Every provider goes through the canonical history, so a session can switch mid-way. */
export const PROVIDERS: Record<ProviderKind, ProviderPreset> = {
	// Native /api/chat, not /v1: only the native API accepts num_ctx and keep_alive.
	ollama: {
		kind: 'ollama',
		label: 'Ollama',
		wire: 'ollama',
		defaultBaseUrl: 'http://127.0.0.1:11434',
		needsKey: false,
	},
	llamacpp: {
		kind: 'llamacpp',
		label: 'llama.cpp server',
		wire: 'openai',
		defaultBaseUrl: 'http://127.0.0.1:8080/v1',
		needsKey: false,
	},
	lmstudio: {
		kind: 'lmstudio',
		label: 'LM Studio',
		wire: 'openai',
		defaultBaseUrl: 'http://127.0.0.1:1234/v1',
		needsKey: false,
	},
	zai: {
		kind: 'zai',
		label: 'Z.AI GLM',
		wire: 'openai',
		defaultBaseUrl: 'https://api.z.ai/api/paas/v4',
		needsKey: true,
	},
	openai: {
		kind: 'openai',
		label: 'OpenAI',
		wire: 'openai',
		defaultBaseUrl: 'https://api.openai.com/v1',
		needsKey: true,
	},
	anthropic: {
		kind: 'anthropic',
		label: 'Anthropic',
		wire: 'anthropic',
		defaultBaseUrl: 'https://api.anthropic.com',
		needsKey: true,
	},
	custom: {
		kind: 'custom',
		label: 'OpenAI-compatible (custom URL)',
		wire: 'openai',
		defaultBaseUrl: 'http://127.0.0.1:8000/v1',
		needsKey: false,
	},
};

export interface ProviderSettings {
	/** `keel.model.provider`; 'auto' infers it from the base URL (how settings worked before presets). */
	provider: ProviderKind | 'auto';
	/** `keel.model.baseUrl` when the user set it; undefined means the preset's default. */
	baseUrl?: string;
	model: string;
	contextWindow: number;
	requestTimeoutSeconds: number;
	keepAlive?: string;
	/** keel.model.maxOutputTokens; 0 or absent: the server decides. */
	maxOutputTokens?: number;
}

export interface ResolvedProvider {
	preset: ProviderPreset;
	baseUrl: string;
	model: string;
	contextWindow: number;
	timeoutMs: number;
	keepAlive?: string;
	/** The most tokens one answer may have; undefined: the server decides. */
	maxOutputTokens?: number;
}

export const LEGACY_DEFAULT_BASE_URL = 'http://127.0.0.1:11434/v1';

export function resolveProvider(settings: ProviderSettings): ResolvedProvider {
	const kind =
		settings.provider === 'auto' ? inferProvider(settings.baseUrl ?? LEGACY_DEFAULT_BASE_URL) : settings.provider;
	const preset = PROVIDERS[kind] ?? PROVIDERS.custom;
	return {
		preset,
		baseUrl: (settings.baseUrl || preset.defaultBaseUrl).replace(/\/+$/, ''),
		model: settings.model,
		contextWindow: settings.contextWindow,
		timeoutMs: settings.requestTimeoutSeconds * 1000,
		keepAlive: settings.keepAlive,
		maxOutputTokens: settings.maxOutputTokens || undefined,
	};
}

/** A base URL alone says which server it is often enough: well-known hosts and default ports. */
export function inferProvider(baseUrl: string): ProviderKind {
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		return 'custom';
	}
	const host = url.hostname;
	if (host === 'api.anthropic.com') return 'anthropic';
	if (host === 'api.openai.com') return 'openai';
	if (host === 'api.z.ai' || host.endsWith('bigmodel.cn')) return 'zai';
	if (url.port === '11434') return 'ollama';
	if (url.port === '1234') return 'lmstudio';
	if (url.port === '8080') return 'llamacpp';
	return 'custom';
}

/** Where Keel itself runs, as the host knows it: the remote window's name, when there is one. */
export interface KeelPlace {
	remote?: string;
}

export function createChatModel(
	resolved: ResolvedProvider,
	apiKey: string | undefined,
	fetchImpl?: typeof fetch,
	place: KeelPlace = {},
): ChatModel {
	const server = new HttpModelServer(
		{
			provider: resolved.preset.kind,
			wire: resolved.preset.wire,
			baseUrl: resolved.baseUrl,
			model: resolved.model,
			remote: place.remote,
		},
		{ fetch: fetchImpl, apiKey },
	);
	const common = {
		provider: resolved.preset.kind,
		baseUrl: resolved.baseUrl,
		model: resolved.model,
		remote: place.remote,
		timeoutMs: resolved.timeoutMs,
		maxOutputTokens: resolved.maxOutputTokens,
		fetch: fetchImpl,
		server,
	};
	switch (resolved.preset.wire) {
		case 'ollama':
			return new OllamaChatModel({
				...common,
				contextWindow: resolved.contextWindow,
				keepAlive: resolved.keepAlive,
			});
		case 'anthropic':
			return new AnthropicChatModel({ ...common, maxTokens: resolved.maxOutputTokens, apiKey });
		case 'openai':
			return new OpenAIChatModel({ ...common, apiKey });
	}
}
