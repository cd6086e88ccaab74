/**
 * `npm run eval -- --base-url URL --model NAME [--provider KIND] [--trials 3] [--out report.md]`
 * runs Keel: Check Model outside VS Code: the same suite, scores and recommendations, printed
 * as Markdown. The key, if the server needs one, comes from KEEL_API_KEY. Ctrl+C stops it and
 * removes the scratch folder and the sandbox container.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ToolMode } from '../../src/core/agent/recovery/recoverySettings';
import { serverWindowOf } from '../../src/core/checkModel/endpoint';
import { reportMarkdown, VERDICT_LABELS } from '../../src/core/checkModel/markdown';
import { runCheckModel } from '../../src/core/checkModel/runCheckModel';
import { CHECK_TASKS } from '../../src/core/checkModel/suite';
import type { ToolCallMode } from '../../src/core/checkModel/types';
import { defaultLimits } from '../../src/core/exec/sandbox/sandboxSpec';
import { holdSecret, redactSecrets } from '../../src/core/gate/redact/redact';
import { createChatModel, PROVIDERS, resolveProvider, type ProviderKind } from '../../src/core/llm/catalog/providers';

export const CHECK_USAGE = `usage: npm run eval -- --base-url URL --model NAME [--provider ${Object.keys(PROVIDERS).join('|')}] [--trials 3] [--out report.md]
       [--json report.json] [--tasks id,id] [--modes native,text] [--no-sandbox]
       [--context-window 32768] [--max-output-tokens 0] [--tool-mode auto|native|text]   (your settings, for the recommendations)
       npm run eval -- --golden …   the golden tool-calling set (see --golden --help)`;

type Args = Map<string, string | true>;

export function parseArgs(argv: readonly string[]): Args {
	const args: Args = new Map();
	for (let i = 0; i < argv.length; i++) {
		if (!argv[i].startsWith('--')) {
			continue;
		}
		const next = argv[i + 1];
		args.set(argv[i].slice(2), next === undefined || next.startsWith('--') ? true : (i++, next));
	}
	return args;
}

const text = (args: Args, name: string) => {
	const value = args.get(name);
	return typeof value === 'string' ? value : undefined;
};
const integer = (args: Args, name: string, fallback: number) => {
	const value = Number(text(args, name) ?? fallback);
	if (!Number.isInteger(value) || value < 0) {
		throw new Error(`--${name} takes a whole number, got ${JSON.stringify(text(args, name))}`);
	}
	return value;
};

/** The shell's exit code for a run a signal stopped: 128 + the signal's number. */
export const SIGNAL_EXIT: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * Ctrl+C, SIGTERM or SIGHUP (the terminal closed; Node's default would exit without cleaning
 * up) stops the check: the suite unwinds and removes its scratch folder and container. A
 * second signal stops at once, after running those clean-ups directly (a few seconds at most).
 * SIGKILL runs nothing: the next run reaps what this one left (owner.ts).
 */
function stopOnSignals(abort: AbortController, cleanups: Array<() => Promise<void>>): void {
	let stopping = false;
	const stop = (signal: NodeJS.Signals) => {
		const code = SIGNAL_EXIT[signal] ?? 130;
		if (!stopping) {
			stopping = true;
			process.exitCode = code;
			console.error('\nStopping: removing the scratch folder and the sandbox… (again to stop at once)');
			abort.abort();
			return;
		}
		console.error('Stopping now.');
		const deadline = new Promise(resolve => setTimeout(resolve, 5000).unref());
		void Promise.race([Promise.allSettled(cleanups.map(dispose => dispose())), deadline]).then(() =>
			process.exit(code),
		);
	};
	for (const signal of Object.keys(SIGNAL_EXIT) as NodeJS.Signals[]) process.on(signal, stop);
}

export async function checkModelMain(argv: readonly string[]): Promise<number> {
	const args = parseArgs(argv);
	const baseUrl = text(args, 'base-url');
	const model = text(args, 'model');
	const provider = text(args, 'provider') ?? 'auto';
	if (!baseUrl || !model || (provider !== 'auto' && !(provider in PROVIDERS))) {
		console.error(CHECK_USAGE);
		return 2;
	}
	const resolved = resolveProvider({
		provider: provider as ProviderKind | 'auto',
		baseUrl,
		model,
		contextWindow: integer(args, 'context-window', 32_768),
		requestTimeoutSeconds: 600,
		maxOutputTokens: integer(args, 'max-output-tokens', 0),
	});
	const apiKey = process.env.KEEL_API_KEY;
	// Cut wherever the server echoes it: the terminal, report.md, report.json.
	holdSecret(apiKey, 'API key', 4);
	const say = (line: string) => console.error(redactSecrets(line).text);
	const wanted = text(args, 'tasks')?.split(',');
	const abort = new AbortController();
	const cleanups: Array<() => Promise<void>> = [];
	stopOnSignals(abort, cleanups);
	const chatModel = createChatModel(resolved, apiKey);
	const report = await runCheckModel({
		model: chatModel,
		endpoint: { provider: resolved.preset.label, baseUrl: resolved.baseUrl, model },
		current: {
			toolMode: (text(args, 'tool-mode') ?? 'auto') as ToolMode,
			contextWindow: resolved.contextWindow,
			maxOutputTokens: resolved.maxOutputTokens ?? 0,
		},
		trials: integer(args, 'trials', 3),
		tasks: wanted ? CHECK_TASKS.filter(task => wanted.includes(task.id)) : undefined,
		modes: text(args, 'modes')?.split(',') as ToolCallMode[] | undefined,
		sandbox: args.has('no-sandbox')
			? undefined
			: {
					image: { kind: 'managed', dockerfileDir: path.resolve(__dirname, '../../../sandbox') },
					limits: defaultLimits,
				},
		serverWindow: () => serverWindowOf(chatModel),
		signal: abort.signal,
		onCleanup: dispose => cleanups.push(dispose),
		onProgress: progress => say(progress.message),
		onTrial: r =>
			say(
				`  ${r.passed ? 'PASS' : 'FAIL'}  ${r.taskId} · ${r.mode} · trial ${r.trial}${r.passed ? '' : `  — ${r.why}`}`,
			),
	});
	const markdown = reportMarkdown(report);
	const out = text(args, 'out');
	const json = text(args, 'json');
	if (json) {
		fs.writeFileSync(json, JSON.stringify(report, null, '\t'));
	}
	if (out) {
		fs.writeFileSync(out, markdown);
		console.log(`${VERDICT_LABELS[report.verdict]}: ${report.summary}\nReport written to ${out}`);
	} else {
		console.log(markdown);
	}
	return 0;
}
