// One redactor on every way out. Generated secrets of every kind the docs name (and every
// secret two maintained rule sets, secretlint and gitleaks, find in them) are planted, then
// taken out of Keel every way there is: read_file (whole and from a middle line), grep, a
// command's output and its live stream cut at a generated point inside the secret (real
// bash), an MCP server's text and structured content (our fixture over stdio), a write's
// preview on its card, a history search passage and both exports (real SQLite). An attempt
// gets through when the distinctive part of the secret is visible anywhere it came out.
import * as path from 'path';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import { sessionExportText, searchPassage } from '../../src/core/session/sessionExport';
import { SessionStore } from '../../src/core/store/sessionStore';
import type { ToolDefinition } from '../../src/core/tools/defineTool';
import { redactSecrets, StreamRedactor } from '../../src/core/gate/redact/redact';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { McpConnection } from '../../src/core/tools/sources/mcpConnection';
import { mcpToolDefinition } from '../../src/core/tools/sources/mcpTools';
import { shapeOutput } from '../../src/core/tools/toolset';
import { defaultToolDeps } from '../../src/core/tools/toolDeps';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolHarness, type Harness } from '../support/toolHarness';
import { LocalBashRunner } from './support/bashRunner';
import { distinctive, gitleaksFindings, secretlintFindings, type Finding } from './support/maintainedRules';
import { generatedSecrets, type GeneratedSecret } from './support/secretKinds';
import { seeded } from './support/seeded';
import { attack } from './tally';

const KLASS = 'one redactor on every way out';
const FIXTURE = path.resolve(__dirname, '../fixtures/mcp/fixtureServer.js');
const rnd = seeded(4242);

type Exit = (secret: GeneratedSecret, file: string) => Promise<string>;

describe(`security: ${KLASS}`, function () {
	this.timeout(120_000);
	const secrets = generatedSecrets();
	let tree: TempTree;
	let ws: string;
	let harness: Harness;
	let mcp: McpConnection;
	let store: SessionStore;
	let oracle: Finding[] = [];

	before(async function () {
		this.timeout(300_000);
		tree = tempTree('keel-redact-');
		const files: Record<string, string> = {};
		secrets.forEach((s, i) => (files[`ws/notes/s${i}.txt`] = `header line\n${s.text}\nfooter line\n`));
		tree.add(files);
		ws = path.join(tree.base, 'ws');
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
				callTimeoutMs: 10_000,
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
			.filter(t => t.name.startsWith('echo'))
			.map(t => mcpToolDefinition('notes', t, mcp, (result, context) => shapeOutput(result, deps, context)));
		harness = toolHarness(ws, {
			extra: [...shell, ...mcpTools],
			// Writes ask, so their card (with its preview) is shown and then denied: nothing is written.
			settings: { autoApprove: { read: true, exec: true, write: false, network: false } },
		});
		store = SessionStore.open(path.join(tree.base, 'sessions.db'));
		secrets.forEach((s, i) => {
			store.append(`session${i}`, { kind: 'user', content: `marker${i} please keep ${s.text} safe` });
			store.append(`session${i}`, { kind: 'assistant', content: `Stored marker${i}: ${s.text}` });
			// The match comes after the secret, so the passage (four words before it) can start inside it.
			store.append(`tail${i}`, { kind: 'user', content: `${s.text} is what tailmark${i} holds` });
		});
		const corpus = secrets.map(s => s.text).join('\n\n');
		oracle = [...secretlintFindings(corpus), ...gitleaksFindings(corpus)];
	});
	after(async () => {
		await mcp?.stop();
		store?.close();
		tree?.cleanup();
	});

	const seen = async (tool: string, args: unknown): Promise<string> => {
		const before = harness.events.length;
		const result = await harness.run(tool, args);
		const cards = harness.events.slice(before).flatMap(e => (e.type === 'toolCallUpdated' ? [e.call] : []));
		return [
			result.output,
			...cards.map(c =>
				[c.output, c.progress, ...(c.diffs ?? []).flatMap(d => [d.unified, d.before, d.after])].join('\n'),
			),
		].join('\n');
	};
	const index = (secret: GeneratedSecret) => secrets.indexOf(secret);
	const EXITS: Record<string, Exit> = {
		'read_file whole': (_, file) => seen('read_file', { path: file }),
		'read_file from a middle line': (s, file) =>
			seen('read_file', { path: file, offset: 2 + Math.floor(s.text.split('\n').length / 2) }),
		grep: s => seen('grep', { pattern: s.probe.slice(0, 10).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), fixed: false }),
		'command output': (_, file) => seen('run_command', { command: `cat ${file}` }),
		'live stream cut inside the secret': (s, file) => {
			const full = `header line\n${s.text}\n`;
			const at = 12 + rnd.int(Math.max(1, full.length - 12));
			return seen('run_command', {
				command: `head -c ${at} ${file}; sleep 0.1; tail -c +${at + 1} ${file}`,
			});
		},
		'live stream in random chunks': async s => {
			const text = `header line\n${s.text}\nfooter line\n`;
			const stream = new StreamRedactor();
			const views: string[] = [];
			for (let i = 0; i < text.length;) {
				const size = 1 + rnd.int(12);
				views.push(stream.push(text.slice(i, i + size)));
				i += size;
			}
			return views.join('\n');
		},
		'MCP text': s => seen('mcp_notes_echo', { text: s.text }),
		'MCP structured content': s => seen('mcp_notes_echo_structured', { text: s.text }),
		'write preview on the card': (s, file) =>
			seen('write_file', { path: file.replace('.txt', '.new.txt'), content: `new\n${s.text}\n` }),
		'edit preview of a file holding it': (_, file) =>
			seen('edit_file', { path: file, old_string: 'footer line', new_string: 'last line' }),
		'history search passage': async s => {
			const i = index(s);
			return store
				.search(`marker${i}`)
				.map(hit => searchPassage(hit.snippet))
				.join('\n');
		},
		'history search passage that starts inside the secret': async s =>
			store
				.search(`tailmark${index(s)}`)
				.map(hit => searchPassage(hit.snippet))
				.join('\n'),
		'Markdown export': async s => {
			const id = `session${index(s)}`;
			return sessionExportText('markdown', store.get(id)!, {
				events: () => store.events(id),
				history: () => store.load(id),
			});
		},
		'JSON export': async s => {
			const id = `session${index(s)}`;
			return sessionExportText('json', store.get(id)!, {
				events: () => store.events(id),
				history: () => store.load(id),
			});
		},
	};

	for (const [exit, take] of Object.entries(EXITS)) {
		it(`every generated secret is cut from: ${exit}`, async () => {
			const failures = new Failures();
			for (const secret of secrets) {
				const file = `notes/s${index(secret)}.txt`;
				const out = await take(secret, file);
				await failures.of(
					attack(
						`redaction ${exit} ${secret.kind}`,
						() => (out.includes(secret.probe) ? `${secret.probe} visible` : undefined),
						KLASS,
					),
				);
				// Every secret a maintained rule set finds in this one, checked the same way.
				for (const finding of oracle.filter(
					f => secret.text.includes(f.secret) || f.secret.includes(secret.probe),
				)) {
					const part = distinctiveOf(finding);
					await failures.of(
						attack(
							`redaction ${exit} ${finding.tool}:${finding.rule}`,
							() =>
								out.includes(part) ? `${part} (${finding.tool} ${finding.rule}) visible` : undefined,
							KLASS,
						),
					);
				}
			}
			failures.check();
		});
	}

	it('the maintained rule sets found the generated secrets (the oracle is not empty)', () => {
		const kinds = secrets.filter(s => oracle.some(f => s.text.includes(f.secret) || f.secret.includes(s.probe)));
		if (kinds.length < secrets.length / 2) {
			throw new Error(
				`secretlint and gitleaks recognised only ${kinds.length} of ${secrets.length} generated secrets`,
			);
		}
	});

	it('a secret is counted once and redacting twice changes nothing', async () => {
		const failures = new Failures();
		for (const secret of secrets) {
			for (const name of ['GITHUB_TOKEN', 'API_KEY', 'export DB_PASSWORD']) {
				const text = secret.token ? `${name}=${secret.token}` : secret.text;
				const single = secret.token !== undefined;
				await failures.of(
					attack(
						`redaction counted once ${name} ${secret.kind}`,
						() => {
							const once = redactSecrets(text);
							const twice = redactSecrets(once.text);
							const markers = once.text.match(/\[REDACTED [^\]]+\]/g) ?? [];
							return twice.text !== once.text
								? `redacting again changed it: ${twice.text.slice(0, 80)}`
								: twice.hits.length
									? `redacting again found ${twice.hits.join(', ')}`
									: once.hits.length !== markers.length || (single && once.hits.length !== 1)
										? `${once.hits.length} hits for one secret: ${once.text.slice(0, 120)}`
										: undefined;
						},
						KLASS,
					),
				);
			}
		}
		failures.check();
	});
});

/** Every attempt of a test is tried and counted; the test fails at the end if any got through. */
class Failures {
	private readonly _errors: unknown[] = [];
	async of(attempt: Promise<void>): Promise<void> {
		await attempt.catch(error => this._errors.push(error));
	}
	check(): void {
		if (this._errors.length) {
			throw this._errors[0];
		}
	}
}

/** The part of a finding that must not be seen: a body line for a key block, else the value. */
function distinctiveOf(finding: Finding): string {
	const lines = finding.secret.split(/\n|\\n/).filter(l => /^[A-Za-z0-9+/=]{20,}$/.test(l));
	return lines.length ? lines[0].slice(8, 32) : distinctive(finding.secret);
}
