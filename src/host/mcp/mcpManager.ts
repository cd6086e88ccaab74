import * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import { McpConnection, describe, type McpConnectionEvent } from '../../core/tools/sources/mcpConnection';
import { planLaunch, withInputs, type McpLaunchPlan } from '../../core/tools/sources/mcpLaunch';
import { mcpToolName } from '../../core/tools/sources/mcpTools';
import { Disposable } from '../../core/util/lifecycle';
import { McpConsent } from './mcpConsent';
import { McpConsentPrompts } from './mcpConsentPrompts';
import type { WebviewChannel } from '../view/webviewChannel';
import { focusChat } from '../notifications/turnNotifications';
import { McpInputs } from './mcpInputs';
import { mcpStartNotices } from './mcpStartNotices';
import {
	connectionOptions,
	consentSource,
	definition,
	launchContext,
	loadServers,
	mcpConfigPatterns,
	userMcpFiles,
	type McpServerEntry,
} from './mcpServers';
import { reviewTools } from './mcpToolReview';
import {
	DISABLED_TOOLS,
	McpToolSync,
	sameNames,
	sharedServerNames,
	type ServerInfo,
	type ServerRecord,
	type ServerStatus,
} from './mcpToolSync';
import type { HostTools } from '../tools/hostTools';

export type { ServerInfo, ServerStatus } from './mcpToolSync';

const DISABLED_SERVERS = 'keel.mcp.disabledServers';

/**
 * Keeps Keel's MCP servers in step with their configuration: starts the ones allowed to run
 * (never in an untrusted workspace; a workspace's server only after the user's yes), puts
 * their tools into the registry and takes them out again, logs each server's stderr to Keel's
 * output channel, and says so when a server fails or crashes.
 */
export class McpManager extends Disposable {
	/** Each server with the plan it was started from (consent, pins and the spawn all use that one). */
	private readonly _servers = new Map<string, ServerRecord>();
	/** Server names declared in more than one place: their tools get names that say which (mcpToolName). */
	private _sharedNames = new Set<string>();
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
		this._toolSync = new McpToolSync(_tools, _context.globalState, _logger, (entry, tool) =>
			this._toolName(entry, tool),
		);
		this._inputs = new McpInputs(_context.secrets);
		// ready() follows the latest reload, so a turn right after a config change sees its servers.
		const reload = () => void (this._ready = this.reload());
		for (const pattern of mcpConfigPatterns(userMcpFiles(_context.globalStorageUri))) {
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
				const name = this._toolName(s.entry, t.name);
				return { name, mcpName: t.name, description: t.description, disabled: disabledTools.has(name) };
			}),
		}));
	}

	async reload(): Promise<void> {
		const loaded = await loadServers(userMcpFiles(this._context.globalStorageUri));
		this._configErrors = loaded.errors;
		for (const error of loaded.errors) {
			this._logger.warn(`MCP configuration: ${error}`);
		}
		const wanted = new Map(loaded.entries.map(e => [e.key, e]));
		const shared = sharedServerNames(loaded.entries);
		const namesChanged = !sameNames(shared, this._sharedNames);
		this._sharedNames = shared;
		for (const [key, server] of this._servers) {
			const next = wanted.get(key);
			if (!next || definition(next) !== definition(server.entry)) {
				await this._stop(key);
				this._servers.delete(key);
			}
		}
		const starts: Promise<void>[] = [];
		for (const entry of loaded.entries) {
			const known = this._servers.get(entry.key);
			if (!known) {
				this._servers.set(entry.key, { entry, registered: [], generation: 0 });
				starts.push(this._firstStart(entry.key));
			} else if (known.status === 'untrusted') {
				// Trust was granted since: start what was held back.
				starts.push(this._firstStart(entry.key));
			}
		}
		if (namesChanged) {
			// A name now declared twice (or no longer): the running servers' tools are renamed.
			[...this._servers.keys()].forEach(key => this._sync(key));
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
		const name = server.entry.config.name;
		if (server.pending) {
			if (interactive) {
				mcpStartNotices.pending(name, server.status, () => this.consentPrompts.reveal());
			}
			return server.pending;
		}
		if (server.connection?.state === 'running' || server.connection?.state === 'starting') {
			if (interactive) {
				mcpStartNotices.alreadyRunning(name);
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

	/** A start as ready() waits for it: done once a consent card is up (a turn waits for the answer, mcpTurnWait). */
	private _firstStart(key: string): Promise<void> {
		const server = this._servers.get(key);
		return new Promise<void>(resolve => {
			if (server) {
				server.onAsking = resolve;
			}
			void this.start(key, false).finally(resolve);
		});
	}

	/** Servers whose consent card waits for the user, by name; `answered` once each is (and an allowed one started). */
	openConsents(): { names: string[]; answered: Promise<unknown> } {
		const waiting = [...this._servers.values()].filter(s => s.status === 'needsConsent' && s.pending !== undefined);
		return {
			names: waiting.map(s => s.entry.config.name),
			answered: Promise.all(waiting.map(s => s.pending)),
		};
	}

	private async _start(key: string, server: ServerRecord, interactive: boolean): Promise<void> {
		const { entry } = server;
		// A stop or a reload while this start awaits makes it stale: it must not leave a process behind.
		const generation = server.generation;
		const stale = () => server.generation !== generation || this._servers.get(key) !== server;
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
		let plan: McpLaunchPlan;
		try {
			plan = await planLaunch(entry.config, launchContext(entry));
		} catch (error) {
			return this._failed(server, entry, error);
		}
		if (!this._consent.isAllowed(plan)) {
			set('needsConsent', 'Waiting for your permission to start this workspace server.');
			const asking = this._consent.ask(plan, consentSource(entry), interactive);
			// A first start is done once its card is up: an unanswered card must not hold ready().
			server.onAsking?.();
			server.onAsking = undefined;
			const allowed = await asking;
			if (!allowed || stale()) {
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
			// Inputs are asked now, after the yes; they never decide the program (mcpLaunch.ts).
			const resolved = await withInputs(
				plan,
				id => this._inputs.resolve(entry.config.scope, entry.origin, entry.inputs, id),
				new Set(entry.inputs.filter(input => input.password).map(input => input.id)),
			);
			server.plan = plan;
			const options = connectionOptions(String(this._context.extension.packageJSON.version ?? '0'));
			const connection = new McpConnection(resolved.config, { ...options, env: resolved.env }, event =>
				this._handle(key, event),
			);
			if (stale()) {
				return;
			}
			server.connection = connection;
			await connection.start();
			this._logger.info(
				`MCP ${entry.config.name}: running (${connection.transport}), ${connection.tools.length} tools`,
			);
			if (interactive) {
				mcpStartNotices.running(entry.config.name, connection.tools.length);
			}
		} catch (error) {
			this._failed(server, entry, error);
		}
	}

	private _failed(server: { status?: ServerStatus; error?: string }, entry: McpServerEntry, error: unknown): void {
		server.status = 'error';
		server.error = describe(error);
		this._onDidChange.fire();
		this._logger.warn(`MCP ${entry.config.name}: failed to start: ${describe(error)}`);
		mcpStartNotices.failed(entry.config.name, server.error, () => this._output.show(true));
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
			await this._consent.revoke({ identity: server.entry.key });
			server.status = 'needsConsent';
			this._onDidChange.fire();
		}
	}

	async setToolDisabled(key: string, toolName: string, disabled: boolean): Promise<void> {
		await this._setDisabled(DISABLED_TOOLS, toolName, disabled);
		this._sync(key);
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
					void reviewTools(server, event.tools, this._consent, {
						current: () => this._servers.get(key) === server,
						sync: () => this._sync(key),
						changed: () => this._onDidChange.fire(),
						warn: line => this._logger.warn(line),
					});
				}
				break;
			case 'crashed':
				this._logger.warn(`MCP ${name}: ${event.error}${event.willRetry ? '; reconnecting' : ''}`);
				if (server) {
					this._toolSync.unregister(server);
					server.heldBack = undefined;
				}
				mcpStartNotices.crashed(name, event.error, event.willRetry, () => this._output.show(true));
				break;
			case 'state':
				if (event.state === 'running') {
					if (server?.status === 'error') {
						server.status = undefined;
					}
					// The first tools/list answers before the state says running: register them now.
					this._sync(key);
				}
				break;
		}
		this._onDidChange.fire();
	}

	private _sync(key: string): void {
		const server = this._servers.get(key);
		if (server) {
			this._toolSync.sync(server);
		}
	}

	private _toolName(entry: McpServerEntry, tool: string): string {
		return mcpToolName(entry.config.name, tool, entry.key, !this._sharedNames.has(entry.config.name));
	}
}
