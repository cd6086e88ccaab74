import * as assert from 'assert';
import { LM_TOOL_EXCLUSIONS, lmToolExclusion } from '../../../../../src/core/tools/sources/lmToolExclusions';

describe('VS Code tools Keel does not offer (lmToolExclusions)', () => {
	it("leaves out VS Code's and Copilot's file, edit and terminal tools, which would bypass Keel's guards", () => {
		assert.strictEqual(lmToolExclusion('copilot_readFile')?.why, 'files');
		assert.strictEqual(lmToolExclusion('copilot_replaceString')?.why, 'edits');
		assert.strictEqual(lmToolExclusion('run_in_terminal')?.why, 'terminal');
		assert.strictEqual(lmToolExclusion('copilot_runInTerminal')?.why, 'terminal');
	});

	it("leaves out parts of VS Code's own chat and Keel's own lent tools, by pattern", () => {
		assert.strictEqual(lmToolExclusion('vscode_editFile_internal')?.why, 'vscode-chat');
		assert.strictEqual(lmToolExclusion('vscode_get_terminal_confirmation')?.why, 'vscode-chat');
		assert.strictEqual(lmToolExclusion('keel_read_file')?.why, 'keel');
		assert.strictEqual(lmToolExclusion('runSubagent')?.why, 'vscode-chat');
	});

	it("offers everything else: other extensions' tools and MCP servers configured in VS Code", () => {
		for (const name of [
			'keeltest_weather',
			'mcp_github_create_issue',
			'runTests',
			'testFailure',
			'vscode_listCodeUsages',
			'copilot_fetchWebPage',
			'my_run_in_terminal_helper',
		]) {
			assert.strictEqual(lmToolExclusion(name), undefined, name);
		}
	});

	it('names each tool once', () => {
		const names = LM_TOOL_EXCLUSIONS.map(e => e.name);
		assert.deepStrictEqual(
			names.filter((n, i) => names.indexOf(n) !== i),
			[],
		);
	});
});
