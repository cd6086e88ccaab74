/**
 * Captures what the real llama.cpp server says into test/support/servers/llamacpp/fixtures/:
 *
 *   npx tsc -p . && node out/test/support/servers/llamacpp/capture.js
 *
 * Needs the server and noise model scripts/lib/llamaCpp.sh builds (keel_setup_llama_cpp).
 * A few minutes on two busy cores (`capture.js window tools` for some groups only); nothing here is a test, it writes files for tests to read.
 */
import { capturePrefill, captureResend } from './capturePrefill';
import { captureGrammar, captureToolChoice } from './captureTools';
import { captureContextErrors, captureHealth, captureWindow, captureWindowFills } from './captureWindow';
import { fixtureDir, writeFixtures, type Fixture } from './fixtures';
import {
	findLlamaCpp,
	startLlamaServer,
	type LlamaCppParts,
	type LlamaServerOptions,
	type LlamaServer,
} from './launch';

async function withServer<T>(
	parts: LlamaCppParts,
	options: LlamaServerOptions,
	run: (server: LlamaServer) => Promise<T>,
): Promise<T> {
	const server = await startLlamaServer(parts, options);
	try {
		return await run(server);
	} finally {
		await server.close();
	}
}

async function main(): Promise<number> {
	const parts = findLlamaCpp();
	if ('missing' in parts) {
		console.error(`llama.cpp server not built: ${parts.missing}`);
		return 1;
	}
	const only = process.argv.slice(2);
	const wanted = (group: string) => only.length === 0 || only.includes(group);
	const fixtures: Fixture[] = [];
	const step = async (
		group: string,
		options: LlamaServerOptions,
		run: (server: LlamaServer) => Promise<Fixture[]>,
	) => {
		if (!wanted(group)) return;
		const started = Date.now();
		const captured = await withServer(parts, options, run);
		fixtures.push(...captured);
		console.log(
			`${group}: ${captured.map(f => f.name).join(', ')} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
		);
	};

	await step('window', { ctx: 4096 }, async server => [
		...(await captureWindow(server, 'c4096', 'with -c 4096 and the slots left to the server')),
		await captureHealth(server),
		...(await captureContextErrors(server, 4096, 'c4096')),
		await captureWindowFills(server, 4096),
	]);
	await step('parallel', { ctx: 4096, parallel: 2 }, async server => [
		...(await captureWindow(server, 'c4096-parallel2', 'with -c 4096 --parallel 2')),
		...(await captureContextErrors(server, 2048, 'c4096-parallel2')),
	]);
	// Verbose (-v): the log then holds the grammar the server built for each request.
	await step('tools', { ctx: 8192, parallel: 1, extraArgs: ['-v'] }, async server => [
		...(await captureGrammar(server)),
		...(await captureToolChoice(server)),
	]);
	await step('prefill', { ctx: 65_536, parallel: 1 }, capturePrefill);
	await step('resend', { ctx: 65_536 }, async server => [await captureResend(server)]);

	writeFixtures(fixtures);
	console.log(
		`${fixtures.length} fixtures written to ${fixtureDir()} (llama.cpp ${parts.commit}, node-llama-cpp ${parts.npmVersion})`,
	);
	return 0;
}

void main().then(
	code => process.exit(code),
	error => {
		console.error(error);
		process.exit(1);
	},
);
