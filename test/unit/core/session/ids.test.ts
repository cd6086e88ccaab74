import * as assert from 'assert';
import { defaultApprovalSettings } from '../../../../src/core/agent/approval/approvalPolicy';
import type { AgentEvent } from '../../../../src/core/agent/events';
import { ChatSession } from '../../../../src/core/session/chatSession';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { newSessionId } from '../../../../src/core/util/ids';
import { fileTools } from '../../../fakes/readTools';
import { InMemoryWorkspace } from '../../../fakes/inMemoryWorkspace';
import { ScriptedChatModel, textStep } from '../../../fakes/scriptedChatModel';

/** OpenAI answers 400 to a tool call id over 40 characters, also one that an earlier server's turn left in the history. */
const OPENAI_MAX_TOOL_CALL_ID = 40;
const TURNS = 3;

async function chatWithTextCalls(): Promise<{ callIds: string[]; turnIds: string[] }> {
	const steps = Array.from({ length: TURNS }, () => [
		// Calls written as text: Keel recovers them and gives them ids made from the turn's.
		textStep('<tool_call>{"name":"read_file","arguments":{"path":"README.md"}}</tool_call>'),
		textStep('Done.'),
	]).flat();
	const chat = new ChatSession({
		sessionId: newSessionId(),
		createModel: async () => new ScriptedChatModel(steps),
		modelLabel: () => 'scripted',
		registry: new ToolRegistry(fileTools),
		workspace: new InMemoryWorkspace({ 'README.md': 'hello' }),
		approvalSettings: () => defaultApprovalSettings,
		maxSteps: () => 5,
		systemPrompt: () => 'sys',
	});
	const turnIds = new Set<string>();
	chat.onDidEvent((event: AgentEvent) => {
		if (event.type === 'turnStarted') {
			turnIds.add(event.turnId);
		}
	});
	for (let i = 0; i < TURNS; i++) {
		await chat.send(`read it, ${i}`);
	}
	const callIds = chat.history.flatMap(m => (m.kind === 'tool_call' ? [m.data.id] : []));
	chat.dispose();
	return { callIds, turnIds: [...turnIds] };
}

describe('ids Keel makes', () => {
	it('recovered tool calls get ids any provider takes, unique across turns and sessions', async () => {
		const first = await chatWithTextCalls();
		const second = await chatWithTextCalls();
		const callIds = [...first.callIds, ...second.callIds];
		assert.strictEqual(callIds.length, 2 * TURNS, 'every text call was recovered');
		for (const id of callIds) {
			assert.ok(id.length <= OPENAI_MAX_TOOL_CALL_ID, `${id} is ${id.length} characters`);
			assert.match(id, /^[A-Za-z0-9_-]+$/, 'the characters Anthropic allows in a tool_use id');
		}
		assert.strictEqual(new Set(callIds).size, callIds.length);
		assert.strictEqual(new Set([...first.turnIds, ...second.turnIds]).size, 2 * TURNS);
	});

	it('session ids are random UUIDs, never repeated', () => {
		const ids = Array.from({ length: 10_000 }, () => newSessionId());
		assert.strictEqual(new Set(ids).size, ids.length);
		for (const id of ids.slice(0, 100)) {
			assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		}
	});
});
