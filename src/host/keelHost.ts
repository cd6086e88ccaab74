import * as vscode from 'vscode';
import type { ExportGate } from '../core/session/exportGate';
import type { TurnWait } from '../core/session/chatSession';
import { Disposable } from '../core/util/lifecycle';
import type { ChatViewProvider } from './chat/chatViewProvider';
import { WebviewChannel } from './view/webviewChannel';
import { CheckModel, checkModelCommands } from './checkModel/checkModel';
import { checkpointCommands } from './checkpoints/checkpointCommands';
import { CheckpointsHost } from './checkpoints/checkpointsHost';
import type { CommandHandler, HostCommandId } from './common/commandIds';
import { composerApi, composerCommands } from './composer/composerApi';
import { MentionsHost } from './composer/mentionsHost';
import type { KeelApi } from './common/keelApi';
import { LazyFeatures } from './lazyFeatures';
import { mcpApi, mcpCommands } from './mcp/mcpApi';
import { McpManager } from './mcp/mcpManager';
import { waitForMcpConsents } from './mcp/mcpTurnWait';
import { createConfiguredModel } from './models/chatModels';
import { followModelSetting, modelCommands } from './models/modelCommands';
import { ModelPicker } from './models/modelPicker';
import { notificationCommands, TurnNotifications } from './notifications/turnNotifications';
import type { Logger } from '../core/ports';
import { createOutputLogger } from './notifications/outputLogger';
import { ProjectContext } from './projectContext/projectContext';
import { projectContextApi, projectContextCommands } from './projectContext/projectContextApi';
import { ProjectContextNotices } from './projectContext/projectContextNotices';
import { RestrictedModeNotices } from './projectContext/restrictedMode';
import { sessionApi } from './session/sessionApi';
import { buildChat, buildConversation, type ConversationFeatures } from './conversationRoot';
import { sessionCommands } from './session/sessionCommands';
import { sessionFactory } from './session/sessionFactory';
import { SessionPersistence } from './session/sessionPersistence';
import { BlockedTools } from './tools/blockedTools';
import { HostTools } from './tools/hostTools';
import { lentTools, type LentTools } from './tools/lmKeelTools';
import { LmToolSource } from './tools/lmTools';
import { ToolSystemHost } from './tools/toolSystemHost';
import { VscodeWorkspace } from './tools/vscodeWorkspace';
import { createHostGate, exportGate } from './tools/hostGate';
import type { HostBundleLoad } from './platform/codeCache';
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

	private readonly _logger: Logger;
	private _viewsOpened = 0;

	/**
	 * `activatedAt`: when the extension activated (wall clock); `bundle`: how this host's bundle
	 * loaded. Both for the chat view's first log line.
	 */
	constructor(
		context: vscode.ExtensionContext,
		private readonly _activatedAt = Date.now(),
		private readonly _bundle?: HostBundleLoad,
	) {
		super();
		const lazy = <T>(name: string, build: () => T) => this._features.define(name, build);
		const storage = context.storageUri ?? context.globalStorageUri;
		const output = this._register(vscode.window.createOutputChannel('Keel', { log: true }));
		const logger = (this._logger = createOutputLogger(output));
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
		// The controller is built after the servers' factory; their lines reach the chat through it.
		let say = (text: string): void => void text;
		const mcp = lazy('mcp', () =>
			this._register(new McpManager(context, tools(), logger, output, channel, text => say(text))),
		);
		const vscodeTools = lazy('vscode tools', () => new LmToolSource(tools()));
		const createModel = () => createConfiguredModel(context.secrets, gate);
		// A turn's request carries the rules as they are now (a reload may be running), every source's tools
		// (including those of a server whose consent card is still open: the turn waits for the answer),
		// and the output filters of the rule files as they are now.
		const readyForTurn = async (wait?: TurnWait) => {
			await Promise.all([project.rules.ready(), mcp().ready(), toolSystem.ready()]);
			await waitForMcpConsents(mcp(), wait);
			vscodeTools().sync();
		};
		const sessions = sessionFactory({
			workspace,
			project,
			globalState: context.globalState,
			registry: () => tools().registry,
			outputs: persistence.outputs,
			toolPolicy: toolSystem.policy,
			createModel: wait => readyForTurn(wait).then(createModel),
			isTrusted: () => vscode.workspace.isTrusted,
		});
		const conversation = buildConversation(
			{ sessions, channel, logger, persistence, checkpoints, project, workspace, gate, mentions, createModel },
			item => this._register(item),
		);
		const { controller } = conversation;
		say = text => controller.showNotice({ level: 'info', code: 'mcp', text });
		this._chat = buildChat(
			conversation,
			{
				channel,
				logger,
				mentions,
				project,
				checkpointsChanged: checkpoints.onDidChange,
				outputs: persistence.outputs,
				mcpConsents: () => mcp().consentPrompts,
			},
			item => this._register(item),
		);
		// The MCP servers start with the chat, where a workspace server asks for its consent.
		this._register(channel.onDidReset(() => mcp()));
		this._register(new ProjectContextNotices(project, controller));
		this._register(new RestrictedModeNotices(controller));
		this._register(new TurnNotifications(controller, () => this._chat.visible));
		this._register(followModelSetting(controller));
		const blocked = this._register(new BlockedTools(toolSystem.policy, controller));
		const picker = this._register(new ModelPicker(context, logger, gate));
		const checkModel = lazy('check model', () => this._register(new CheckModel(context, logger, gate)));
		// Lent calls pass the user's rules, path policy and approval, as calls in Keel's chat do.
		this.lentTools = lentTools(() => tools().registry, workspace, readApprovalSettings, toolSystem.policy);
		const exports = exportGate(gate, workspace);
		const surface = { ...conversation, persistence, exports, project, checkpoints, mentions, blocked, mcp, picker };
		this.api = hostApi(surface);
		this._commands = hostCommands({ ...surface, checkModel, secrets: context.secrets });
	}

	/** The chat view; `early`: what its webview sent before the host was loaded. */
	resolveWebviewView(view: vscode.WebviewView, early?: readonly unknown[]): void {
		this._chat.resolve(view, early);
		// Where the time to a reopened chat goes (npm run bench reads it). The time is in the line:
		// the log's own stamp is taken where the line is written, after a trip out of this process.
		const now = Date.now();
		const first = this._viewsOpened++ === 0;
		const bundle = this._bundle;
		this._logger.info(
			`chat view opened at ${new Date(now).toISOString()}` +
				(first ? `, ${now - this._activatedAt} ms after Keel activated` : '') +
				(first && bundle
					? `; the host bundle loaded in ${Math.round(bundle.loadMs)} ms (compiled code from an earlier start: ${bundle.codeCache})`
					: ''),
		);
		// The view boots in the renderer for a while; the newest part of the conversation it will
		// ask for is read meanwhile (the rest once that part is on screen).
		this._persistence.readAhead();
	}

	/** After the view was focused (Keel: Focus Chat): the caret in the composer. */
	focusComposer(): void {
		this._chat.focusComposer();
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

/** What the features expose: their parts of the API and of the palette's commands. */
interface Surface extends ConversationFeatures {
	persistence: SessionPersistence;
	exports: ExportGate<vscode.Uri>;
	project: ProjectContext;
	checkpoints: CheckpointsHost;
	mentions: MentionsHost;
	blocked: BlockedTools;
	mcp: () => McpManager;
	picker: ModelPicker;
}

function hostApi(f: Surface): KeelApi {
	return {
		...sessionApi(f.controller, f.persistence, f.rewind, f.compaction, f.exports),
		...projectContextApi(f.project, f.controller, f.checkpoints.onDidChange),
		...f.changes.api,
		...composerApi(f.composer, f.mentions),
		...f.blocked.api,
		...mcpApi(f.mcp),
	};
}

function hostCommands(
	f: Surface & { checkModel: () => CheckModel; secrets: vscode.SecretStorage },
): Record<HostCommandId, CommandHandler> {
	return {
		...sessionCommands(f.controller, f.persistence, f.rewind, f.compaction, f.changes, f.exports),
		...composerCommands(f.controller),
		...projectContextCommands(f.project, f.controller),
		...checkpointCommands(f.changes),
		...notificationCommands(f.controller),
		...modelCommands(f.picker, f.secrets),
		...checkModelCommands(f.checkModel),
		...f.blocked.commands,
		...mcpCommands(f.mcp),
	};
}
