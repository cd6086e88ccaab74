// The process the crash test kills. It resumes the last stored session (answering interrupted
// calls first), then runs turns against the model double forever: streamed text, approved
// command-like tool calls. After each durable commit it prints `ACK <session> <seq> <kind>
// <callId>`; it prints `STATE <what>` as it streams and runs tools so the parent knows where
// a kill landed. Usage: node crashChild.js <db> <baseUrl> <runsLog> <newSession:0|1>
import * as fs from 'fs';
import * as z from 'zod';
import { ChatSession } from '../../../src/core/session/chatSession';
import { OpenAIChatModel } from '../../../src/core/llm/wires/openai/openaiChatModel';
import { defineTool, ok } from '../../../src/core/tools/defineTool';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { SessionStore } from '../../../src/core/store/sessionStore';
import { SessionRecorder } from '../../../src/core/store/sessionRecorder';
import { interruptedResults } from '../../../src/core/store/interrupted';
import { nullLogger, type Workspace } from '../../../src/core/ports';
import { InMemoryWorkspace } from '../../fakes/inMemoryWorkspace';

const [dbFile, baseUrl, runsLog, fresh] = process.argv.slice(2);
const out = (line: string) => fs.writeSync(1, `${line}\n`);

/** Stands in for a command: records that it ran (by tag), takes a while, then answers. */
const runStep = defineTool({
	name: 'run_step',
	description: 'Runs one step of the job.',
	input: z.object({ tag: z.string() }),
	effect: 'exec',
	describe: input => `Run step ${input.tag}`,
	async execute(input, context) {
		fs.appendFileSync(runsLog, `${input.tag}\n`);
		out('STATE tool');
		await new Promise(resolve => setTimeout(resolve, 5 + Math.random() * 60));
		context.progress('half way');
		await new Promise(resolve => setTimeout(resolve, 5 + Math.random() * 60));
		return ok(`step ${input.tag} done`);
	},
});

async function main(): Promise<void> {
	const store = SessionStore.open(dbFile);
	const last = fresh === '1' ? undefined : store.lastSessionId();
	const sessionId = last ?? `s${process.pid}-${Date.now().toString(36)}`;
	const recorder = new SessionRecorder({
		store,
		sessionId,
		provider: () => ({ provider: 'openai', model: 'crash-model' }),
		logger: nullLogger,
		onDidCommit: (seq, message) => {
			const callId =
				message.kind === 'tool_call'
					? message.data.id
					: message.kind === 'tool_result'
						? message.data.toolCallId
						: '-';
			out(`ACK ${sessionId} ${seq} ${message.kind} ${callId}`);
		},
		onDidFail: error => out(`FAIL ${error.message}`),
	});
	const history = last ? store.load(last) : [];
	for (const result of interruptedResults(history)) {
		recorder.record(result);
		history.push(result);
	}
	const session = new ChatSession({
		sessionId,
		history,
		createModel: async () => new OpenAIChatModel({ baseUrl, model: 'crash-model' }),
		modelLabel: () => 'crash-model',
		registry: new ToolRegistry([runStep]),
		workspace: new InMemoryWorkspace({}) as unknown as Workspace,
		approvalSettings: () => ({ autoApprove: { read: true } }),
		maxSteps: () => 6,
		systemPrompt: () => 'You are tested.',
	});
	session.onDidEvent(event => {
		recorder.handle(event);
		if (event.type === 'textDelta') {
			out('STATE stream');
		} else if (event.type === 'toolCallUpdated' && event.call.status === 'streaming') {
			out('STATE callStream');
		} else if (event.type === 'toolCallUpdated' && event.call.status === 'awaitingApproval') {
			out('STATE approval');
			// The user approves after a moment: every call that runs was approved first.
			setTimeout(() => session.decide(event.call.id, true), Math.random() * 30);
		}
	});
	out(`READY ${sessionId} ${history.length}`);
	for (let turn = 0; ; turn++) {
		await session.send(`prompt ${process.pid}-${turn}`);
		out('STATE idle');
	}
}

main().catch(error => {
	out(`ERROR ${(error as Error).stack ?? error}`);
	process.exit(1);
});
