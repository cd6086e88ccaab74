/**
 * Settings of the tool system that the host reads from VS Code (keel.filters.*,
 * keel.tools.*) and hands to the toolset per call, so a change applies to the next call.
 */
import { FilterEngine } from '../filters/engine';
import { defaultCacheSettings, type CacheSettings } from './resultCache';

export interface ToolSystemConfig {
	filters: FilterEngine;
	/** Extra regexes the security scan of raw command output flags as credentials. */
	securityPatterns: string[];
	/** Security scan on/off (keel.filters.securityScan). */
	securityScan: boolean;
	/** Outputs longer than this many characters are cut to head + tail, the whole kept for read_output. */
	overflowChars: number;
	cache: CacheSettings;
}

/** ~4 characters per token, the same estimate the context budget uses. */
const CHARS_PER_TOKEN = 4;
export const DEFAULT_CONTEXT_WINDOW = 32_768;
export const DEFAULT_OVERFLOW_SHARE = 0.3;

/**
 * One tool output may take `share` of the model's context window: 32k tokens × 0.3 ≈ 39k
 * characters; a 4k-token local model gets ~4.9k characters, a 200k-token cloud model ~240k.
 * Never below 2,000 characters: a result must stay useful.
 */
export function overflowThreshold(contextWindowTokens: number, share = DEFAULT_OVERFLOW_SHARE): number {
	const window =
		Number.isFinite(contextWindowTokens) && contextWindowTokens > 0 ? contextWindowTokens : DEFAULT_CONTEXT_WINDOW;
	const clamped = Number.isFinite(share) ? Math.min(0.9, Math.max(0.02, share)) : DEFAULT_OVERFLOW_SHARE;
	return Math.max(2000, Math.round(window * clamped * CHARS_PER_TOKEN));
}

let shared: FilterEngine | undefined;

export function defaultToolSystemConfig(overrides: Partial<ToolSystemConfig> = {}): ToolSystemConfig {
	shared ??= new FilterEngine();
	return {
		filters: shared,
		securityPatterns: [],
		securityScan: true,
		overflowChars: overflowThreshold(DEFAULT_CONTEXT_WINDOW),
		cache: defaultCacheSettings,
		...overrides,
	};
}
