// Classes 6 and 7 of the security model: settings that a workspace (or one "Always allow")
// could use to drop the user's own restrictions, and credentials that must never reach the
// model or the card, in the final output or in the live stream.
import { execFileSync } from 'child_process';
import { generateKeyPairSync } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { ApprovalSettings } from '../../src/core/agent/approval/approvalPolicy';
import type { PermissionRule } from '../../src/core/gate/rules/permissions';
import { ShellBackendSelector } from '../../src/core/exec/shellBackend';
import { loadBashParser } from '../../src/core/shell/bashParser';
import { mergeGlobs, mergeRules, withRule } from '../../src/core/gate/rules/permissionsMerge';
import { matchCommandRule } from '../../src/core/shell/shellRules';
import { createShellTools } from '../../src/core/tools/shell/shellTools';
import { tempTree, type TempTree } from '../support/tempTree';
import { toolHarness } from '../support/toolHarness';
import { LocalBashRunner } from './support/bashRunner';
import { attack } from './tally';

describe('security class 6: settings scopes and "Always allow"', () => {
	before(() => loadBashParser());
	const userDeny: PermissionRule[] = [
		{ tool: 'run_command', match: 'git push*', action: 'deny' },
		{ tool: 'write_file', match: 'infra/**', action: 'ask' },
	];
	const workspaceValues: unknown[] = [
		[],
		undefined,
		null,
		'x',
		[{ tool: 'run_command', match: 'npm test', action: 'allow' }],
		[{ tool: '*', action: 'allow' }],
		[{ tool: 'run_command', match: 'git push*', action: 'allow' }],
		[{ junk: true }],
		{},
	];
	for (const trusted of [true, false]) {
		for (const [i, workspaceValue] of workspaceValues.entries()) {
			for (const scope of ['workspaceValue', 'workspaceFolderValue'] as const) {
				it(`the user's deny and ask rules survive ${scope} #${i} (trusted: ${trusted})`, () =>
					attack(
						`C6 rules ${scope} ${i} ${trusted}`,
						() => {
							const merged = mergeRules({ globalValue: userDeny, [scope]: workspaceValue }, trusted);
							const lost = userDeny.filter(
								rule =>
									!merged.some(
										m => m.tool === rule.tool && m.match === rule.match && m.action === rule.action,
									),
							);
							const widened = !trusted && merged.some(m => m.action === 'allow');
							return lost.length
								? `dropped ${JSON.stringify(lost)}`
								: widened
									? 'an untrusted workspace added an allow rule'
									: undefined;
						},
						'class 6 (settings)',
					));
				it(`the user's deny-read globs survive ${scope} #${i} (trusted: ${trusted})`, () =>
					attack(
						`C6 denyRead ${scope} ${i} ${trusted}`,
						() => {
							const merged = mergeGlobs(
								{ globalValue: ['**/secrets/**'], [scope]: workspaceValue },
								trusted,
								true,
							);
							const allowRead = mergeGlobs({ globalValue: [], [scope]: ['**/.env'] }, trusted, false);
							return !merged.includes('**/secrets/**')
								? 'deny-read glob erased'
								: !trusted && allowRead.length
									? 'an untrusted workspace widened allow-read'
									: undefined;
						},
						'class 6 (settings)',
					));
			}
		}
	}

	// "Always allow" on a call must save a rule that allows exactly that command.
	const commands = [
		'echo *',
		'rm -rf *',
		'ls *.ts',
		'git add *',
		'echo \\*',
		'find . -name "*.js"',
		"grep -r 'a*b' src",
		'echo a*b*c',
		'cat src/\\**',
		'npm test -- --grep "*"',
	];
	const others = [
		'echo x',
		'rm -rf /',
		'ls a.ts b.ts',
		'git add . ; rm x',
		'echo anything',
		'find . -name x',
		'grep -r ab src',
		'echo abc',
		'cat src/x',
		'npm test -- --grep y',
	];
	for (const [i, command] of commands.entries()) {
		it(`"Always allow" on ${command} saves exactly it`, () =>
			attack(
				`C6 always-allow ${command}`,
				async () => {
					const tree = tempTree('keel-c6-');
					tree.add({ 'ws/a.txt': 'a' });
					const ws = path.join(tree.base, 'ws');
					const saved: PermissionRule[] = [];
					const runner = new LocalBashRunner(ws, tree.base);
					const tools = createShellTools({
						selector: new ShellBackendSelector(
							() => 'terminal',
							Object.assign(runner, { available: async () => false }),
							runner,
						),
						settings: () => ({ timeoutSeconds: 5, outputLimitBytes: 10_000, memoryMb: 512, pids: 256 }),
					});
					const settings: ApprovalSettings = {
						autoApprove: { read: true },
						rules: [],
						persistRule: async rule => void saved.push(rule),
					};
					const h = toolHarness(ws, { settings, extra: tools });
					h.approver.answer = { approved: true, always: true };
					try {
						await h.run('run_command', { command });
					} finally {
						tree.cleanup();
					}
					const rule = saved[0];
					if (!rule) return undefined; // no shortcut offered: nothing broader saved
					const broader = [others[i], ...others].find(other =>
						matchCommandRule(rule.match ?? '*', { text: other, complete: true, needsAllow: true }),
					);
					return rule.match === undefined || broader
						? `saved ${JSON.stringify(rule)}, which also allows "${broader}"`
						: undefined;
				},
				'class 6 (settings)',
			));
	}

	it('"Always allow" appends to the workspace and keeps what is there', () =>
		attack(
			'C6 withRule',
			() => {
				const next = withRule(userDeny, { tool: 'run_command', match: 'npm test', action: 'allow' });
				return next?.length !== 3 || !userDeny.every(r => next.includes(r)) ? 'dropped a rule' : undefined;
			},
			'class 6 (settings)',
		));
});

describe('security class 7: credentials never reach the model or the card', () => {
	let tree: TempTree;
	let ws: string;
	const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
		.privateKey.export({ type: 'pkcs8', format: 'pem' })
		.toString();
	const body = pem.split('\n')[5];
	// Each secret: the text to plant and the part that must not come back.
	const secrets: Array<[string, string, string]> = [
		[
			'aws',
			'[default]\naws_access_key_id = AKIAZ7QWERTYUIOPASDF\naws_secret_access_key = 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',
			'Zx9k2LmQ7rT4vW8yB3nC6dF1gH5jK0pS2uX4zA7e',
		],
		[
			'pgp',
			'-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQdGBGX2pQsBEADQ7vF3k9Lm2xR8tZ4wB6yN1cH5jD0qS3uV7aE9gK2mP4rT6wXz\n=Ab3d\n-----END PGP PRIVATE KEY BLOCK-----',
			'lQdGBGX2pQsBEADQ7vF3k9Lm2xR8tZ4wB6yN1cH5jD0qS3uV7aE9gK2mP4rT6wXz',
		],
		[
			'putty',
			'PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIHq8Vx2\nPrivate-Lines: 1\nAAAAIGk3Lm9pQ2rS5tU8vW1xY4zA7bC0dE3fG6hJ9kL2mN5p\nPrivate-MAC: 7f3a',
			'AAAAIGk3Lm9pQ2rS5tU8vW1xY4zA7bC0dE3fG6hJ9kL2mN5p',
		],
		['pem', pem, body],
		['short password', 'DB_PASSWORD=x7Q', 'x7Q'],
		['spaced password', 'ADMIN_PASSWORD = "correct horse battery"', 'correct horse battery'],
		['slack app', 'token: xapp-1-A0B1C2D3E4F-123456789012-abcdef0123456789abcdef', 'xapp-1-A0B1C2D3E4F'],
		['google oauth', 'client_secret: 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', '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'],
		['webhook', 'signing secret whsec_Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6', 'whsec_Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6'],
		['npm', '//registry.npmjs.org/:_authToken=abc123-short-but-secret', 'abc123-short-but-secret'],
		['hugging face', 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
		['gitlab', 'glpat-Zx9Yw8Vu7Ts6Rq5Po4Nm', 'glpat-Zx9Yw8Vu7Ts6Rq5Po4Nm'],
		[
			'sendgrid',
			'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',
			'SG.q1w2e3r4t5y6u7i8o9p0aa',
		],
		[
			'azure',
			'DefaultEndpointsProtocol=https;AccountName=st;AccountKey=Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0X1c2V3b4N5m6==;',
			'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0X1c2V3b4N5m6',
		],
		['bearer', 'curl -H "Authorization: Bearer q1W2e3R4t5Y6u7I8o9P0"', 'q1W2e3R4t5Y6u7I8o9P0'],
		['basic', 'Authorization: Basic dXNlcjpodW50ZXIyaHVudGVyMg==', 'dXNlcjpodW50ZXIyaHVudGVyMg=='],
		['docker auth', '{"auths":{"ghcr.io":{"auth":"dXNlcjpzM2NyZXQ="}}}', 'dXNlcjpzM2NyZXQ='],
		['yaml password', 'db:\n  password: hunter2hunter', 'hunter2hunter'],
	];
	before(() => {
		tree = tempTree('keel-c7-');
		const files: Record<string, string> = { 'ws/src/a.ts': 'a' };
		secrets.forEach(
			([name, text]) =>
				(files[`ws/notes/${name.replace(/ /g, '-')}.txt`] = `header line\n${text}\nfooter line\n`),
		);
		tree.add(files);
		ws = path.join(tree.base, 'ws');
	});
	after(() => tree.cleanup());

	for (const [name, , secret] of secrets) {
		const file = `notes/${name.replace(/ /g, '-')}.txt`;
		const deliveries: Array<[string, string, Record<string, unknown>]> = [
			['read_file', 'whole', { path: file }],
			['read_file', 'from line 3', { path: file, offset: 3 }],
			['grep', 'a line', { pattern: secret.slice(0, 12).replace(/[.*+?^${}()|[\]\\]/g, '\\$&') }],
			['run_command', 'cat', { command: `cat ${file}` }],
			['run_command', 'stream', { command: `sed -n 2,40p ${file}; sleep 0.05; echo done` }],
		];
		for (const [tool, how, args] of deliveries) {
			it(`${name} via ${tool} (${how}) is redacted, live stream included`, () =>
				attack(
					`C7 ${name} ${tool} ${how}`,
					async () => {
						const runner = new LocalBashRunner(ws, tree.base);
						const tools = createShellTools({
							selector: new ShellBackendSelector(
								() => 'terminal',
								Object.assign(runner, { available: async () => false }),
								runner,
							),
							settings: () => ({
								timeoutSeconds: 5,
								outputLimitBytes: 100_000,
								memoryMb: 512,
								pids: 256,
							}),
						});
						const h = toolHarness(ws, { extra: tools });
						const result = await h.run(tool, args);
						const seen = [
							result.output,
							...h.events.map(e =>
								e.type === 'toolCallUpdated' ? `${e.call.progress ?? ''}\n${e.call.output ?? ''}` : '',
							),
						].join('\n');
						const probe = secret.length > 24 ? secret.slice(4, 24) : secret;
						if (!result.output.includes('REDACTED') && !fs.existsSync(path.join(ws, file)))
							return 'fixture missing';
						return seen.includes(probe) ? `${probe} visible` : undefined;
					},
					'class 7 (redaction)',
				));
		}
	}
});

describe('security class 7: agreement with a maintained rule set (secretlint recommended preset)', () => {
	const corpusFile = path.join(__dirname, '../../../test/security/support/secretCorpus.txt');
	const corpus = fs.readFileSync(corpusFile, 'utf8');
	// Each line also appears as an env assignment, a JSON value and inside a sentence.
	const text =
		corpus +
		corpus
			.split('\n')
			.filter(l => /^\S+$/.test(l))
			.map((l, i) => `\nKEY_${i}=${l}\n{"value": "${l}"}\nsee ${l} here`)
			.join('');
	let findings: Array<{ rule: string; text: string }> = [];
	let tree: TempTree;
	before(function () {
		this.timeout(30_000);
		const script = path.join(__dirname, '../../../test/security/support/secretlintFindings.mjs');
		findings = JSON.parse(
			execFileSync(process.execPath, [script], { input: text, cwd: path.dirname(script) }).toString(),
		);
		tree = tempTree('keel-c7s-');
		tree.add({ 'ws/notes/corpus.txt': text });
	});
	after(() => tree.cleanup());

	it('secretlint finds the corpus secrets (the check below is not empty)', () => {
		if (findings.length < 15) throw new Error(`secretlint found only ${findings.length}`);
	});

	for (const delivery of ['read_file', 'grep', 'run_command'] as const) {
		it(`every secret secretlint finds is redacted in ${delivery} output`, async () => {
			const ws = path.join(tree.base, 'ws');
			const runner = new LocalBashRunner(ws, tree.base);
			const tools = createShellTools({
				selector: new ShellBackendSelector(
					() => 'terminal',
					Object.assign(runner, { available: async () => false }),
					runner,
				),
				settings: () => ({ timeoutSeconds: 5, outputLimitBytes: 1_000_000, memoryMb: 512, pids: 256 }),
			});
			const h = toolHarness(ws, { extra: tools });
			const args =
				delivery === 'read_file'
					? { path: 'notes/corpus.txt', limit: 5000 }
					: delivery === 'grep'
						? { pattern: '.', path: 'notes/**', limit: 500 }
						: { command: 'cat notes/corpus.txt' };
			const result = await h.run(delivery, args);
			const seen = [
				result.output,
				...h.events.map(e => (e.type === 'toolCallUpdated' ? (e.call.progress ?? '') : '')),
			].join('\n');
			for (const finding of findings) {
				// The distinctive part: for "KEY=value" findings, the value.
				const value = finding.text
					.replace(/^[^=:]*[=:]\s*["']?/, '')
					.replace(/^https?:\/\/[^:]+:/, '')
					.slice(0, 24);
				await attack(
					`C7 secretlint ${finding.rule.replace('@secretlint/secretlint-rule-', '')} ${delivery} ${value.slice(0, 16)}`,
					() => (seen.includes(value) ? `${value} visible` : undefined),
					'class 7 (redaction)',
				);
			}
		});
	}
});
