import * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import { McpConnection, describe, type McpConnectionEvent } from '../../core/tools/sources/mcpConnection';
import { mcpToolName } from '../../core/tools/sources/mcpTools';
import { Disposable } from '../../core/util/lifecycle';
import { McpConsent } from './mcpConsent';
import { McpConsentPrompts } from './mcpConsentPrompts';
import type { WebviewChannel } from '../chat/webviewChannel';
import { focusChat } from '../notifications/turnNotifications';
import { McpInputs } from './mcpInputs';
import { consentSource, loadServers, resolveEntry, vscodeUserMcpFile, type McpServerEntry } from './mcpServers';

export type { ServerStatus } from './mcpToolSync';
import { readSetting } from '../settings/settings';
import { DISABLED_TOOLS, McpToolSync, type ServerRecord, type ServerStatus } from './mcpToolSync';
import type { HostTools } from '../tools/hostTools';

export interface ServerInfo {
	entry: McpServerEntry;
	status: ServerStatus;
	error?: string;
	transport?: string;
	/** Every tool the server offers, with Keel's name and whether the user disabled it. */
	tools: Array<{ name: string; mcpName: string; description?: string; disabled: boolean }>;
}

const DISABLED_SERVERS = 'keel.mcp.disabledServers';

/**
 * Keeps Keel's MCP servers in step with their configuration: starts the ones allowed to run
 * (never in an untrusted workspace; a workspace's server only after the user's yes), puts
 * their tools into the registry and takes them out again, logs each server's stderr to Keel's
 * output channel, and says so when a server fails or crashes.
 */
export class McpManager extends Disposable {
	private readonly _servers = new Map<string, ServerRecord>();
	/** The chat's cards that ask to start a workspace server. */
	readonly consentPrompts: McpConsentPrompts;
	private readonly _consent: McpConsent;
	private readonly _toolSync: McpToolSync;
	private readonly _inputs: McpInputs;
	private _configErrors: string[] = [];
	private _ready: Promise<void> = Promise.resolve();
	private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
	readonly onDidChange = this._onDidChange.event;

	constructor(
		private readonly _context: vscode.ExtensionContext,
		/** The registry the servers' tools join, and the output shaping their results get. */
		private readonly _tools: Pick<HostTools, 'registry' | 'shape'>,
		private readonly _logger: Logger,
		private readonly _output: vscode.OutputChannel,
		/** Where the cards that ask to start a workspace server are shown. */
		channel: WebviewChannel,
		/** A line in the conversation (the answer a consent card got). */
		say: (text: string) => void = () => undefined,
	) {
		super();
		this.consentPrompts = this._register(new McpConsentPrompts(channel, focusChat, say));
		this._consent = new McpConsent(_context.workspaceState, this.consentPrompts);
		this._toolSync = new McpToolSync(_tools, _context.globalState, this._consent, _logger);
		this._inputs = new McpInputs(_context.secrets);
		// ready() follows the latest reload, so a turn right after a config change sees its servers.
		const reload = () => void (this._ready = this.reload());
		const userFile = vscodeUserMcpFile(_context.globalStorageUri);
		for (const pattern of [
			'**/.vscode/mcp.json',
			new vscode.RelativePattern(vscode.Uri.joinPath(userFile, '..'), 'mcp.json'),
		]) {
			const watcher = this._register(vscode.workspace.createFileSystemWatcher(pattern));
			[watcher.onDidChange, watcher.onDidCreate, watcher.onDidDelete].forEach(event =>
				this._register(event(reload)),
			);
		}
		this._register(vscode.workspace.onDidChangeConfiguration(e => e.affectsConfiguration('keel.mcp') && reload()));
		this._register(vscode.workspace.onDidGrantWorkspaceTrust(reload));
		this._register({ dispose: () => void this._stopAll() });
		this._ready = this.reload();
	}

	/** Resolves once the configured servers had their first chance to start (bounded by the connect timeout). */
	ready(): Promise<void> {
		return this._ready;
	}

	get configErrors(): readonly string[] {
		return this._configErrors;
	}

	list(): ServerInfo[] {
		const disabledTools = new Set(this._context.globalState.get<string[]>(DISABLED_TOOLS, []));
		return [...this._servers.values()].map(s => ({
			entry: s.entry,
			status: s.status ?? s.connection?.state ?? 'stopped',
			error: s.error ?? s.connection?.error,
			transport: s.connection?.transport,
			tools: (s.connection?.tools ?? []).map(t => {
				const name = mcpToolName(s.entry.config.name, t.name);
				return { name, mcpName: t.name, description: t.description, disabled: disabledTools.has(name) };
			}),
		}));
	}

	async reload(): Promise<void> {
		const loaded = await loadServers(vscodeUserMcpFile(this._context.globalStorageUri));
		this._configErrors = loaded.errors;
		for (const error of loaded.errors) {
			this._logger.warn(`MCP configuration: ${error}`);
		}
		const wanted = new Map(loaded.entries.map(e => [e.key, e]));
		for (const [key, server] of this._servers) {
			const next = wanted.get(key);
			if (!next || McpConsent.fingerprint(next.config) !== McpConsent.fingerprint(server.entry.config)) {
				await this._stop(key);
				this._servers.delete(key);
			}
		}
		const starts: Promise<void>[] = [];
		for (const entry of loaded.entries) {
			const known = this._servers.get(entry.key);
			if (!known) {
				this._servers.set(entry.key, { entry, registered: [], generation: 0 });
				starts.push(this._firstStart(entry));
			} else if (known.status === 'untrusted') {
				// Trust was granted since: start what was held back.
				starts.push(this._firstStart(entry));
			}
		}
		this._onDidChange.fire();
		await Promise.all(starts);
	}

	/**
	 * `interactive`: the user asked (quick pick), so a missing consent is asked for and what
	 * happens is shown. One server has one start at a time: a second Start (or the consent card's
	 * Allow) joins the start under way, so whatever the order of clicks there is one process.
	 */
	start(key: string, interactive = true): Promise<void> {
		const server = this._servers.get(key);
		if (!server) {
			return Promise.resolve();
		}
		if (server.pending) {
			if (interactive) {
				this._showPending(server.entry.config.name, server.status);
			}
			return server.pending;
		}
		if (server.connection?.state === 'running' || server.connection?.state === 'starting') {
			if (interactive) {
				void vscode.window.showInformationMessage(
					`Keel: the MCP server "${server.entry.config.name}" is already running.`,
				);
			}
			return Promise.resolve();
		}
		const pending = this._start(key, server, interactive).finally(() => {
			if (server.pending === pending) {
				server.pending = undefined;
			}
		});
		server.pending = pending;
		return pending;
	}

	/**
	 * A server's start as ready() waits for it: a server that asks for consent counts as started
	 * once its card is up (the turn that needs it waits for the answer and says so, see keelHost).
	 */
	private _firstStart(entry: McpServerEntry): Promise<void> {
		const started = this.start(entry.key, false);
		return vscode.workspace.isTrusted && !this._consent.isAllowed(entry.config) ? Promise.resolve() : started;
	}

	/** Workspace servers whose consent card is waiting for the user, by name. */
	pendingConsents(): string[] {
		return this.consentPrompts.cards.filter(c => c.state === 'pending').map(c => c.server);
	}

	/** Resolves when every consent card shown now has been answered (and the allowed servers had their start). */
	async consentsAnswered(): Promise<void> {
		const waiting: Promise<void>[] = [];
		for (const server of this._servers.values()) {
			if (server.status === 'needsConsent' && server.pending) {
				waiting.push(server.pending);
			}
		}
		await Promise.all(waiting);
	}

	/** Start was chosen while the server's card waits or a start is under way: say where things are. */
	private _showPending(name: string, status: ServerStatus | undefined): void {
		if (status === 'needsConsent') {
			this.consentPrompts.reveal();
			void vscode.window.showInformationMessage(
				`Keel: "${name}" waits for your permission: answer Allow or Deny on its card in the Keel chat.`,
			);
		} else {
			void vscode.window.showInformationMessage(`Keel: the MCP server "${name}" is starting.`);
		}
	}

	private async _start(key: string, server: ServerRecord, interactive: boolean): Promise<void> {
		const { entry } = server;
		// A stop or a reload while this start awaits makes it stale: it must not leave a process behind.
		const generation = server.generation;
		const set = (status: ServerStatus | undefined, error?: string) => {
			server.status = status;
			server.error = error;
			this._onDidChange.fire();
		};
		if (!vscode.workspace.isTrusted) {
			return set('untrusted', 'MCP servers never start in an untrusted workspace (Workspace Trust).');
		}
		if (!interactive && this._context.globalState.get<string[]>(DISABLED_SERVERS, []).includes(key)) {
			return set('disabled');
		}
		if (!this._consent.isAllowed(entry.config)) {
			set('needsConsent', 'Waiting for your permission to start this workspace server.');
			const allowed = await this._consent.ask(entry.config, consentSource(entry), interactive);
			if (!allowed || server.generation !== generation || this._servers.get(key) !== server) {
				set(
					allowed ? undefined : 'stopped',
					allowed ? undefined : 'You denied starting this server. Start asks again.',
				);
				return;
			}
		}
		await this._setDisabled(DISABLED_SERVERS, key, false);
		set(undefined);
		// A connection that gave up reconnecting is replaced, never left with a timer of its own.
		await server.connection?.stop();
		try {
			const resolved = await resolveEntry(entry, this._inputs);
			const connection = new McpConnection(
				resolved.config,
				{
					callTimeoutMs: Math.max(1, readSetting('mcp.callTimeoutSeconds')) * 1000,
					connectTimeoutMs: Math.max(1, readSetting('mcp.connectTimeoutSeconds')) * 1000,
					maxReconnects: 3,
					reconnectBaseMs: 2000,
					clientVersion: String(this._context.extension.packageJSON.version ?? '0'),
					env: resolved.env,
				},
				event => this._handle(key, event),
			);
			if (server.generation !== generation || this._servers.get(key) !== server) {
				return;
			}
			server.connection = connection;
			await connection.start();
			this._logger.info(
				`MCP ${entry.config.name}: running (${connection.transport}), ${connection.tools.length} tools`,
			);
			if (interactive) {
				void vscode.window.showInformationMessage(
					`Keel: the MCP server "${entry.config.name}" is running with ${connection.tools.length} tools.`,
				);
			}
		} catch (error) {
			set('error', describe(error));
			this._logger.warn(`MCP ${entry.config.name}: failed to start: ${describe(error)}`);
			void vscode.window
				.showErrorMessage(
					`Keel: the MCP server "${entry.config.name}" did not start: ${describe(error)}`,
					'Show Logs',
				)
				.then(c => c && this._output.show(true));
		}
	}

	async stop(key: string, disable = false): Promise<void> {
		await this._stop(key);
		if (disable) {
			await this._setDisabled(DISABLED_SERVERS, key, true);
			const server = this._servers.get(key);
			if (server) {
				server.status = 'disabled';
			}
		}
		this._onDidChange.fire();
	}

	async restart(key: string): Promise<void> {
		await this._stop(key);
		await this.start(key, true);
	}

	async revoke(key: string): Promise<void> {
		const server = this._servers.get(key);
		if (server) {
			await this._stop(key);
			await this._consent.revoke(server.entry.config);
			server.status = 'needsConsent';
			this._onDidChange.fire();
		}
	}

	async setToolDisabled(key: string, toolName: string, disabled: boolean): Promise<void> {
		await this._setDisabled(DISABLED_TOOLS, toolName, disabled);
		this._syncKey(key);
	}

	showLogs(): void {
		this._output.show(true);
	}

	private async _setDisabled(stateKey: string, item: string, disabled: boolean): Promise<void> {
		const current = new Set(this._context.globalState.get<string[]>(stateKey, []));
		disabled ? current.add(item) : current.delete(item);
		await this._context.globalState.update(stateKey, [...current]);
	}

	private async _stop(key: string): Promise<void> {
		const server = this._servers.get(key);
		if (server) {
			server.generation++;
		}
		if (!server?.connection) {
			return;
		}
		const connection = server.connection;
		server.connection = undefined;
		server.status = undefined;
		server.heldBack = undefined;
		this._toolSync.unregister(server);
		await connection.stop();
	}

	private async _stopAll(): Promise<void> {
		await Promise.all([...this._servers.keys()].map(key => this._stop(key)));
	}

	private _handle(key: string, event: McpConnectionEvent): void {
		const server = this._servers.get(key);
		const name = server?.entry.config.name ?? key;
		switch (event.kind) {
			case 'stderr':
				for (const line of event.text.split(/\r?\n/).filter(l => l.trim())) {
					this._logger.info(`[mcp ${name}] ${line}`);
				}
				return;
			case 'tools':
				this._logger.info(
					`MCP ${name}: ${event.tools.length} tools (${event.tools.map(t => t.name).join(', ')})`,
				);
				if (server) {
					void this._toolSync.checkPins(server, event.tools, () => this._onDidChange.fire());
				}
				break;
			case 'crashed':
				this._logger.warn(`MCP ${name}: ${event.error}${event.willRetry ? '; reconnecting' : ''}`);
				if (server) {
					this._toolSync.unregister(server);
					server.heldBack = undefined;
				}
				void vscode.window
					.showWarningMessage(
						`Keel: the MCP server "${name}" stopped unexpectedly (${event.error}).${event.willRetry ? ' Reconnecting…' : ' Restart it from "Keel: MCP Servers".'}`,
						'Show Logs',
					)
					.then(c => c && this._output.show(true));
				break;
			case 'state':
				if (event.state === 'running') {
					if (server?.status === 'error') {
						server.status = undefined;
					}
					// The first tools/list answers before the state says running: register them now.
					this._syncKey(key);
				}
				break;
		}
		this._onDidChange.fire();
	}

	private _syncKey(key: string): void {
		const server = this._servers.get(key);
		if (server) {
			this._toolSync.sync(server);
		}
	}
}
