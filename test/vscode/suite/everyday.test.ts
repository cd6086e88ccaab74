// Project rules, checkpoints and rewind, modes, slash commands, prompt files, @-mentions and
// history search inside the real extension host: the API activate() returns, the real
// workspace on disk, the real git CLI, the bundled SQLite store and the model double.
import * as assert from 'assert';
import Docker from 'dockerode';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { text, toolCalls } from '../../support/modelDouble';
import { testConfig } from '../context';
import { requirePart } from '../../support/tierGate';
import { useKeelSuite } from '../keelSuite';

const until = async <T>(
	probe: () => T | undefined | false | Promise<T | undefined | false>,
	what: string,
	timeoutMs = 10_000,
): Promise<T> => {
	for (const started = Date.now(); Date.now() - started < timeoutMs;) {
		const value = await probe();
		if (value) return value;
		await new Promise(resolve => setTimeout(resolve, 50));
	}
	throw new Error(`timed out waiting for ${what}`);
};

describe('Everyday work in the extension host', function () {
	this.timeout(60_000);
	const keel = useKeelSuite();
	const api = () => keel.api;
	const root = () => testConfig().workspace;
	const file = (relative: string) => path.join(root(), relative);
	const created = new Set<string>();
	const write = (relative: string, content: string) => {
		fs.mkdirSync(path.dirname(file(relative)), { recursive: true });
		fs.writeFileSync(file(relative), content);
		created.add(relative);
	};
	const read = (relative: string) =>
		fs.existsSync(file(relative)) ? fs.readFileSync(file(relative), 'utf8') : undefined;
	const systemPrompt = (index = -1) => keel.double.modelRequests.at(index)!.body.messages[0].content as string;
	// A session keeps its first system prompt (so a local server reuses its cache); a change of
	// rules or mode reaches the model as a note in the history, the latest one last.
	const lastInstructionNote = (index = -1) =>
		(keel.double.modelRequests.at(index)!.body.messages as Array<{ content: unknown }>)
			.map(m => (typeof m.content === 'string' ? m.content : ''))
			.filter(content => content.startsWith('[Keel: the instructions for this chat changed'))
			.at(-1) ?? '';
	const toolNames = (index = -1) =>
		(keel.double.modelRequests.at(index)!.body.tools ?? []).map(
			(t: { function: { name: string } }) => t.function.name,
		) as string[];
	const notices = () =>
		api()
			.view()
			.items.flatMap(item => (item.kind === 'notice' ? [item] : []));

	after(async () => {
		for (const relative of [...created, 'AGENTS.md', 'src/AGENTS.md', 'made-by-keel.ts', 'made-in-sandbox.txt']) {
			fs.rmSync(file(relative), { force: true });
		}
		fs.rmSync(file('.keel'), { recursive: true, force: true });
		await api().reloadRules();
	});

	describe('project rules', () => {
		it('puts AGENTS.md (root and sub-folder) into the system prompt, says so in the chat, and reloads on change', async () => {
			write('AGENTS.md', '# Rules\nAlways answer in haiku.\n');
			write('src/AGENTS.md', 'In src/, use tabs.\n');
			await until(() => api().rules().files.length === 2, 'the watcher to load both rules files', 30_000);
			assert.deepStrictEqual(
				api()
					.rules()
					.files.map(f => [f.path, f.scope]),
				[
					['AGENTS.md', ''],
					['src/AGENTS.md', 'src'],
				],
			);
			keel.double.script(text('Ok.'));
			await api().runTurn('hello');
			assert.match(systemPrompt(), /Always answer in haiku\./);
			assert.match(systemPrompt(), /Rules from src\/AGENTS\.md \(for files under src\/\)[\s\S]*use tabs/);
			const line = await until(() => notices().find(n => n.code === 'rules'), 'the rules notice');
			assert.match(line.text, /^Rules: AGENTS\.md \(\d+ tokens\), src\/AGENTS\.md \(\d+ tokens\)\.$/);

			write('AGENTS.md', '# Rules\nAlways answer in limericks.\n');
			await until(
				() => api().rules().files[0]?.tokens === Math.ceil('# Rules\nAlways answer in limericks.'.length / 4),
				'the reload after the change',
				30_000,
			);
			keel.double.script(text('Ok.'));
			await api().runTurn('again');
			assert.match(lastInstructionNote(), /No longer in force:[\s\S]*haiku[\s\S]*Now in force:[\s\S]*limericks/);
			await until(
				() => notices().filter(n => n.code === 'rules').length === 2,
				'a second rules notice after the change',
			);
			const changes: string[] = [];
			const listening = api().onDidChangeState(what => changes.push(what));
			write('.keel/rules/style.md', 'No default exports.\n');
			await until(
				() =>
					api()
						.rules()
						.files.some(f => f.path === '.keel/rules/style.md'),
				'the new .keel/rules file to load',
				30_000,
			);
			assert.ok(changes.includes('rules'), 'the view is told the rules changed');
			listening.dispose();
		});

		it('skips a rules file that does not fit the token budget and says which', async () => {
			await keel.set('rules.maxTokens', 12);
			await until(() => api().rules().skipped.length > 0, 'the reload with the small budget');
			assert.deepStrictEqual(
				api()
					.rules()
					.skipped.map(s => s.path),
				['.keel/rules/style.md', 'src/AGENTS.md'],
			);
			keel.double.script(text('Ok.'));
			await api().runTurn('budget');
			const line = await until(() => notices().find(n => n.code === 'rules'), 'the rules notice');
			assert.match(
				line.text,
				/Skipped: \.keel\/rules\/style\.md \(\d+ tokens, over the 12-token budget \(keel\.rules\.maxTokens\)\), src\/AGENTS\.md/,
			);
			await keel.set('rules.maxTokens', 2000);
		});

		it('"Keel: Draft AGENTS.md" runs a normal turn whose write waits for approval', async () => {
			fs.rmSync(file('AGENTS.md'), { force: true });
			fs.rmSync(file('src/AGENTS.md'), { force: true });
			keel.double.script(
				toolCalls([
					{ name: 'write_file', arguments: { path: 'AGENTS.md', content: '# Fixture\nRun `npm test`.\n' } },
				]),
				text('Wrote AGENTS.md.'),
			);
			const turn = api().draftAgentsMd();
			const pending = await keel.pendingApprovals();
			assert.strictEqual(pending.length, 1, 'the write asks first');
			assert.match(api().transcript()[0].content, /Write an AGENTS\.md at the workspace root/);
			api().decideToolCall(pending[0], true);
			assert.strictEqual((await turn).reason, 'completed');
			assert.strictEqual(read('AGENTS.md'), '# Fixture\nRun `npm test`.\n');
			await until(
				() =>
					api()
						.rules()
						.files.some(f => f.path === 'AGENTS.md'),
				'the new rules file to load',
			);
		});
	});

	describe('checkpoints and rewind', () => {
		beforeEach(async () => {
			await keel.set('approval.autoApproveWrites', true);
		});

		it('records "N files changed", restores files to before a turn (asking about a file the user edited), and undoes the restore', async () => {
			write('notes.md', 'original notes\n');
			keel.double.script(
				toolCalls([
					{
						name: 'edit_file',
						arguments: {
							path: 'src/app.ts',
							old_string: 'export function greet',
							new_string: 'export /* edited */ function greet',
						},
					},
					{ name: 'write_file', arguments: { path: 'made-by-keel.ts', content: 'new file\n' } },
					{ name: 'write_file', arguments: { path: 'notes.md', content: 'keel notes\n' } },
				]),
				text('Changed three files.'),
			);
			const appBefore = read('src/app.ts');
			const outcome = await api().runTurn('change things');
			assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
			assert.deepStrictEqual(
				keel.toolResults().map(r => r.ok),
				[true, true, true],
				JSON.stringify(keel.toolResults()),
			);
			const turns = await api().turns();
			assert.deepStrictEqual(
				turns
					.at(-1)!
					.changes!.map(c => `${c.status} ${c.path}`)
					.sort(),
				['added made-by-keel.ts', 'modified notes.md', 'modified src/app.ts'],
			);
			assert.ok(
				notices().some(n => n.code === 'turnChanges' && /^3 files changed: /.test(n.text)),
				JSON.stringify(notices()),
			);
			const diff = await api().turnDiff(outcome.turnId);
			const notes = diff.files.find(f => f.path === 'notes.md')!;
			const content = async (uri: string) =>
				(await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText();
			assert.deepStrictEqual(
				[await content(notes.before), await content(notes.after)],
				['original notes\n', 'keel notes\n'],
			);
			assert.strictEqual(
				await content(diff.files.find(f => f.path === 'made-by-keel.ts')!.before),
				'',
				'a created file has no before',
			);
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');

			fs.writeFileSync(file('notes.md'), 'my own notes\n');
			const cancelled = await api().restoreCheckpoint(outcome.turnId, 'cancel');
			assert.strictEqual(cancelled.cancelled, true);
			assert.strictEqual(read('made-by-keel.ts'), 'new file\n', 'a cancelled restore changes nothing');
			const kept = await api().restoreCheckpoint(outcome.turnId, 'skip');
			assert.deepStrictEqual(kept.kept, ['notes.md']);
			assert.strictEqual(read('src/app.ts'), appBefore);
			assert.strictEqual(read('made-by-keel.ts'), undefined, 'the created file is gone');
			assert.strictEqual(read('notes.md'), 'my own notes\n', "the user's edit stays");

			const undone = await api().undoRestore('overwrite');
			assert.strictEqual(undone.restored.length, 2, undone.message);
			assert.strictEqual(read('made-by-keel.ts'), 'new file\n');
			assert.match(read('src/app.ts')!, /edited/);
			// Leave the fixture as it was for the other suites.
			await api().restoreCheckpoint(outcome.turnId, 'overwrite');
			assert.strictEqual(read('src/app.ts'), appBefore);
			assert.strictEqual(read('notes.md'), 'original notes\n');
		});

		it('a command in the Docker sandbox gets a checkpoint too: the file it created is removed on restore', async function () {
			if (
				!(await new Docker().ping().then(
					() => true,
					() => false,
				))
			) {
				requirePart(this, 'Docker engine', 'no engine answers in the extension host');
			}
			this.timeout(180_000);
			// When VS Code runs as root the sandbox runs as 1000:1000 (keel.shell.user): let it write
			// into the root-owned copy of the fixture, as it could in a user's own folder.
			const modes = [root(), file('README.md')].map(p => [p, fs.statSync(p).mode] as const);
			fs.chmodSync(root(), 0o777);
			fs.chmodSync(file('README.md'), 0o666);
			try {
				await sandboxTurn();
			} finally {
				modes.forEach(([p, mode]) => fs.chmodSync(p, mode));
			}
		});

		async function sandboxTurn() {
			await keel.set('shell.backend', 'docker');
			await keel.set('approval.autoApproveCommands', true);
			keel.double.script(
				toolCalls([
					{
						name: 'run_command',
						arguments: {
							command: 'echo from-sandbox > made-in-sandbox.txt && sed -i s/Fixture/Sandboxed/ README.md',
						},
					},
				]),
				text('{{lastToolResult}}'),
			);
			const readme = read('README.md');
			const outcome = await api().runTurn('run it');
			assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
			assert.ok(keel.toolResults().at(-1)!.ok, keel.toolResults().at(-1)!.content);
			assert.strictEqual(read('made-in-sandbox.txt'), 'from-sandbox\n');
			const turns = await api().turns();
			assert.deepStrictEqual(
				turns
					.at(-1)!
					.changes!.map(c => `${c.status} ${c.path}`)
					.sort(),
				['added made-in-sandbox.txt', 'modified README.md'],
			);
			const restored = await api().restoreCheckpoint(outcome.turnId, 'cancel');
			assert.strictEqual(restored.restored.length, 2, restored.message);
			assert.strictEqual(read('made-in-sandbox.txt'), undefined);
			assert.strictEqual(read('README.md'), readme);
		}

		it('rewinds the conversation to before a turn (returning its prompt to edit), restores its files with it, and the rewind can be undone', async () => {
			keel.double.script(text('First answer.'));
			await api().runTurn('first question');
			keel.double.script(
				toolCalls([{ name: 'write_file', arguments: { path: 'made-by-keel.ts', content: 'x\n' } }]),
				text('Second answer.'),
			);
			const second = await api().runTurn('second question');
			const summary = () =>
				api()
					.transcript()
					.map(m => `${m.kind}: ${m.content}`);
			const before = summary();
			const rewound = await api().rewindTo(second.turnId, { restoreFiles: true, onConflict: 'cancel' });
			assert.strictEqual(rewound.prompt, 'second question');
			assert.strictEqual(rewound.restored!.restored.length, 1);
			assert.strictEqual(read('made-by-keel.ts'), undefined);
			assert.deepStrictEqual(
				api()
					.transcript()
					.map(m => m.content),
				['first question', 'First answer.'],
			);
			assert.deepStrictEqual(
				api()
					.view()
					.items.filter(i => i.kind === 'user')
					.map(i => (i as { text: string }).text),
				['first question'],
			);
			assert.strictEqual(api().undoRewind(), true);
			assert.deepStrictEqual(summary(), before);
			await api().undoRestore('overwrite');
			assert.strictEqual(read('made-by-keel.ts'), 'x\n');
			fs.rmSync(file('made-by-keel.ts'));
		});
	});

	describe('palette commands', () => {
		it('"Keel: Restore Files to Before a Turn", "Undo Last Restore" and "Switch Mode" work from the palette (with their argument)', async () => {
			await keel.set('approval.autoApproveWrites', true);
			keel.double.script(
				toolCalls([{ name: 'write_file', arguments: { path: 'made-by-keel.ts', content: 'palette\n' } }]),
				text('Done.'),
			);
			const outcome = await api().runTurn('make a file');
			assert.strictEqual(read('made-by-keel.ts'), 'palette\n');
			await vscode.commands.executeCommand('keel.showTurnChanges', outcome.turnId);
			await until(
				() => /changes of "make a file"/.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ''),
				'the multi-file diff of the turn',
			);
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			await vscode.commands.executeCommand('keel.restoreCheckpoint', outcome.turnId);
			assert.strictEqual(read('made-by-keel.ts'), undefined);
			await vscode.commands.executeCommand('keel.undoRestore');
			assert.strictEqual(read('made-by-keel.ts'), 'palette\n');
			fs.rmSync(file('made-by-keel.ts'));
			await vscode.commands.executeCommand('keel.switchMode', 'plan');
			assert.strictEqual(api().mode().id, 'plan');
			await vscode.commands.executeCommand('keel.actMode');
			assert.strictEqual(api().mode().id, 'act');
			const result = await api().submit('/model qwen3:8b');
			assert.strictEqual(vscode.workspace.getConfiguration('keel').get('model.name'), 'qwen3:8b');
			assert.match((result as { message: string }).message, /^Model: qwen3:8b/);
			await keel.set('model.name', undefined);
		});
	});

	describe('modes', () => {
		it('Plan offers only read tools and asks for a plan; a write the model tries anyway is refused; Act brings the tools back', async () => {
			assert.strictEqual(api().mode().id, 'act');
			const result = await api().submit('/plan');
			assert.deepStrictEqual([result.kind, api().mode().name], ['command', 'Plan']);
			assert.ok(notices().some(n => n.code === 'mode' && /^Mode: Plan mode \(read-only tools\)/.test(n.text)));
			keel.double.script(
				toolCalls([{ name: 'write_file', arguments: { path: 'plan.txt', content: 'x' } }]),
				text('1. Do it.'),
			);
			const outcome = await api().runTurn('how would you add a feature?');
			assert.strictEqual(outcome.reason, 'completed', outcome.error?.message);
			assert.match(systemPrompt(0), /You are in Plan mode/);
			assert.ok(toolNames(0).includes('read_file'));
			assert.ok(
				!toolNames(0).some(name => ['write_file', 'edit_file', 'run_command', 'delete_path'].includes(name)),
				toolNames(0).join(),
			);
			assert.strictEqual(read('plan.txt'), undefined);
			assert.notStrictEqual(keel.toolResults()[0].ok, true);

			api().setMode('act');
			keel.double.script(text('ok'));
			await api().runTurn('go');
			assert.ok(toolNames().includes('write_file'));
			assert.match(lastInstructionNote(), /No longer in force:[\s\S]*You are in Plan mode/);
			assert.doesNotMatch(lastInstructionNote().split('Now in force:')[1] ?? '', /Plan mode/);
		});

		it('a custom mode from keel.modes narrows the tools to its list and adds its instructions; each chat keeps its own mode', async () => {
			await keel.set('modes', [
				{ name: 'Review', instructions: 'Review the code only.', tools: ['read_file', 'grep'] },
			]);
			assert.ok(
				api()
					.modes()
					.some(m => m.name === 'Review'),
			);
			await api().submit('/mode review');
			keel.double.script(text('Looks fine.'));
			await api().runTurn('review app.ts');
			assert.deepStrictEqual(toolNames().sort(), ['grep', 'read_file']);
			assert.match(systemPrompt(), /Review the code only\./);
			const reviewSession = api().sessionId();
			api().newChat();
			assert.strictEqual(api().mode().id, 'act', 'a new chat starts in Act');
			api().resumeSession(reviewSession);
			assert.strictEqual(api().mode().id, 'review');
			await assert.rejects(api().submit('/mode nosuch'), /There is no mode "nosuch". Modes: Act, Plan, Review/);
		});
	});

	describe('slash commands, prompt files and mentions', () => {
		it('/new starts a chat, prompt files expand their arguments, and the completion list offers both', async () => {
			write('.keel/prompts/review.md', '---\ndescription: Review a file\n---\nReview $1 for $2 problems.\n');
			const names = (await api().slashCompletions('/re')).map(c => c.name);
			assert.deepStrictEqual(names, ['review']);
			assert.ok((await api().slashCompletions('/')).some(c => c.name === 'compact'));
			keel.double.script(text('Reviewed.'));
			const result = await api().submit('/review src/app.ts "naming"');
			assert.strictEqual(result.kind, 'prompt');
			assert.strictEqual(api().transcript()[0].content, 'Review src/app.ts for naming problems.');
			const id = api().sessionId();
			await api().submit('/new');
			assert.notStrictEqual(api().sessionId(), id);
			assert.deepStrictEqual(api().transcript(), []);
			await assert.rejects(api().submit('/nosuch'), /There is no command \/nosuch\. Commands: \/new, \/compact/);
		});

		it('/compact summarises with the model and continues in a new session that shows the summary', async () => {
			keel.double.script(text('We talked about the parser.'));
			await api().runTurn('Tell me about the parser');
			const oldId = api().sessionId();
			keel.double.script(text('Summary: the user asked about the parser; nothing changed.'));
			const result = await api().submit('/compact');
			assert.strictEqual(result.kind, 'command');
			assert.match((result as { message: string }).message, /^Compacted 2 messages/);
			const request = keel.double.modelRequests.at(-1)!.body;
			assert.match(request.messages.at(-1).content, /User: Tell me about the parser/);
			assert.notStrictEqual(api().sessionId(), oldId);
			assert.deepStrictEqual(
				api()
					.transcript()
					.map(m => m.kind),
				['user', 'assistant'],
			);
			assert.strictEqual(
				api().transcript()[1].content,
				'Summary: the user asked about the parser; nothing changed.',
			);
			assert.ok(
				api()
					.view()
					.items.some(i => i.kind === 'assistant' && /Summary:/.test(i.text)),
				'the summary is visible',
			);
		});

		it('@-mentions attach files, folders and problems with their token cost; a denied file is never attached', async () => {
			write('.env', 'API_KEY=very-secret-value\n');
			keel.double.script(text('Ok.'));
			const result = await api().submit('Explain @README.md and @src/ and @.env and @problems');
			assert.strictEqual(result.kind, 'prompt');
			const attachments = (
				result as { attachments: Array<{ kind: string; label: string; tokens: number; error?: string }> }
			).attachments;
			assert.deepStrictEqual(
				attachments.map(a => [a.kind, a.label, !a.error]),
				[
					['file', 'README.md', true],
					['folder', 'src/', true],
					['file', '.env', false],
					['problems', 'Problems (0)', true],
				],
			);
			assert.ok(attachments[0].tokens > 0);
			const sent = api().transcript()[0].content;
			assert.match(sent, /^Explain @README\.md/);
			assert.match(sent, /Attached file README\.md \(\d+ tokens\):\n```\n# Fixture workspace/);
			assert.match(sent, /Attached folder src\/[\s\S]*app\.ts/);
			assert.doesNotMatch(sent, /very-secret-value/);
			assert.match(JSON.stringify(keel.double.modelRequests.at(-1)!.body.messages), /# Fixture workspace/);
			assert.ok(
				notices().some(n => n.code === 'mention' && /@\.env \(.*deny list/.test(n.text)),
				JSON.stringify(notices()),
			);
			const candidates = await api().mentionCandidates('read');
			assert.ok(candidates.some(c => c.value === 'README.md'));
			assert.ok(
				!(await api().mentionCandidates('env')).some(c => c.value === '.env'),
				'a denied file is not offered',
			);
		});

		it("@terminal attaches the active terminal's last command output; a private URL is refused by the network guard", async () => {
			const terminal = vscode.window.createTerminal({ name: 'Keel mention test', shellPath: '/bin/bash' });
			try {
				terminal.show();
				const integration = await until(() => terminal.shellIntegration, 'shell integration', 20_000);
				const seen: string[] = [];
				const started = vscode.window.onDidStartTerminalShellExecution(e =>
					seen.push(`start ${e.terminal.name}`),
				);
				const ended = vscode.window.onDidEndTerminalShellExecution(e =>
					seen.push(`end ${e.terminal.name} ${e.exitCode}`),
				);
				// VS Code streams a command's output only from when the extension starts reading it; a
				// command that prints within milliseconds on a loaded machine can be missed (README).
				integration.executeCommand('sleep 1; echo keel-terminal-$((40+2))');
				let last = '';
				const resolved = await until(
					async () => {
						const r = await api().resolveMentions('why @terminal');
						last = r.prompt;
						return /keel-terminal-42/.test(r.prompt) && r;
					},
					'the command output',
					20_000,
				)
					.catch(error => {
						throw new Error(
							`${error.message}; events: ${seen.join(', ')}; active: ${vscode.window.activeTerminal?.name}; prompt: ${last}`,
						);
					})
					.finally(() => {
						started.dispose();
						ended.dispose();
					});
				assert.deepStrictEqual(
					resolved.attachments.map(a => [a.kind, a.label]),
					[['terminal', 'Terminal output']],
				);
				assert.match(resolved.prompt, /\$ sleep 1; echo keel-terminal-\$\(\(40\+2\)\)/);
			} finally {
				terminal.dispose();
			}
			const url = await api().resolveMentions('read @https://127.0.0.1/admin');
			assert.strictEqual(url.attachments[0].kind, 'url');
			assert.ok(url.attachments[0].error, 'refused');
			assert.strictEqual(url.prompt, 'read @https://127.0.0.1/admin', 'nothing attached');
		});

		it('@selection attaches the editor selection', async () => {
			const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file('src/app.ts')));
			const editor = await vscode.window.showTextDocument(doc);
			editor.selection = new vscode.Selection(0, 0, 0, 6);
			const { attachments, prompt } = await api().resolveMentions('What is @selection?');
			assert.deepStrictEqual(
				attachments.map(a => a.label),
				['src/app.ts:1-1'],
			);
			assert.match(prompt, /Attached selection src\/app\.ts:1-1 \(\d+ tokens\):\n```\nexport\n```/);
			await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
		});
	});

	describe('history', () => {
		it('searches every session\'s text, resumes the match from "Keel: Show History", renames, exports and deletes', async () => {
			keel.double.script(text('Zebras are striped.'));
			await api().runTurn('Tell me about zebrafish genetics');
			const zebra = api().sessionId();
			api().newChat();
			keel.double.script(text('Fine.'));
			await api().runTurn('Something else entirely');
			const hits = api().searchHistory('zebraf');
			assert.deepStrictEqual(
				hits.map(h => h.sessionId),
				[zebra],
			);
			assert.match(hits[0].snippet, /\[zebrafish\]/);

			await vscode.commands.executeCommand('keel.showHistory', 'zebrafish genetics');
			await new Promise(resolve => setTimeout(resolve, 300));
			await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			await until(() => api().sessionId() === zebra, 'the history pick to resume the matching session');
			assert.strictEqual(api().transcript()[0].content, 'Tell me about zebrafish genetics');

			api().renameSession(zebra, 'Fish project');
			assert.deepStrictEqual(
				api()
					.searchHistory('fish project')
					.map(h => h.title),
				['Fish project'],
			);
			assert.match(
				api().exportSession(zebra, 'markdown'),
				/^# Fish project\n[\s\S]*## You\n\nTell me about zebrafish genetics/,
			);
			api().deleteSession(zebra);
			assert.deepStrictEqual(api().searchHistory('zebrafish'), []);
			assert.notStrictEqual(api().sessionId(), zebra, 'deleting the current session starts a new chat');
		});
	});
});
