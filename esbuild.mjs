// Three bundles: a tiny activation shim, the host (engine + adapters, loaded on first use),
// and the webview (browser); beside them lazy vendor files, the highlighter and the Check Model
// report's own bundle. Keeping activation tiny is what makes it fast.
import * as esbuild from 'esbuild';
import * as fs from 'fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
	bundle: true,
	minify: production,
	sourcemap: !production,
	sourcesContent: false,
	logLevel: 'warning',
	legalComments: 'none',
};

const node = {
	...common,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	// dockerode's optional native helpers cannot be bundled; they are optional at runtime.
	external: ['vscode', 'cpu-features', './crypto/build/Release/sshcrypto.node'],
	// jsonc-parser's UMD entry requires its parts dynamically, which a bundle cannot follow; its ESM build bundles.
	alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
};

// Heavy packages get their own files beside the host bundle. The host requires them inside the
// functions that need them (src/core/util/lazyRequire.ts), or from modules the host itself reaches
// only through a lazy require (SQLite: src/host/session/sessionPersistence.ts), so they load on
// first use only, and the activation bench can tell which of them a step loaded.
const vendors = {
	dockerode: 'dockerode',
	'@anthropic-ai/sdk': 'anthropic-sdk',
	openai: 'openai-sdk',
	'cheerio/slim': 'cheerio',
	'node-sqlite3-wasm': 'sqlite',
	'web-tree-sitter': 'web-tree-sitter',
};
const lazyVendors = {
	name: 'lazy-vendors',
	setup(build) {
		build.onResolve(
			{ filter: /^(dockerode|@anthropic-ai\/sdk|openai|cheerio\/slim|node-sqlite3-wasm|web-tree-sitter)$/ },
			args => ({
				path: `./vendor/${vendors[args.path]}.js`,
				external: true,
			}),
		);
	},
};
// The MCP SDK and Ajv go into one vendor file: several specifiers, one module with every export they need.
const mcpSpecifiers = [
	'@modelcontextprotocol/sdk/client/index.js',
	'@modelcontextprotocol/sdk/client/stdio.js',
	'@modelcontextprotocol/sdk/client/streamableHttp.js',
	'@modelcontextprotocol/sdk/client/sse.js',
	'@modelcontextprotocol/sdk/types.js',
	'ajv',
	'ajv/dist/2020',
];
const mcpVendor = {
	name: 'mcp-vendor',
	setup(build) {
		build.onResolve({ filter: /^(@modelcontextprotocol\/sdk\/|ajv$|ajv\/dist\/2020$)/ }, args =>
			mcpSpecifiers.includes(args.path) ? { path: './vendor/mcp-sdk.js', external: true } : undefined,
		);
	},
};
const mcpVendorSource = `module.exports = {
	...require('@modelcontextprotocol/sdk/client/index.js'),
	...require('@modelcontextprotocol/sdk/client/stdio.js'),
	...require('@modelcontextprotocol/sdk/client/streamableHttp.js'),
	...require('@modelcontextprotocol/sdk/client/sse.js'),
	ToolListChangedNotificationSchema: require('@modelcontextprotocol/sdk/types.js').ToolListChangedNotificationSchema,
	Ajv: require('ajv').default,
	Ajv2020: require('ajv/dist/2020').default,
};`;
const vendorBundle = (specifier, name) =>
	esbuild.context({
		...node,
		stdin: { contents: `module.exports = require(${JSON.stringify(specifier)});`, resolveDir: '.', loader: 'js' },
		outfile: `dist/vendor/${name}.js`,
	});

const contexts = await Promise.all([
	esbuild.context({ ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' }),
	esbuild.context({
		...node,
		entryPoints: ['src/host/keelHost.ts'],
		outfile: 'dist/host.js',
		plugins: [lazyVendors, mcpVendor],
	}),
	...Object.entries(vendors).map(([specifier, name]) => vendorBundle(specifier, name)),
	esbuild.context({
		...node,
		stdin: { contents: mcpVendorSource, resolveDir: '.', loader: 'js' },
		outfile: 'dist/vendor/mcp-sdk.js',
	}),
	esbuild.context({
		...common,
		platform: 'browser',
		format: 'iife',
		target: 'es2022',
		entryPoints: ['src/webview/main.tsx'],
		outfile: 'dist/webview.js',
		jsx: 'automatic',
		jsxImportSource: 'preact',
	}),
	// The Check Model report's own bundle (with its chart library), loaded only by that panel.
	esbuild.context({
		...common,
		platform: 'browser',
		format: 'iife',
		target: 'es2022',
		entryPoints: ['src/webview/checkModel/main.tsx'],
		outfile: 'dist/checkModel.js',
		jsx: 'automatic',
		jsxImportSource: 'preact',
	}),
	// Loaded by the chat on the first code block, so opening the chat does not pay for it.
	esbuild.context({
		...common,
		platform: 'browser',
		format: 'iife',
		target: 'es2022',
		entryPoints: ['src/webview/content/highlight.ts'],
		outfile: 'dist/highlight.js',
	}),
]);

// node-sqlite3-wasm loads its .wasm from beside the bundle it is in (dist/vendor/sqlite.js).
fs.mkdirSync('dist/vendor', { recursive: true });
fs.rmSync('dist/node-sqlite3-wasm.wasm', { force: true });
fs.copyFileSync('node_modules/node-sqlite3-wasm/dist/node-sqlite3-wasm.wasm', 'dist/vendor/node-sqlite3-wasm.wasm');
// The bash parser behind every command decision (src/core/shell/bashParser.ts) loads both from dist/.
fs.copyFileSync('node_modules/web-tree-sitter/tree-sitter.wasm', 'dist/tree-sitter.wasm');
fs.copyFileSync('node_modules/tree-sitter-bash/tree-sitter-bash.wasm', 'dist/tree-sitter-bash.wasm');

if (watch) {
	await Promise.all(contexts.map(ctx => ctx.watch()));
} else {
	await Promise.all(contexts.map(ctx => ctx.rebuild()));
	await Promise.all(contexts.map(ctx => ctx.dispose()));
}
