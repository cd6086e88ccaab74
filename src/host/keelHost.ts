import * as vscode from 'vscode';
import { Disposable } from '../core/util/lifecycle';
import { ChatViewProvider } from './chat/chatViewProvider';
import { DiffEditor } from './chat/diffEditor';
import { WebviewChannel } from './chat/webviewChannel';
import { CheckModel, checkModelCommands } from './checkModel/checkModel';
import { checkpointCommands } from './checkpoints/checkpointCommands';
import { CheckpointsHost } from './checkpoints/checkpointsHost';
import { TurnChanges } from './checkpoints/turnChanges';
import type { CommandHandler, HostCommandId } from './commandIds';
import { composerApi, composerCommands, createComposer } from './composer/composerApi';
import { MentionsHost } from './composer/mentionsHost';
import type { KeelApi } from './keelApi';
import { LazyFeatures } from './lazyFeatures';
import { mcpApi, mcpCommands } from './mcp/mcpApi';
import { McpManager } from './mcp/mcpManager';
import { createConfiguredModel } from './models/chatModels';
import { followModelSetting, modelCommands } from './models/modelCommands';
import { ModelPicker } from './models/modelPicker';
import { TurnNotifications } from './notifications/turnNotifications';
import { createOutputLogger } from './notifications/outputLogger';
import { ProjectContext } from './projectContext/projectContext';
import { projectContextApi, projectContextCommands } from './projectContext/projectContextApi';
import { ProjectContextNotices } from './projectContext/projectContextNotices';
import { Compaction } from './session/compaction';
import { ConversationRewind } from './session/conversationRewind';
import { sessionApi } from './session/sessionApi';
import { sessionCommands } from './session/sessionCommands';
import { SessionController } from './session/sessionController';
import { sessionFactory } from './session/sessionFactory';
import { SessionPersistence } from './session/sessionPersistence';
import { BlockedTools } from './tools/blockedTools';
import { HostTools } from './tools/hostTools';
import { lentTools, type LentTools } from './tools/lmKeelTools';
import { LmToolSource } from './tools/lmTools';
import { ToolSystemHost } from './tools/toolSystemHost';
import { VscodeWorkspace } from './tools/vscodeWorkspace';
import { createHostGate, exportGate } from './tools/hostGate';
import { readApprovalSettings } from './settings/config';

/**
 * The composition root of the host bundle: builds every feature in dependency order and owns
 * their disposal. What a chat may never need (the tools with their sandbox, the MCP servers,
 * VS Code's tools) is built on first use; the session store opens when a conversation is first
 * needed. Each feature is a folder that contributes its part of the API and its palette commands.
 */
export class KeelHost extends Disposable {
	readonly api: KeelApi;
	/** Keel's read tools lent to VS Code's agent and other extensions (package.json languageModelTools). */
	readonly lentTools: LentTools;
	private readonly _features = new LazyFeatures();
	private readonly _chat: ChatViewProvider;
	private readonly _persistence: SessionPersistence;
	private readonly _commands: Record<HostCommandId, CommandHandler>;

	constructor(context: vscode.ExtensionContext) {
		super();
		const lazy = <T>(name: string, build: () => T) => this._features.define(name, build);
		const storage = context.storageUri ?? context.globalStorageUri;
		const output = this._register(vscode.window.createOutputChannel('Keel', { log: true }));
		const logger = createOutputLogger(output);
		const workspace = new VscodeWorkspace();
		// The one gate every surface decides through: tools, restores, mentions, rules and prompt files,
		// lent tools, exports and the model endpoint (core/gate).
		const gate = createHostGate(context.workspaceState);
		// Opened by the webview's `ready`; until then updates are dropped.
		const channel = new WebviewChannel();
		// Registered before the controller, so the store closes after the controller's last write.
		const persistence = (this._persistence = this._register(new SessionPersistence(storage, logger)));
		const toolSystem = this._register(new ToolSystemHost(logger, gate, workspace));
		const checkpoints = this._register(new CheckpointsHost(storage, gate));
		const project = this._register(new ProjectContext(workspace, logger, context.workspaceState, gate));
		const mentions = this._register(new MentionsHost(workspace, gate));
		const beforeChange = () => checkpoints.beforeChange();
		const tools = lazy('tools', () =>
			this._register(new HostTools(context, logger, toolSystem, persistence.outputs, beforeChange, gate)),
		);
		const mcp = lazy('mcp', () => this._register(new McpManager(context, tools(), logger, output, channel)));
		const vscodeTools = lazy('vscode tools', () => new LmToolSource(tools()));
		const createModel = () => createConfiguredModel(context.secrets, gate);
		// A turn's request carries the rules as they are now (a reload may be running), every source's tools,
		// and the output filters of the rule files as they are now.
		const readyForTurn = async () => {
			await Promise.all([project.rules.ready(), mcp().ready(), toolSystem.ready()]);
			vscodeTools().sync();
		};
		const sessions = sessionFactory({
			workspace,
			project,
			globalState: context.globalState,
			registry: () => tools().registry,
			createModel: () => readyForTurn().then(createModel),
		});
		const controller = this._register(new SessionController(sessions, channel, logger, persistence));
		// What acts on the conversation is built after it.
		const changes = this._register(new TurnChanges(checkpoints, controller, () => persistence.store));
		const rewind = new ConversationRewind(persistence, controller, (id, choice) => changes.restore(id, choice));
		const compaction = new Compaction(persistence, controller, project.modes, createModel);
		const composer = createComposer({ workspace, gate, mentions, controller, compaction, project });
		this._chat = this._register(
			new ChatViewProvider({
				extensionUri: context.extensionUri,
				controller,
				channel,
				logger,
				composer,
				mentions,
				changes,
				rewind,
				checkpointsChanged: checkpoints.onDidChange,
				modes: project.modes,
				diffs: this._register(new DiffEditor(controller.onDidEvent)),
				outputs: persistence.outputs,
				mcpConsents: () => mcp().consentPrompts,
			}),
		);
		// The MCP servers start with the chat, where a workspace server asks for its consent.
		this._register(channel.onDidReset(() => mcp()));
		this._register(new ProjectContextNotices(project, controller));
		this._register(new TurnNotifications(controller, () => this._chat.visible));
		this._register(followModelSetting(controller));
		const blocked = this._register(new BlockedTools(toolSystem.policy, controller));
		const picker = this._register(new ModelPicker(context, logger, gate));
		const checkModel = lazy('check model', () => this._register(new CheckModel(context, logger, gate)));
		// Lent calls pass the user's rules, path policy and approval, as calls in Keel's chat do.
		this.lentTools = lentTools(() => tools().registry, workspace, readApprovalSettings);
		const exports = exportGate(gate, workspace);
		this.api = {
			...sessionApi(controller, persistence, rewind, compaction, exports),
			...projectContextApi(project, controller, checkpoints.onDidChange),
			...changes.api,
			...composerApi(composer, mentions),
			...blocked.api,
			...mcpApi(mcp),
		};
		this._commands = {
			...sessionCommands(controller, persistence, rewind, compaction, changes, exports),
			...composerCommands(controller),
			...projectContextCommands(project, controller),
			...checkpointCommands(changes),
			...modelCommands(picker, context.secrets),
			...checkModelCommands(checkModel),
			...blocked.commands,
			...mcpCommands(mcp),
		};
	}

	resolveWebviewView(view: vscode.WebviewView): void {
		this._chat.resolve(view);
		// The view boots in the renderer for a while; the conversation it will ask for is read meanwhile.
		this._persistence.readAhead();
	}

	/** One of HOST_COMMANDS, registered by the activation shim. */
	runCommand(id: HostCommandId, args: unknown[]): unknown {
		return this._commands[id](...args);
	}

	/** The host features built so far; the others wait for their first use. */
	get builtFeatures(): readonly string[] {
		return this._features.built;
	}
}
