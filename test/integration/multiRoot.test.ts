// A multi-root workspace through the real loop: a ChatSession talking HTTP to the model double,
// the real toolset over two folders on a real disk. The model lists the workspace, reads in one
// folder, searches both, edits in the second, and is told how to fix a path that names no folder.
import * as assert from 'assert';
import * as path from 'path';
import { buildSystemPrompt } from '../../src/core/agent/loop/systemPrompt';
import { OpenAIChatModel } from '../../src/core/llm/wires/openai/openaiChatModel';
import { ChatSession } from '../../src/core/session/chatSession';
import { NodeWorkspace } from '../../src/core/tools/files/nodeWorkspace';
import { ToolRegistry } from '../../src/core/tools/registry';
import { defaultToolDeps } from '../../src/core/tools/toolDeps';
import { createToolset } from '../../src/core/tools/toolset';
import { MultiRootWorkspace } from '../../src/core/gate/paths/workspaceFolders';
import { startModelDouble, text, toolCalls, type ModelDouble } from '../support/modelDouble';
import { tempTree, type TempTree } from '../support/tempTree';

type Message = { role: string; content: string; tool_call_id?: string };

describe('multi-root workspace through the loop', function () {
	this.timeout(30_000);
	let double: ModelDouble;
	let tree: TempTree;
	let workspace: MultiRootWorkspace;

	before(async () => {
		double = await startModelDouble();
		tree = tempTree('keel-multiroot-');
		// Two folders with the same basename "app" in different places: the second is "app-2".
		tree.add({
			'server/app/config.json': '{ "VERSION": "2.1.0" }\n',
			'server/app/src/main.ts': 'export const VERSION = "2.1.0";\n',
			'client/app/src/version.ts': 'export const VERSION = "1.0.0";\n',
			'client/app/README.md': '# client\n',
		});
		workspace = new MultiRootWorkspace(() => [
			{ name: 'app', workspace: new NodeWorkspace(path.join(tree.base, 'server/app')) },
			{ name: 'app-2', workspace: new NodeWorkspace(path.join(tree.base, 'client/app')) },
		]);
	});
	after(async () => {
		await double.close();
		tree.cleanup();
	});

	it('reads in one folder, searches both, writes in the other, and corrects a path without a folder', async () => {
		double.script(
			toolCalls([{ name: 'list_directory', arguments: { path: '.' }, id: 'ls' }]),
			toolCalls([{ name: 'read_file', arguments: { path: 'app/config.json' }, id: 'read' }]),
			toolCalls([{ name: 'grep', arguments: { pattern: 'VERSION =' }, id: 'grep' }]),
			toolCalls([{ name: 'find_path', arguments: { glob: 'app-2/**/*.ts' }, id: 'find' }]),
			toolCalls([{ name: 'read_file', arguments: { path: 'src/version.ts' }, id: 'nofolder' }]),
			toolCalls([
				{
					name: 'edit_file',
					arguments: { path: 'app-2/src/version.ts', old_string: '"1.0.0"', new_string: '"2.1.0"' },
					id: 'edit',
				},
			]),
			text('Both folders now say 2.1.0.'),
		);
		const chat = new ChatSession({
			sessionId: 'multi',
			createModel: async () => new OpenAIChatModel({ baseUrl: double.openaiBaseUrl, model: 'qwen3:8b' }),
			modelLabel: () => 'qwen3:8b',
			registry: new ToolRegistry(createToolset(defaultToolDeps())),
			workspace,
			approvalSettings: () => ({ autoApprove: { read: true, write: true } }),
			maxSteps: () => 10,
			// As the host builds it: the folders by the names paths use.
			systemPrompt: () =>
				buildSystemPrompt(workspace.rootName, { folders: workspace.folders().map(f => f.name) }),
			recovery: () => ({ backoffBaseMs: 1, backoffMaxMs: 10 }),
		});
		await chat.send('Make the client version match the server.');

		const first = double.modelRequests[0].body.messages as Message[];
		assert.match(
			first[0].content,
			/The workspace has 2 folders: app\/, app-2\/\. Every path starts with a folder's name/,
		);
		const last = double.modelRequests[double.modelRequests.length - 1].body.messages as Message[];
		const result = (id: string) => last.find(m => m.role === 'tool' && m.tool_call_id === id)!.content;
		assert.match(result('ls'), /^app\/\napp-2\/$/m);
		assert.match(result('read'), /"VERSION": "2\.1\.0"/);
		assert.match(result('grep'), /^app\/src\/main\.ts$/m);
		assert.match(result('grep'), /^app-2\/src\/version\.ts$/m);
		assert.match(result('find'), /^app-2\/src\/version\.ts$/m);
		assert.doesNotMatch(result('find'), /main\.ts/);
		assert.match(
			result('nofolder'),
			/every path starts with a folder's name: app\/, app-2\/ \(e\.g\. "app\/README\.md"\)/,
		);
		assert.match(result('edit'), /app-2\/src\/version\.ts/);
		assert.strictEqual(tree.read('client/app/src/version.ts'), 'export const VERSION = "2.1.0";\n');
		assert.strictEqual(
			tree.read('server/app/src/main.ts'),
			'export const VERSION = "2.1.0";\n',
			'the other folder is untouched',
		);
	});
});
