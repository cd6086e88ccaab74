/**
 * A long agent session as the loop emits it: rounds of short text with a code block and an
 * auto-approved read whose output is a page of a file. Used by the webview bench to build the
 * host's view and the deltas a live turn sends.
 */
import type { AgentEvent, ToolCallState } from '../../src/core/agent/events';

const OUTPUT = Array.from(
	{ length: 40 },
	(_, i) => `${String(i + 1).padStart(4)}  export const value${i} = compute(${i}, 'a line of the file being read');`,
).join('\n');

/** The events of one round, split in streamed chunks as a fast server sends them. */
export function roundEvents(turnId: string, round: number): AgentEvent[] {
	const answer = `Round ${round}: reading the next part.\n\n\`\`\`ts\nconst step = ${round};\nrun(step);\n\`\`\`\n`;
	const chunks = answer.match(/[\s\S]{1,12}/g) ?? [answer];
	const call: ToolCallState = {
		id: `call-${turnId}-${round}`,
		name: 'read_file',
		title: `Read src/file${round % 50}.ts`,
		argumentsText: `{"path": "src/file${round % 50}.ts"}`,
		status: 'streaming',
		effect: 'read',
	};
	return [
		...chunks.map(text => ({ type: 'textDelta' as const, turnId, text })),
		{ type: 'toolCallUpdated', turnId, call },
		{ type: 'toolCallUpdated', turnId, call: { ...call, status: 'running' } },
		{ type: 'toolCallUpdated', turnId, call: { ...call, status: 'succeeded', output: OUTPUT } },
	];
}

export function sessionEvents(turnId: string, rounds: number): AgentEvent[] {
	const events: AgentEvent[] = [{ type: 'turnStarted', turnId, prompt: 'Walk through every file and summarise it.' }];
	for (let round = 1; round <= rounds; round++) {
		events.push(...roundEvents(turnId, round));
	}
	return events;
}
