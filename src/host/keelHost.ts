import * as vscode from 'vscode';
import { createChatModel } from '../core/llm/providers';
import { createToolset } from '../core/tools/toolset';
import { ToolRegistry } from '../core/tools/registry';
import { Disposable } from '../core/util/lifecycle';
import { ChatViewProvider } from './chat/chatViewProvider';
import { DiffEditor } from './chat/diffEditor';
import { Everyday } from './everyday';
import type { KeelApi } from './keelApi';
import { everydayCommands } from './everydayCommands';
import { EverydayBridge } from './chat/everydayBridge';
import { hostToolDeps } from './tools/hostToolDeps';
import { readApprovalSettings, readMaxSteps, readModelConfig, readToolBudget } from './settings/config';
import { Notifier } from './notifications/notifier';
import { GlobalStateToolModeMemory, readRecoverySettings } from './models/recoveryConfig';
import { RetryProgress } from './notifications/retryProgress';
import { createOutputLogger } from './notifications/outputLogger';
import { createShellTooling } from './tools/shellHost';
import { getApiKey, promptAndStoreApiKey } from './models/secrets';
import { selectionPrompt } from './composer/selectionPrompt';
import { SessionController } from './session/sessionController';
import { StoredOutputs } from '../core/store/storedOutputs';
import { ModelPicker } from './models/modelPicker';
import { modelEndpointOrigin, readResolvedProvider } from './models/providerConfig';
import { showHistory } from './session/sessionHistory';
import { SessionPersistence } from './session/sessionPersistence';
import { VscodeWorkspace } from './tools/vscodeWorkspace';
import { WebviewChannel } from './chat/webviewChannel';
import { ToolSystemHost, unblockTools } from './tools/toolSystemHost';
import { McpManager } from './mcp/mcpManager';
import { McpConsentPrompts } from './mcp/mcpConsentPrompts';
import { createRequestToolsTool } from '../core/agent/toolPolicy/toolSelection';
import { shapeOutput } from '../core/tools/toolset';
import { createLmChatModel, isLmProviderSelected } from './models/lmChatModel';
import { invokeLentTool, prepareLentTool } from './tools/lmKeelTools';
import { LentTools } from '../core/tools/lentTools';
import { LmToolSource } from './tools/lmTools';
import { showMcpServers } from './mcp/mcpQuickPick';
import { createHostGate } from './tools/hostGate';
import { relativeOfUri } from './tools/workspaceFolderNames';
import type { Gate } from '../core/gate/gate';

/** The composition root of the host bundle: adapters → core → views; owns their disposal. */
export class KeelHost extends Disposable {
	readonly api: KeelApi;
	private readonly _provider: ChatViewProvider;
	private readonly _controller: SessionController;
	private readonly _persistence: SessionPersistence;
	private readonly _modelPicker: ModelPicker;
	private readonly _gate: Gate;
	private readonly _workspace: VscodeWorkspace;
	private readonly _toolSystem: ToolSystemHost;
	private readonly _mcp: McpManager;
	private readonly _lend: {
		invoke(name: string, input: unknown, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult>;
		prepare(name: string, input: unknown): Promise<vscode.PreparedToolInvocation>;
	};
	/** Rules, checkpoints, modes, slash commands, mentions, history search (everyday.ts). */
	readonly everyday: Everyday;

	constructor(private readonly _context: vscode.ExtensionContext) {
		super();
		const output = this._register(vscode.window.createOutputChannel('Keel', { log: true }));
		const logger = createOutputLogger(output);
		const workspace = (this._workspace = new VscodeWorkspace());
		// The one gate every surface decides through: tools, restores, mentions, rules, MCP, lent tools, the model.
		const gate = (this._gate = createHostGate(this._context.workspaceState));
		// Every tool wrapped with redaction, truncation and the per-turn read cache (toolset.ts).
		// run_command: Docker sandbox or the Keel terminal (shellHost.ts); disposing removes the container.
		const shell = createShellTooling(this._context, logger, gate);
		this._register(shell.disposable);
		// Registered before the controller, so it closes after the controller's last write.
		this._persistence = this._register(
			new SessionPersistence(this._context.storageUri ?? this._context.globalStorageUri, logger),
		);
		const outputs = this._persistence.store ? new StoredOutputs(this._persistence.store) : undefined;
		// Filters as data, the session result cache, the tool policy (anomaly guard, TAFC, dependencies).
		const toolSystem = (this._toolSystem = this._register(new ToolSystemHost(logger, gate, workspace)));
		const toolDeps = hostToolDeps(
			outputs,
			{
				toolSystem: () => toolSystem.config(),
				resultCache: toolSystem.cache,
			},
			gate,
		);
		const everyday = (this.everyday = this._register(
			new Everyday(this._context, workspace, logger, this._persistence, gate),
		));
		// File tools and commands take the turn's checkpoint before they run.
		const registry = new ToolRegistry([
			...everyday.wrapTools(createToolset(toolDeps, shell.tools)),
			createRequestToolsTool(readToolBudget),
		]);
		registry.policy = toolSystem.policy;
		// MCP servers put their tools into the same registry, gate, shaping and cards.
		const mcpConsents = new McpConsentPrompts(() => void vscode.commands.executeCommand('keel.chat.focus'));
		const mcp = (this._mcp = this._register(
			new McpManager(this._context, registry, toolDeps, logger, output, mcpConsents),
		));
		// VS Code's tools (vscode.lm.tools) join the registry before each turn; Keel's read tools are lent to VS Code.
		const lmTools = new LmToolSource(registry, (result, context) => shapeOutput(result, toolDeps, context));
		// Lent calls pass the user's rules, path policy and approval, as calls in Keel's chat do.
		const lent = new LentTools(registry, workspace, readApprovalSettings);
		this._lend = {
			invoke: (name, input, token) => invokeLentTool(lent, name, input, token),
			prepare: (name, input) => prepareLentTool(lent, name, input),
		};
		const diffEditor = this._register(new DiffEditor());
		// Opened by the webview's `ready` (chatViewProvider.ts); until then updates are dropped.
		const channel = new WebviewChannel();
		this._register(mcpConsents.attach(channel));
		const toolModeMemory = new GlobalStateToolModeMemory(this._context.globalState);

		const createModel = async () => {
			if (isLmProviderSelected()) {
				return createLmChatModel(readModelConfig().model);
			}
			const resolved = readResolvedProvider();
			// A model URL the workspace's settings chose gets no prompt until the user saw and allowed it.
			const endpoint = await gate.admitAddress(resolved.baseUrl, modelEndpointOrigin());
			return createChatModel(
				resolved,
				await getApiKey(this._context.secrets, resolved.baseUrl),
				gate.modelFetch(endpoint),
			);
		};
		this._controller = this._register(
			new SessionController(
				sessionId => ({
					createModel: async () => {
						// The prompt of this turn must carry the rules as they are now (a reload may be running).
						await Promise.all([everyday.rules.ready(), mcp.ready(), toolSystem.ready()]);
						lmTools.sync();
						return createModel();
					},
					modelLabel: () => readModelConfig().model,
					endpoint: () => readResolvedProvider().baseUrl,
					registry,
					workspace,
					// The session's mode narrows the tools (Plan: read-only) through deny rules.
					approvalSettings: () => everyday.approvalSettings(sessionId, readApprovalSettings()),
					maxSteps: readMaxSteps,
					recovery: readRecoverySettings,
					toolModeMemory,
					systemPrompt: () =>
						everyday.systemPrompt(
							sessionId,
							workspace.rootName,
							workspace.folders().map(f => f.name),
						),
				}),
				channel,
				logger,
				this._persistence,
			),
		);
		everyday.attach({
			controller: this._controller,
			registry,
			createModel,
			contextWindow: () => readModelConfig().contextWindow,
		});
		this._modelPicker = this._register(new ModelPicker(this._context, logger, gate));
		const everydayBridge = this._register(new EverydayBridge(everyday.api, this._controller, channel, logger));
		this._provider = this._register(
			new ChatViewProvider(
				this._context.extensionUri,
				this._controller,
				channel,
				logger,
				(id, index) => void diffEditor.open(id, index),
				(id, offset) =>
					this._controller.sendRawOutput(id, offset, (session, ref) => toolDeps.outputs.get(session, ref)),
				everydayBridge,
				(id, allow) => mcpConsents.decide(id, allow),
			),
		);
		const notifier = new Notifier(
			() => void vscode.commands.executeCommand('keel.chat.focus'),
			() => this._provider.visible,
			(id, proceed) => this._controller.decideContinue(id, proceed),
		);
		this._register(this._controller.onDidEvent(event => notifier.handle(event)));
		const retryProgress = this._register(new RetryProgress(() => this._controller.stop()));
		this._register(this._controller.onDidEvent(event => retryProgress.handle(event)));
		this._register(this._controller.onDidEvent(event => diffEditor.handle(event)));
		this._register(
			this._controller.onDidChangeBusy(
				busy => void vscode.commands.executeCommand('setContext', 'keel.turnRunning', busy),
			),
		);
		// A tool blocked by the anomaly guard: the notification's one click unblocks it (the chat shows the notice inline).
		this._register(
			this._controller.onDidEvent(event => {
				if (event.type === 'notice' && event.code === 'toolBlocked') {
					const tool = event.text.split(' ')[0];
					void vscode.window
						.showWarningMessage(`Keel: ${event.text}`, 'Unblock')
						.then(choice => choice && unblockTools(toolSystem.policy, this._controller.sessionId, tool));
				}
			}),
		);
		this._register(
			vscode.workspace.onDidChangeConfiguration(event => {
				if (event.affectsConfiguration('keel.model')) {
					this._controller.setModel(readModelConfig().model, readResolvedProvider().baseUrl);
				}
			}),
		);

		const controller = this._controller;
		this.api = {
			...everyday.api,
			runTurn: prompt => controller.send(prompt),
			decideToolCall: (id, approved, reason, always) => controller.decide(id, approved, reason, always),
			pendingApprovals: () => controller.session.pendingApprovals(),
			transcript: () => controller.transcript(),
			view: () => controller.snapshot(),
			newChat: () => controller.newChat(),
			sessionId: () => controller.sessionId,
			resumeSession: id => controller.resume(id),
			onDidEvent: listener => controller.onDidEvent(listener),
			blockedTools: () => toolSystem.policy.session(controller.sessionId).anomaly.blocked(),
			unblockTool: name => toolSystem.policy.session(controller.sessionId).anomaly.unblock(name),
			mcpServers: async () => {
				await mcp.ready();
				return mcp.list().map(s => ({
					name: s.entry.config.name,
					scope: s.entry.config.scope,
					status: s.status,
					error: s.error,
					tools: s.tools.filter(t => !t.disabled).map(t => t.name),
				}));
			},
		};
	}

	resolveWebviewView(view: vscode.WebviewView): void {
		this._provider.resolve(view);
	}

	newChat(): void {
		this._controller.newChat();
	}

	stop(): void {
		this._controller.stop();
	}

	async setApiKey(): Promise<void> {
		await promptAndStoreApiKey(this._context.secrets, readResolvedProvider().baseUrl);
	}

	/** `query` starts the list searched (keybindings, tests). */
	showHistory(query?: string): Promise<void> {
		return showHistory(this._persistence, {
			query,
			currentSessionId: () => this._controller.sessionId,
			resume: id => void this._controller.resume(id),
			newChat: () => this._controller.newChat(),
			// An export saved inside the workspace is a write there, and what it copies is decided again: the gate.
			exports: {
				check: async target => {
					const relative = relativeOfUri(target);
					if (relative !== undefined) {
						await this._gate.admitExport(this._workspace, relative);
					}
				},
				filter: messages => this._gate.exportable(messages),
			},
		});
	}

	/** Runs one of EVERYDAY_COMMANDS (registered by the activation shim). */
	everydayCommand(id: string, args: unknown[]): Promise<void> {
		const command = everydayCommands(() => this.everyday)[id];
		return command ? command(...args) : Promise.resolve();
	}

	selectModel(): Promise<void> {
		return this._modelPicker.select();
	}

	async unblockTools(): Promise<void> {
		const names = await unblockTools(this._toolSystem.policy, this._controller.sessionId);
		if (names.length) {
			void vscode.window.showInformationMessage(`Keel: unblocked ${names.join(', ')}.`);
		}
	}

	/** A Language Model Tool call from VS Code or another extension (registered by the activation shim). */
	invokeLentTool(
		name: string,
		input: unknown,
		token: vscode.CancellationToken,
	): Promise<vscode.LanguageModelToolResult> {
		return this._lend.invoke(name, input, token);
	}

	/** What VS Code shows before a lent call: its title, and a confirmation when Keel's rules ask. */
	prepareLentTool(name: string, input: unknown): Promise<vscode.PreparedToolInvocation> {
		return this._lend.prepare(name, input);
	}

	showMcpServers(): Promise<void> {
		return showMcpServers(this._mcp);
	}

	async probeModel(): Promise<void> {
		await this._modelPicker.probe();
	}

	/** `question` lets keybindings and tests skip the input box. */
	async askAboutSelection(question?: string): Promise<void> {
		const editor = vscode.window.activeTextEditor;
		if (!editor || editor.selection.isEmpty) {
			void vscode.window.showInformationMessage(
				'Keel: select some code first, then run "Keel: Ask About Selection".',
			);
			return;
		}
		question ??= await vscode.window.showInputBox({
			title: 'Keel: Ask About Selection',
			prompt: 'What do you want to know about the selected code?',
			value: 'Explain this code.',
		});
		if (!question) {
			return;
		}
		await vscode.commands.executeCommand('keel.chat.focus');
		const relative = vscode.workspace.asRelativePath(editor.document.uri, false);
		this._controller.sendFromUser(
			selectionPrompt(
				question,
				relative,
				editor.selection.start.line + 1,
				editor.document.getText(editor.selection),
				editor.document.languageId,
			),
		);
	}
}
