import { bool, category, num, record, setting, str } from '../settingSpec';

/**
 * Tuning knobs: defaults that suit nearly everyone, which only make sense once you know how the
 * feature works inside. Grouped by feature, in the order of the categories above.
 */
export const ADVANCED = category(
	'Advanced',
	{
		'shell.pids': setting(num(256, 16), 'Most processes the sandbox may run at once; stops fork bombs.', {
			trust: 'restricted',
		}),
		'shell.tmpSizeMb': setting(
			num(256, 16),
			"Size of the sandbox's writable `/tmp` in MB (`HOME` is `/tmp`; it counts against `#keel.shell.memoryMb#`).",
			{ trust: 'restricted' },
		),
		'shell.user': setting(
			str(''),
			'`uid:gid` the sandbox runs as; never root. Empty: your own `uid:gid` on Linux, `1000:1000` otherwise or when VS Code runs as root.',
			{ trust: 'restricted' },
		),
		'shell.outputLimitBytes': setting(
			num(1048576, 1024, 4194304),
			'Output kept per stream (stdout, stderr) of one command, in bytes (at most 4 MiB); beyond it the middle is dropped and the result is marked truncated.',
			{ trust: 'restricted' },
		),
		'recovery.reflectionsPerRequest': setting(
			num(2, 0),
			"When the server cannot parse the model's tool call (Ollama or llama.cpp HTTP 500, HTTP 400 invalid tool call arguments), how many times Keel explains the mistake to the model and asks again.",
		),
		'recovery.reflectionDelaySeconds': setting(
			num(0.5, 0),
			'Pause, in seconds, before asking the model again after a tool-call correction.',
		),
		'recovery.textModeAfterFailures': setting(
			num(2, 1),
			'Native tool-call failures in one turn after which `#keel.recovery.toolMode#` `auto` switches the model to text-mode calls.',
		),
		'recovery.readToolRetries': setting(
			num(3, 0),
			'How many more broken calls (arguments that do not fit, an unknown tool) a read-only tool may get in a row in one turn; after that its broken calls are refused for the rest of the turn. A success starts the count afresh; a tool that ran and failed (a page answering 503) is a result, not a broken call.',
		),
		'recovery.sideEffectToolRetries': setting(
			num(1, 0),
			'The same as `#keel.recovery.readToolRetries#` for tools that change files, run commands or use the network.',
		),
		'recovery.backoffBaseSeconds': setting(
			num(1, 0),
			'First wait, in seconds, before retrying a failed request; doubles each retry (with jitter).',
		),
		'recovery.backoffMaxSeconds': setting(
			num(30, 0),
			'Longest wait between retries, in seconds, when the server gives no `Retry-After`.',
		),
		'recovery.retryAfterCapSeconds': setting(
			num(60, 0),
			'Longest `Retry-After` Keel honours, in seconds; a server asking for more is retried after this long.',
		),
		'tools.cache.ttlSeconds': setting(
			num(300, 0),
			'How long a cached tool result stays valid, in seconds (0: until a write touches it or the chat ends).',
		),
		'tools.anomaly.windowSize': setting(num(20, 5), 'How many recent calls of a tool the anomaly guard looks at.'),
		'tools.anomaly.failureThreshold': setting(
			num(0.7, 0.1, 1),
			'Share of failed calls in the window (at least 5 calls) at which a tool is blocked.',
		),
		'tools.tafc.enabled': setting(
			bool(false),
			'Think-augmented function calling: tools with complex schemas get a `thinking` argument the model fills first; Keel drops it before running the tool. Helps small models choose arguments.',
		),
		'tools.tafc.complexityThreshold': setting(
			num(0.6, 0, 1),
			'Schema complexity (required parameters, nesting, enum size; 0–1) from which a tool gets the thinking argument.',
		),
		'tools.dependencies.enabled': setting(
			bool(false),
			'Tool dependencies: a tool with `requires` is not offered until those tools succeeded in this chat; `prefers` moves a tool up once its preferred tools succeeded. Exclusions are logged in the Keel output channel.',
		),
		'tools.dependencies.rules': setting(
			record({ edit_file: { requires: ['read_file'] } }),
			'Per tool: `{ "requires": ["tool", …], "prefers": ["tool", …] }`. Default: `edit_file` requires `read_file`.',
			{
				editor: {
					additionalProperties: {
						type: 'object',
						properties: {
							requires: { type: 'array', items: { type: 'string' } },
							prefers: { type: 'array', items: { type: 'string' } },
						},
					},
				},
			},
		),
		'checkpoints.maxFileSizeKb': setting(
			num(2048, 1),
			'Files larger than this (in KB) are left out of checkpoints (the chat lists them) and cannot be restored by Keel.',
		),
		'checkpoints.maxFiles': setting(
			num(20000, 1),
			'A workspace with more new files than this (not yet in a checkpoint, not ignored) gets no checkpoint, with a warning in the chat; add build output to `.gitignore` or raise the limit.',
		),
	},
	{ advanced: true },
);
