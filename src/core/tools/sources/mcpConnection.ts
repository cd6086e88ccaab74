/**
 * One MCP server, on the official SDK: connects (stdio, or Streamable HTTP falling back to SSE),
 * lists its tools (all pages), follows tools/list_changed, calls tools with a timeout, and
 * reconnects after a crash with backoff. Every state change is reported, so the host can show it.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from './mcpConfig';
import { mcpSdk } from './mcpSdk';

export type McpState = 'stopped' | 'starting' | 'running' | 'error';

export type McpConnectionEvent =
	| { kind: 'state'; state: McpState; error?: string }
	| { kind: 'tools'; tools: Tool[] }
	| { kind: 'crashed'; error: string; willRetry: boolean }
	| { kind: 'stderr'; text: string };

export interface McpConnectionOptions {
	/** Per tools/call; a hung server fails the call with a message, it never holds the turn. */
	callTimeoutMs: number;
	connectTimeoutMs: number;
	/** Reconnect attempts after an unexpected exit; delays double from reconnectBaseMs. */
	maxReconnects: number;
	reconnectBaseMs: number;
	clientVersion: string;
	/** Extra environment (resolved env + envFile) on top of the SDK's minimal inherited set. */
	env?: Record<string, string>;
}

export class McpConnection {
	private _client: Client | undefined;
	private _state: McpState = 'stopped';
	private _error: string | undefined;
	private _tools: Tool[] = [];
	private _stopping = false;
	private _reconnects = 0;
	private _timer: ReturnType<typeof setTimeout> | undefined;
	/** Which transport an `http` server ended up on. */
	transport: 'stdio' | 'streamable-http' | 'sse' | undefined;

	constructor(
		readonly config: McpServerConfig,
		private readonly _options: McpConnectionOptions,
		private readonly _onEvent: (event: McpConnectionEvent) => void,
	) {}

	get state(): McpState {
		return this._state;
	}

	get error(): string | undefined {
		return this._error;
	}

	get tools(): readonly Tool[] {
		return this._tools;
	}

	async start(): Promise<void> {
		if (this._state === 'running' || this._state === 'starting') {
			return;
		}
		this._stopping = false;
		clearTimeout(this._timer);
		this._setState('starting');
		try {
			this._client = await this._connect();
			await this._refreshTools();
			this._reconnects = 0;
			this._setState('running');
		} catch (error) {
			await this._client?.close().catch(() => undefined);
			this._client = undefined;
			this._setState('error', describe(error));
			throw error;
		}
	}

	async stop(): Promise<void> {
		this._stopping = true;
		clearTimeout(this._timer);
		const client = this._client;
		this._client = undefined;
		this._tools = [];
		await client?.close().catch(() => undefined);
		this._setState('stopped');
	}

	async call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
		const client = this._client;
		if (!client || this._state !== 'running') {
			throw new Error(
				`the MCP server "${this.config.name}" is ${this._state}${this._error ? ` (${this._error})` : ''}`,
			);
		}
		const timeout = this._options.callTimeoutMs;
		try {
			return (await client.callTool({ name, arguments: args }, undefined, {
				signal,
				timeout,
				resetTimeoutOnProgress: true,
				maxTotalTimeout: timeout * 4,
			})) as CallToolResult;
		} catch (error) {
			if (/timed out/i.test(describe(error))) {
				throw new Error(
					`the MCP server "${this.config.name}" did not answer within ${Math.round(timeout / 1000)} s (keel.mcp.callTimeoutSeconds)`,
					{ cause: error },
				);
			}
			throw error;
		}
	}

	private async _connect(): Promise<Client> {
		const sdk = mcpSdk();
		const make = () => new sdk.Client({ name: 'keel', version: this._options.clientVersion }, { capabilities: {} });
		const timeout = this._options.connectTimeoutMs;
		if (this.config.type === 'stdio') {
			const transport = new sdk.StdioClientTransport({
				command: this.config.command!,
				args: this.config.args ?? [],
				env: { ...sdk.getDefaultEnvironment(), ...this._options.env },
				cwd: this.config.cwd,
				stderr: 'pipe',
			});
			transport.stderr?.on('data', (chunk: Buffer) =>
				this._onEvent({ kind: 'stderr', text: chunk.toString('utf8') }),
			);
			this.transport = 'stdio';
			return this._attach(make(), transport, timeout);
		}
		const url = new URL(this.config.url!);
		const requestInit = { headers: this.config.headers ?? {} };
		if (this.config.type === 'http') {
			try {
				const client = await this._attach(
					make(),
					new sdk.StreamableHTTPClientTransport(url, { requestInit }),
					timeout,
				);
				this.transport = 'streamable-http';
				return client;
			} catch (error) {
				this._onEvent({
					kind: 'stderr',
					text: `Streamable HTTP failed (${describe(error)}); trying the SSE transport\n`,
				});
			}
		}
		const client = await this._attach(make(), new sdk.SSEClientTransport(url, { requestInit }), timeout);
		this.transport = 'sse';
		return client;
	}

	private async _attach(client: Client, transport: Transport, timeout: number): Promise<Client> {
		client.onclose = () => this._closed(client);
		client.onerror = error => this._onEvent({ kind: 'stderr', text: `transport error: ${describe(error)}\n` });
		client.setNotificationHandler(mcpSdk().ToolListChangedNotificationSchema, () => {
			this._refreshTools().catch(error =>
				this._onEvent({ kind: 'stderr', text: `tools/list after list_changed failed: ${describe(error)}\n` }),
			);
		});
		await client.connect(transport, { timeout });
		return client;
	}

	private async _refreshTools(): Promise<void> {
		const client = this._client;
		if (!client?.getServerCapabilities()?.tools) {
			this._tools = [];
			this._onEvent({ kind: 'tools', tools: [] });
			return;
		}
		const tools: Tool[] = [];
		let cursor: string | undefined;
		do {
			const page = await client.listTools(cursor ? { cursor } : undefined, {
				timeout: this._options.connectTimeoutMs,
			});
			tools.push(...page.tools);
			cursor = page.nextCursor;
		} while (cursor && tools.length < 1000);
		this._tools = tools;
		this._onEvent({ kind: 'tools', tools });
	}

	/** An exit nobody asked for: report it, then try again a few times with growing delays. */
	private _closed(client: Client): void {
		if (this._stopping || client !== this._client) {
			return;
		}
		this._client = undefined;
		this._tools = [];
		const willRetry = this._reconnects < this._options.maxReconnects;
		const error = 'the server exited or closed the connection';
		this._setState('error', error);
		this._onEvent({ kind: 'crashed', error, willRetry });
		if (willRetry) {
			const delay = this._options.reconnectBaseMs * 2 ** this._reconnects++;
			this._timer = setTimeout(() => void this.start().catch(() => this._closedRetry()), delay);
		}
	}

	private _closedRetry(): void {
		if (!this._stopping && this._reconnects < this._options.maxReconnects) {
			const delay = this._options.reconnectBaseMs * 2 ** this._reconnects++;
			this._timer = setTimeout(() => void this.start().catch(() => this._closedRetry()), delay);
		}
	}

	private _setState(state: McpState, error?: string): void {
		this._state = state;
		this._error = error;
		this._onEvent({ kind: 'state', state, error });
	}
}

export function describe(error: unknown): string {
	return (error as Error)?.message ?? String(error);
}
