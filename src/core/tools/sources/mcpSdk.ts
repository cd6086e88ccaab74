/**
 * The official MCP SDK and Ajv, loaded on first use: a user without MCP servers never pays for
 * them. The production build maps every specifier below to one vendor file (esbuild.mjs).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type AjvClass from 'ajv';
import { lazyRequire } from '../../util/lazyRequire';

export interface McpSdk {
	Client: typeof Client;
	StdioClientTransport: typeof StdioClientTransport;
	getDefaultEnvironment: typeof getDefaultEnvironment;
	StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
	SSEClientTransport: typeof SSEClientTransport;
	ToolListChangedNotificationSchema: typeof ToolListChangedNotificationSchema;
	Ajv: typeof AjvClass;
	Ajv2020: typeof AjvClass;
}

/* eslint-disable @typescript-eslint/no-require-imports */
export const mcpSdk = lazyRequire<McpSdk>(() => {
	const ajv = require('ajv');
	const ajv2020 = require('ajv/dist/2020');
	return {
		Client: require('@modelcontextprotocol/sdk/client/index.js').Client,
		StdioClientTransport: require('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport,
		getDefaultEnvironment: require('@modelcontextprotocol/sdk/client/stdio.js').getDefaultEnvironment,
		StreamableHTTPClientTransport: require('@modelcontextprotocol/sdk/client/streamableHttp.js')
			.StreamableHTTPClientTransport,
		SSEClientTransport: require('@modelcontextprotocol/sdk/client/sse.js').SSEClientTransport,
		ToolListChangedNotificationSchema: require('@modelcontextprotocol/sdk/types.js')
			.ToolListChangedNotificationSchema,
		// The vendor bundle exports Ajv/Ajv2020 by name; plain Node gets the packages themselves.
		Ajv: ajv.Ajv ?? ajv.default ?? ajv,
		Ajv2020: ajv2020.Ajv2020 ?? ajv2020.default ?? ajv2020,
	};
});
