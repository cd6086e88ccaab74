/**
 * Bash's own grammar (tree-sitter-bash, run through web-tree-sitter as WebAssembly, so it
 * loads in every VS Code without a native build). Permission decisions read commands from
 * this tree, never from our own splitting: a hand-made tokenizer disagrees with bash on
 * comments, `$'…'` and quotes inside `${…}`, and each disagreement is a way past a rule.
 *
 * Loading is asynchronous (WebAssembly compile); `loadBashParser()` is awaited before the
 * first decision (run_command's prepare does it). Until it is loaded `bashParser()` returns
 * undefined and the policy fails closed.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Node, Parser as TsParser } from 'web-tree-sitter';

export type BashNode = Node;

let parser: TsParser | undefined;
let loading: Promise<TsParser> | undefined;

/** Beside the bundle (dist/, see esbuild.mjs), else in node_modules (tests run from out/). */
function locate(file: string, pkg: string): string {
	const beside = path.join(__dirname, file);
	if (fs.existsSync(beside)) {
		return beside;
	}
	for (let dir = __dirname; ; dir = path.dirname(dir)) {
		const candidate = path.join(dir, 'node_modules', pkg, file);
		if (fs.existsSync(candidate)) {
			return candidate;
		}
		if (path.dirname(dir) === dir) {
			throw new Error(
				`${file} was not found beside ${__dirname} or in node_modules/${pkg}; the bash parser cannot load, so commands will always ask.`,
			);
		}
	}
}

export function loadBashParser(): Promise<TsParser> {
	loading ??= (async () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { Parser, Language } = require('web-tree-sitter') as typeof import('web-tree-sitter');
		const runtime = locate('tree-sitter.wasm', 'web-tree-sitter');
		await Parser.init({ locateFile: () => runtime });
		const language = await Language.load(fs.readFileSync(locate('tree-sitter-bash.wasm', 'tree-sitter-bash')));
		const created = new Parser();
		created.setLanguage(language);
		parser = created;
		return created;
	})();
	loading.catch(() => (loading = undefined));
	return loading;
}

/** The loaded parser, or undefined before `loadBashParser()` has finished. */
export function bashParser(): TsParser | undefined {
	return parser;
}
