import { classifyFailure } from '../agent/recovery/failures/failureTable';
import type { ForcingMemory } from '../agent/recovery/forcingMemory';
import { AgentError, toAgentError } from '../errors';
import type { ChatModel, ChatRequest, ToolChoice, ToolSpec } from '../llm/chatModel';
import type { ForceKind, ForcingVerdict } from '../llm/forcing';

/** What the server did with each kind of forced call; 'notAsked' where the wire has no way to ask. */
export interface ForcingReport {
	required: ForcingVerdict | 'notAsked';
	named: ForcingVerdict | 'notAsked';
	/** One sentence for the report. */
	detail: string;
}

const tool = (name: string, description: string, field: string): ToolSpec => ({
	name,
	description,
	parameters: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] },
});
const WEATHER = tool('get_weather', 'Returns the current weather for a city.', 'city');
const TIME = tool('get_time', 'Returns the current time in a time zone.', 'zone');

/**
 * Two requests a model left alone would answer otherwise: "say hello, call nothing" with
 * `tool_choice: "required"`, and a weather question with `get_time` named. A call of the
 * forced kind means the server enforces it; text (or the other tool) means it accepted the
 * field and dropped it; an HTTP refusal means it does not take it. Kept in the forcing memory,
 * which the loop reads before it ever sends one.
 */
export async function probeForcing(
	model: ChatModel,
	signal: AbortSignal,
	memory?: ForcingMemory,
): Promise<ForcingReport> {
	if (!model.forcing) {
		return {
			required: 'notAsked',
			named: 'notAsked',
			detail: "This server's API has no way to force a tool call (Ollama's /api/chat, VS Code's models).",
		};
	}
	const required = await askForced(
		model,
		signal,
		{ kind: 'required' },
		'Say hello in five words. Do not call any tool.',
	);
	const named = await askForced(model, signal, { kind: 'named', name: TIME.name }, 'What is the weather in Paris?');
	for (const [kind, verdict] of [
		['required', required],
		['named', named],
	] as Array<[ForceKind, ForcingVerdict | undefined]>) {
		if (verdict) memory?.set(model.id, kind, verdict);
	}
	if (!required || !named) {
		return {
			required: required ?? 'notAsked',
			named: named ?? 'notAsked',
			detail: 'The forced-call probe did not get an answer from the server; what it does with a forced call is learned in use.',
		};
	}
	return { required, named, detail: describeForcing(required, named) };
}

/** The verdict for one forced request; undefined when the server failed in a way that says nothing about forcing. */
async function askForced(
	model: ChatModel,
	signal: AbortSignal,
	choice: ToolChoice,
	prompt: string,
): Promise<ForcingVerdict | undefined> {
	const request: ChatRequest = {
		messages: [
			{ kind: 'system', content: 'You can call tools.' },
			{ kind: 'user', content: prompt },
		],
		tools: [WEATHER, TIME],
		toolChoice: choice,
		strictTools: true,
		signal: AbortSignal.any([signal, AbortSignal.timeout(5 * 60_000)]),
	};
	try {
		for await (const event of model.stream(request)) {
			if (event.type === 'toolCall') {
				return choice.kind === 'required' || event.name === choice.name ? 'honoured' : 'ignored';
			}
		}
		return 'ignored';
	} catch (error) {
		if (signal.aborted) {
			throw new AgentError('cancelled', 'Check Model was cancelled.');
		}
		const status = toAgentError(error).details.status;
		const c = classifyFailure(error);
		const refused = status !== undefined && status >= 400 && status < 500 && c.failureClass !== 'transient';
		return refused ? 'refused' : undefined;
	}
}

function describeForcing(required: ForcingVerdict, named: ForcingVerdict): string {
	const word = { honoured: 'enforced', ignored: 'accepted and ignored', refused: 'refused' } as const;
	const both =
		required === named
			? `Forced tool calls are ${word[required]}`
			: `A forced call ("required") is ${word[required]}, a named one ${word[named]}`;
	const use =
		required === 'honoured' || named === 'honoured'
			? 'Keel forces a call as its last step when a model keeps failing to make one.'
			: 'Keel never forces a call on this server.';
	return `${both} by this server. ${use}`;
}
