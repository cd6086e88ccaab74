// Starts the real llama.cpp server that scripts/lib/llamaCpp.sh builds into the cache, with the
// noise model it writes (random weights, Qwen3 tokenizer) and the Qwen3 chat template. The
// answers are noise; everything around them (prefix reuse, /props, errors, SSE) is the server's.
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { freePort, stopGroup } from '../../processes';
import { toolsCache } from '../../toolsCache';

const REPO_ROOT = path.resolve(__dirname, '../../../../..');

export interface LlamaCppParts {
	server: string;
	model: string;
	template: string;
	/** The llama.cpp commit the source bundle holds. */
	commit: string;
	/** node-llama-cpp version that shipped it. */
	npmVersion: string;
	/** How long the cached build took, when it recorded it. */
	buildSeconds?: number;
}

/** The cache folder scripts/lib/llamaCpp.sh builds into (the same rule as setup.sh's KEEL_CACHE). */
export function llamaCppDir(): string {
	const version = readEnvFile(path.join(REPO_ROOT, 'scripts/lib/llama-cpp-version.env')).KEEL_LLAMA_CPP_NPM_VERSION;
	return path.join(toolsCache(REPO_ROOT), `llama.cpp-node-llama-cpp-${version}`);
}

/** The built server, model and template, or why they are missing. */
export function findLlamaCpp(): LlamaCppParts | { missing: string } {
	const dir = llamaCppDir();
	const parts = {
		server: path.join(dir, 'build/bin/llama-server'),
		model: path.join(dir, 'model/keel-noise-qwen3.gguf'),
		template: path.join(dir, 'src/models/templates/Qwen-Qwen3-0.6B.jinja'),
	};
	for (const [name, file] of Object.entries(parts)) {
		if (!fs.existsSync(file)) {
			return {
				missing: `no ${name} at ${file} (build it: bash -c 'source scripts/lib/setup.sh && source scripts/lib/llamaCpp.sh && keel_setup_llama_cpp')`,
			};
		}
	}
	const read = (file: string) => {
		try {
			return fs.readFileSync(path.join(dir, file), 'utf8').trim();
		} catch {
			return '';
		}
	};
	const seconds = Number(read('build-seconds'));
	return {
		...parts,
		commit: read('llama.cpp.commit'),
		npmVersion: path.basename(dir).replace(/^llama\.cpp-node-llama-cpp-/, ''),
		...(seconds > 0 ? { buildSeconds: seconds } : {}),
	};
}

export interface LlamaServerOptions {
	/** -c: the context the server runs (split across slots). */
	ctx?: number;
	/** --parallel: slots; undefined leaves the server's own default (auto). */
	parallel?: number;
	/** Model name the API reports (--alias). */
	alias?: string;
	/** -n: the server's cap on generated tokens, so a noise model never runs to the end of the window. */
	nPredict?: number;
	/** --threads; default KEEL_LLAMA_THREADS or 1 (see below). */
	threads?: number;
	extraArgs?: string[];
}

export interface LlamaServer {
	url: string;
	/** The OpenAI-compatible base URL (…/v1). */
	openaiBaseUrl: string;
	/** The exact command line. */
	args: string[];
	/** Everything the server logged so far (stdout and stderr). */
	log(): string;
	/** What /health answered while the model was still loading (the first answer that was not 200), if it was asked in time. */
	loadingAnswer?: { status: number; body: string };
	close(): Promise<void>;
}

export const NOISE_MODEL_ALIAS = 'keel-noise-qwen3';

export async function startLlamaServer(parts: LlamaCppParts, options: LlamaServerOptions = {}): Promise<LlamaServer> {
	const port = await freePort();
	const args = [
		'-m',
		parts.model,
		'--chat-template-file',
		parts.template,
		'--alias',
		options.alias ?? NOISE_MODEL_ALIAS,
		'-c',
		String(options.ctx ?? 4096),
		...(options.parallel === undefined ? [] : ['--parallel', String(options.parallel)]),
		'-n',
		String(options.nPredict ?? 64),
		// One thread unless told otherwise: llama.cpp's threads meet at a barrier after every
		// operation, so on a shared machine one descheduled thread stalls the other. On a busy
		// two-core machine two threads generated 5× slower and prefilled 3× slower than one.
		'--threads',
		String(options.threads ?? (Number(process.env.KEEL_LLAMA_THREADS) || 1)),
		'--no-warmup',
		'--host',
		'127.0.0.1',
		'--port',
		String(port),
		...(options.extraArgs ?? []),
	];
	const child = spawn(parts.server, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let output = '';
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const url = `http://127.0.0.1:${port}`;
	let loadingAnswer: LlamaServer['loadingAnswer'];
	try {
		loadingAnswer = await waitForHealth(url, child, 120_000, () => output);
	} catch (error) {
		await stopGroup(child);
		throw error;
	}
	return {
		url,
		openaiBaseUrl: `${url}/v1`,
		args: [parts.server, ...args],
		log: () => output,
		...(loadingAnswer ? { loadingAnswer } : {}),
		close: () => stopGroup(child),
	};
}

/** /health answers 503 "Loading model" until the model is in memory, then 200; hands back the first 503. */
async function waitForHealth(
	url: string,
	child: ChildProcess,
	timeoutMs: number,
	log: () => string,
): Promise<LlamaServer['loadingAnswer']> {
	const deadline = Date.now() + timeoutMs;
	let loading: LlamaServer['loadingAnswer'];
	while (Date.now() < deadline) {
		if (child.exitCode !== null) {
			throw new Error(`llama-server exited with code ${child.exitCode}:\n${log().slice(-2000)}`);
		}
		const answer = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).then(
			async response => ({ status: response.status, body: await response.text() }),
			() => undefined,
		);
		if (answer?.status === 200) return loading;
		if (answer && !loading) loading = answer;
		await new Promise(resolve => setTimeout(resolve, 100));
	}
	throw new Error(`llama-server did not answer ${url}/health within ${timeoutMs} ms:\n${log().slice(-2000)}`);
}

function readEnvFile(file: string): Record<string, string> {
	const values: Record<string, string> = {};
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
		if (match) values[match[1]] = match[2].replace(/^["']|["']$/g, '');
	}
	return values;
}
