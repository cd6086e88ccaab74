import * as vscode from 'vscode';
import type { AgentEvent } from '../core/agent/events';
import type { TurnOutcome } from '../core/agent/runAgent';
import type { CanonicalMessage } from '../core/llm/canonical';
import { createChatModel } from '../core/llm/providers';
import { createToolset } from '../core/tools/toolset';
import { ToolRegistry } from '../core/tools/registry';
import { Disposable } from '../core/util/lifecycle';
import type { SessionView } from '../shared/views';
import { ChatViewProvider } from './chatViewProvider';
import { DiffEditor } from './diffEditor';
import { Everyday } from './everyday';
import type { EverydayApi } from './everydayApi';
import { everydayCommands } from './everydayCommands';
import { hostToolDeps } from './hostToolDeps';
import { readApprovalSettings, readMaxSteps, readModelConfig } from './config';
import { Notifier } from './notifier';
import { GlobalStateToolModeMemory, readRecoverySettings } from './recoveryConfig';
import { RetryProgress } from './retryProgress';
import { createOutputLogger } from './outputLogger';
import { createShellTooling } from './shellHost';
import { getApiKey, promptAndStoreApiKey } from './secrets';
import { selectionPrompt } from './selectionPrompt';
import { SessionController } from './sessionController';
import { StoredOutputs } from '../core/store/storedOutputs';
import { ModelPicker } from './modelPicker';
import { readResolvedProvider } from './providerConfig';
import { showHistory } from './sessionHistory';
import { SessionPersistence } from './sessionPersistence';
import { VscodeWorkspace } from './vscodeWorkspace';
import { WebviewChannel } from './webviewChannel';

/** What activate() returns: lets tests and other extensions drive a turn and read the result. */
export interface KeelApi extends EverydayApi {
	runTurn(prompt: string): Promise<TurnOutcome>;
	/** `always`: approve and save the card's suggested rule ("Always allow"). */
	decideToolCall(toolCallId: string, approved: boolean, reason?: string, always?: boolean): boolean;
	pendingApprovals(): string[];
	transcript(): CanonicalMessage[];
	view(): SessionView;
	newChat(): void;
	/** The current session's id in the history store; resumeSession switches to a stored one. */
	sessionId(): string;
	resumeSession(sessionId: string): boolean;
	onDidEvent(listener: (event: AgentEvent) => void): vscode.Disposable;
}

/** The composition root of the host bundle: adapters → core → views; owns their disposal. */
export class KeelHost extends Disposable {
	readonly api: KeelApi;
	private readonly _provider: ChatViewProvider;
	private readonly _controller: SessionController;
	private readonly _persistence: SessionPersistence;
	private readonly _modelPicker: ModelPicker;
	/** Rules, checkpoints, modes, slash commands, mentions, history search (everyday.ts). */
	readonly everyday: Everyday;

	constructor(private readonly _context: vscode.ExtensionContext) {
		super();
		const output = this._register(vscode.window.createOutputChannel('Keel', { log: true }));
		const logger = createOutputLogger(output);
		const workspace = new VscodeWorkspace();
		// Every tool wrapped with redaction, truncation and the per-turn read cache (toolset.ts).
		// run_command: Docker sandbox or the Keel terminal (shellHost.ts); disposing removes the container.
		const shell = createShellTooling(this._context, logger);
		this._register(shell.disposable);
		// Registered before the controller, so it closes after the controller's last write.
		this._persistence = this._register(new SessionPersistence(this._context.storageUri ?? this._context.globalStorageUri, logger));
		const outputs = this._persistence.store ? new StoredOutputs(this._persistence.store) : undefined;
		const everyday = (this.everyday = this._register(new Everyday(this._context, workspace, logger, this._persistence)));
		// File tools and commands take the turn's checkpoint before they run.
		const registry = new ToolRegistry(everyday.wrapTools(createToolset(hostToolDeps(outputs), shell.tools)));
		const diffEditor = this._register(new DiffEditor());
		let provider: ChatViewProvider | undefined;
		const channel = new WebviewChannel(message => provider?.post(message));
		const toolModeMemory = new GlobalStateToolModeMemory(this._context.globalState);

		const createModel = async () => {
			const resolved = readResolvedProvider();
			return createChatModel(resolved, await getApiKey(this._context.secrets, resolved.baseUrl));
		};
		this._controller = this._register(
			new SessionController(
				sessionId => ({
					createModel: async () => {
						// The prompt of this turn must carry the rules as they are now (a reload may be running).
						await everyday.rules.ready();
						return createModel();
					},
					modelLabel: () => readModelConfig().model,
					registry,
					workspace,
					// The session's mode narrows the tools (Plan: read-only) through deny rules.
					approvalSettings: () => everyday.approvalSettings(sessionId, readApprovalSettings()),
					maxSteps: readMaxSteps,
					recovery: readRecoverySettings,
					toolModeMemory,
					systemPrompt: () => everyday.systemPrompt(sessionId, workspace.rootName),
				}),
				channel,
				logger,
				this._persistence,
			),
		);
		everyday.attach({ controller: this._controller, registry, createModel, contextWindow: () => readModelConfig().contextWindow });
		this._modelPicker = this._register(new ModelPicker(this._context, logger));
		provider = this._provider = this._register(new ChatViewProvider(this._context.extensionUri, this._controller, channel, logger, (id, index) => void diffEditor.open(id, index)));
		const notifier = new Notifier(() => void vscode.commands.executeCommand('keel.chat.focus'), () => this._provider.visible, (id, proceed) => this._controller.decideContinue(id, proceed));
		this._register(this._controller.onDidEvent(event => notifier.handle(event)));
		const retryProgress = this._register(new RetryProgress(() => this._controller.stop()));
		this._register(this._controller.onDidEvent(event => retryProgress.handle(event)));
		this._register(this._controller.onDidEvent(event => diffEditor.handle(event)));
		this._register(
			vscode.workspace.onDidChangeConfiguration(event => {
				if (event.affectsConfiguration('keel.model')) {
					this._controller.session.model.setModelLabel(readModelConfig().model);
					this._controller.refreshView();
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

	async probeModel(): Promise<void> {
		await this._modelPicker.probe();
	}

	/** `question` lets keybindings and tests skip the input box. */
	async askAboutSelection(question?: string): Promise<void> {
		const editor = vscode.window.activeTextEditor;
		if (!editor || editor.selection.isEmpty) {
			void vscode.window.showInformationMessage('Keel: select some code first, then run "Keel: Ask About Selection".');
			return;
		}
		question ??= await vscode.window.showInputBox({ title: 'Keel: Ask About Selection', prompt: 'What do you want to know about the selected code?', value: 'Explain this code.' });
		if (!question) {
			return;
		}
		await vscode.commands.executeCommand('keel.chat.focus');
		const relative = vscode.workspace.asRelativePath(editor.document.uri, false);
		this._controller.sendFromUser(selectionPrompt(question, relative, editor.selection.start.line + 1, editor.document.getText(editor.selection), editor.document.languageId));
	}
}
