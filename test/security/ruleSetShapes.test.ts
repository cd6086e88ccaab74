// Every rule of the two maintained rule sets, tried with secrets made from its own pattern: a
// few samples per rule (patternSample.ts), each on a line of a notes file, judged by the rule sets
// themselves (gitleaks' WebAssembly build and secretlint's recommended preset, the oracle), then
// taken out of Keel through the real paths: read_file through the tool shaping, an MCP server's
// result (our own server over stdio) and a command's output (real bash). An attempt gets through
// when the part of a finding that identifies the secret is visible in what came out.
import * as path from 'path';
import { MAINTAINED } from '../../src/core/gate/redact/redactRules';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import type { ToolDefinition } from '../../src/core/tools/defineTool';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { McpConnection } from '../../src/core/tools/sources/mcpConnection';
import { mcpToolDefinition } from '../../src/core/tools/sources/mcpTools';
import { defaultToolDeps } from '../../src/core/tools/toolDeps';
import { shapeOutput } from '../../src/core/tools/toolset';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolHarness, type Harness } from '../support/toolHarness';
import { LocalBashRunner } from './support/bashRunner';
import { distinctive, gitleaksFindings, secretlintFindings, type Finding } from './support/maintainedRules';
import { patternSampler } from './support/patternSample';
import { attack } from './tally';

const KLASS = "the rule sets' own shapes";
const FIXTURE = path.resolve(__dirname, '../fixtures/mcp/fixtureServer.js');
const SAMPLES = 3;
const SEED = Number(process.env.KEEL_SEED ?? 2_718);

describe(`security: ${KLASS}`, function () {
	this.timeout(600_000);
	let tree: TempTree;
	let harness: Harness;
	let mcp: McpConnection;
	let findings: Finding[] = [];
	const lines: string[] = [];

	before(async function () {
		this.timeout(1_200_000);
		MAINTAINED.rules.forEach((rule, r) => {
			const sample = patternSampler(rule.regex, SEED + r);
			// With one of the rule's keywords before it, as a secret is met (gitleaks gates a rule on its keywords).
			for (let k = 0; k < SAMPLES; k++)
				lines.push(`# ${r}.${k} ${rule.keywords[k % rule.keywords.length]} ${sample()}`);
		});
		tree = tempTree('keel-rule-shapes-');
		// One file per rule keeps each command's output and each MCP message small.
		const files: Record<string, string> = {};
		MAINTAINED.rules.forEach(
			(rule, r) => (files[`ws/s/${r}.txt`] = `${lines.slice(r * SAMPLES, (r + 1) * SAMPLES).join('\n')}\n`),
		);
		tree.add(files);
		const ws = path.join(tree.base, 'ws');
		const corpus = `${lines.join('\n')}\n`;
		// gitleaks runs as WebAssembly: a few hundred lines take it a minute or two on a busy machine.
		findings = [...gitleaksFindings(corpus, 900_000), ...secretlintFindings(corpus)];
		const runner = new LocalBashRunner(ws, tree.base);
		const shell = createShellTools({
			selector: new ShellBackendSelector(
				() => 'terminal',
				Object.assign(runner, { available: async () => false }),
				runner,
			),
			settings: () => ({ timeoutSeconds: 10, outputLimitBytes: 1_000_000, memoryMb: 512, pids: 256 }),
		});
		mcp = new McpConnection(
			{ name: 'notes', scope: 'user', type: 'stdio', command: process.execPath, args: [FIXTURE] },
			{
				callTimeoutMs: 20_000,
				connectTimeoutMs: 20_000,
				maxReconnects: 0,
				reconnectBaseMs: 100,
				clientVersion: 't',
			},
			() => undefined,
		);
		await mcp.start();
		const deps = defaultToolDeps();
		const mcpTools: ToolDefinition<any>[] = mcp.tools
			.filter(t => t.name === 'echo')
			.map(t => mcpToolDefinition('notes', t, mcp, (result, context) => shapeOutput(result, deps, context)));
		harness = toolHarness(ws, { extra: [...shell, ...mcpTools] });
	});
	after(async () => {
		await mcp?.stop();
		tree?.cleanup();
	});

	it('the rule sets recognise most samples (the oracle is not empty)', () => {
		const rules = new Set(findings.map(f => f.rule));
		if (rules.size < MAINTAINED.rules.length / 2) {
			throw new Error(
				`gitleaks and secretlint recognised samples of only ${rules.size} of ${MAINTAINED.rules.length} rules`,
			);
		}
	});

	const exits: Record<string, (file: string, text: string) => Promise<string>> = {
		read_file: async file => (await harness.run('read_file', { path: file })).output,
		'an MCP result': async (_, text) => (await harness.run('mcp_notes_echo', { text })).output,
		'command output': async file => (await harness.run('run_command', { command: `cat ${file}` })).output,
	};
	for (const [exit, take] of Object.entries(exits)) {
		it(`every secret the rule sets find in a sample is cut from: ${exit}`, async () => {
			const errors: unknown[] = [];
			for (let r = 0; r < MAINTAINED.rules.length; r++) {
				const own = lines.slice(r * SAMPLES, (r + 1) * SAMPLES);
				// A finding of a few characters (a word the pattern allows) identifies nothing.
				const found = findings.filter(
					f => distinctive(f.secret).length >= 8 && own.some(line => line.includes(f.secret)),
				);
				if (!found.length) continue;
				const out = await take(`s/${r}.txt`, own.join('\n'));
				for (const finding of found) {
					const part = distinctive(finding.secret);
					await attack(
						`rule shapes ${exit} ${finding.tool}:${finding.rule}`,
						() => (out.includes(part) ? `${part} (${finding.tool} ${finding.rule}) visible` : undefined),
						KLASS,
					).catch(error => errors.push(error));
				}
			}
			if (errors.length) throw errors[0];
		});
	}
});
