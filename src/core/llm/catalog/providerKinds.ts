/** The kinds of server Keel speaks to and the wires it speaks, named by the presets (providers.ts) and by what a server says of itself (serverFacts.ts). */
export type ProviderKind = 'ollama' | 'llamacpp' | 'lmstudio' | 'zai' | 'openai' | 'anthropic' | 'custom';
export type WireKind = 'openai' | 'ollama' | 'anthropic';
