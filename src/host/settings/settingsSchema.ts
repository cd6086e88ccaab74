import * as z from 'zod';

/**
 * Who may set a setting.
 * - `any`: every scope, as VS Code resolves it.
 * - `restricted`: an untrusted workspace may not set it (package.json restrictedConfigurations);
 *   readers then take only the user's value or the default. These widen what the agent may do
 *   or where requests and the API key go: a cloned repository must not choose them.
 * - `user`: only the user's own settings count, even in a trusted workspace (a path to load
 *   rules from, where "Always allow" writes, the user's MCP servers).
 */
export type SettingTrust = 'any' | 'restricted' | 'user';

export interface SettingSpec<S extends z.ZodType = z.ZodType> {
	/** Type and default; bounds are advisory (as in VS Code's editor) and kept in `meta`, readers clamp where needed. */
	schema: S;
	trust: SettingTrust;
}

const spec = <S extends z.ZodType>(schema: S, trust: SettingTrust = 'any'): SettingSpec<S> => ({ schema, trust });
const bounds = (minimum?: number, maximum?: number) => ({
	...(minimum === undefined ? {} : { minimum }),
	...(maximum === undefined ? {} : { maximum }),
});
const num = (fallback: number, minimum?: number, maximum?: number) =>
	z.number().meta(bounds(minimum, maximum)).default(fallback);
const bool = (fallback: boolean) => z.boolean().default(fallback);
const str = (fallback: string) => z.string().default(fallback);
const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
	z.enum(values).default(fallback as never);
const strings = () => z.array(z.string()).default([]);
const objects = () => z.array(z.record(z.string(), z.unknown())).default([]);
const record = <T>(fallback: Record<string, T>) => z.record(z.string(), z.unknown()).default(fallback);

export const PROVIDER_SETTING = [
	'auto',
	'ollama',
	'llamacpp',
	'lmstudio',
	'zai',
	'openai',
	'anthropic',
	'custom',
	'vscode-lm',
] as const;

/** Every `keel.*` setting (without the prefix): the one place its type, default and trust are declared. */
export const SETTINGS = {
	'model.baseUrl': spec(str('http://127.0.0.1:11434/v1'), 'restricted'),
	'model.provider': spec(oneOf(PROVIDER_SETTING, 'auto'), 'restricted'),
	'model.ollamaKeepAlive': spec(str('30m')),
	'model.name': spec(str('glm-4.7-flash')),
	'model.contextWindow': spec(num(32768, 1024)),
	'model.requestTimeoutSeconds': spec(num(600, 5)),
	'model.supportsImages': spec(oneOf(['auto', 'yes', 'no'], 'auto')),
	'history.toolOutputRetentionDays': spec(num(30, 0)),
	'approval.autoApproveReads': spec(bool(true), 'restricted'),
	'approval.autoApproveWrites': spec(bool(false), 'restricted'),
	'approval.autoApproveCommands': spec(bool(false), 'restricted'),
	'approval.autoApproveNetwork': spec(bool(false), 'restricted'),
	// Permission lists are merged across scopes when read (permissionsMerge.ts); deny lists only narrow.
	'permissions.rules': spec(objects(), 'restricted'),
	'permissions.denyRead': spec(strings()),
	'permissions.allowRead': spec(strings(), 'restricted'),
	'permissions.alwaysAsk': spec(strings()),
	'permissions.alwaysAllowScope': spec(oneOf(['workspace', 'user'], 'workspace'), 'user'),
	'agent.maxSteps': spec(num(25, 1, 500)),
	'agent.loopRepeats': spec(num(3, 2)),
	'agent.compactAt': spec(num(0.8, 0.3, 0.95)),
	'recovery.enabled': spec(bool(true)),
	'recovery.maxRetriesPerTurn': spec(num(6, 0)),
	'recovery.backoffBaseSeconds': spec(num(1, 0)),
	'recovery.backoffMaxSeconds': spec(num(30, 0)),
	'recovery.retryAfterCapSeconds': spec(num(60, 0)),
	'recovery.streamIdleTimeoutSeconds': spec(num(120, 5)),
	'recovery.reflectionsPerRequest': spec(num(2, 0)),
	'recovery.reflectionDelaySeconds': spec(num(0.5, 0)),
	'recovery.readToolRetries': spec(num(3, 0)),
	'recovery.sideEffectToolRetries': spec(num(1, 0)),
	'recovery.toolMode': spec(oneOf(['auto', 'native', 'text'], 'auto')),
	'recovery.textModeAfterFailures': spec(num(2, 1)),
	'shell.backend': spec(oneOf(['auto', 'docker', 'terminal'], 'auto'), 'restricted'),
	'shell.image': spec(str(''), 'restricted'),
	'shell.network': spec(str('none'), 'restricted'),
	'shell.memoryMb': spec(num(512, 64), 'restricted'),
	'shell.cpus': spec(num(0.5, 0.1), 'restricted'),
	'shell.pids': spec(num(256, 16), 'restricted'),
	'shell.tmpSizeMb': spec(num(256, 16), 'restricted'),
	'shell.user': spec(str(''), 'restricted'),
	'shell.timeoutSeconds': spec(num(30, 1), 'restricted'),
	'shell.outputLimitBytes': spec(num(1048576, 1024), 'restricted'),
	// Turning the filters off would let a workspace see raw secrets in tool output.
	'filters.enabled': spec(bool(true), 'restricted'),
	'filters.disabledRules': spec(strings()),
	'filters.rulesFile': spec(str(''), 'user'),
	'filters.securityScan': spec(bool(true)),
	'filters.securityPatterns': spec(strings()),
	'tools.overflowShare': spec(num(0.3, 0.02, 0.9)),
	'tools.cache.enabled': spec(bool(true)),
	'tools.cache.ttlSeconds': spec(num(300, 0)),
	'tools.anomaly.enabled': spec(bool(true)),
	'tools.anomaly.windowSize': spec(num(20, 5)),
	'tools.anomaly.failureThreshold': spec(num(0.7, 0.1, 1)),
	'tools.tafc.enabled': spec(bool(false)),
	'tools.tafc.complexityThreshold': spec(num(0.6, 0, 1)),
	'tools.dependencies.enabled': spec(bool(false)),
	'tools.dependencies.rules': spec(record({ edit_file: { requires: ['read_file'] } })),
	'tools.maxOffered': spec(num(40, 5)),
	'tools.vscodeTools': spec(bool(true)),
	'mcp.config': spec(record({}), 'user'),
	'mcp.callTimeoutSeconds': spec(num(60, 1)),
	'mcp.connectTimeoutSeconds': spec(num(30, 1)),
	'rules.enabled': spec(bool(true)),
	'rules.maxTokens': spec(num(2000, 0)),
	modes: spec(objects(), 'restricted'),
	'checkpoints.enabled': spec(bool(true)),
	'checkpoints.maxFileSizeKb': spec(num(2048, 1)),
	'checkpoints.maxFiles': spec(num(20000, 1)),
} as const satisfies Record<string, SettingSpec>;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = z.output<(typeof SETTINGS)[K]['schema']>;

/** The declared default. */
export function settingDefault<K extends SettingKey>(key: K): SettingValue<K> {
	return SETTINGS[key].schema.parse(undefined) as SettingValue<K>;
}

/**
 * A raw value as VS Code returned it → the typed value; a value of the wrong type (or outside
 * an enum) counts as unset, so a typo in settings.json means the default, not a crash later.
 */
export function parseSetting<K extends SettingKey>(key: K, raw: unknown): SettingValue<K> {
	const parsed = SETTINGS[key].schema.safeParse(raw ?? undefined);
	return (parsed.success ? parsed.data : settingDefault(key)) as SettingValue<K>;
}
