import { toAgentError } from '../../errors';
import type { ChatModel } from '../chatModel';

export interface ProbeResult {
	ok: boolean;
	/** One sentence for the user: what came back. */
	detail: string;
	at: number;
}

const PROBE_TOOL = {
	name: 'get_weather',
	description: 'Returns the current weather for a city.',
	parameters: {
		type: 'object',
		properties: { city: { type: 'string' } },
		required: ['city'],
		additionalProperties: false,
	},
};

/**
 * Sends one tiny request offering one tool and checks the model answers with a native tool
 * call whose arguments parse and name the city. Text that merely describes a call fails: Keel
 * can recover such calls, but the user should know the model does not call natively.
 */
export async function probeToolCalling(
	model: ChatModel,
	now: () => number = Date.now,
	signal?: AbortSignal,
): Promise<ProbeResult> {
	const at = now();
	try {
		return { ...(await askForToolCall(model, signal ?? AbortSignal.timeout(120_000))), at };
	} catch (error) {
		return { ok: false, detail: `The probe request failed: ${toAgentError(error).message}`, at };
	}
}

/** The probe itself; a request that fails throws, so a caller can tell a server that refuses tools from one that is down. */
export async function askForToolCall(model: ChatModel, signal: AbortSignal): Promise<{ ok: boolean; detail: string }> {
	let text = '';
	for await (const event of model.stream({
		messages: [
			{ kind: 'system', content: 'You can call tools. Use them when asked.' },
			{
				kind: 'user',
				content: 'What is the weather in Paris? Call the get_weather tool; do not answer in text.',
			},
		],
		tools: [PROBE_TOOL],
		signal,
	})) {
		if (event.type === 'text') {
			text += event.text;
		} else if (event.type === 'toolCall') {
			return judgeCall(event.name, event.rawArguments);
		}
	}
	const shown = text.trim().slice(0, 160);
	return {
		ok: false,
		detail: shown
			? `The model answered in text instead of calling the tool: "${shown}"`
			: 'The model answered without calling the tool.',
	};
}

function judgeCall(name: string, rawArguments: string): { ok: boolean; detail: string } {
	let args: { city?: unknown } | undefined;
	try {
		args = JSON.parse(rawArguments);
	} catch {
		return {
			ok: false,
			detail: `The model called ${name} but its arguments are not valid JSON: ${rawArguments.slice(0, 120)}`,
		};
	}
	if (name !== PROBE_TOOL.name || typeof args?.city !== 'string') {
		return {
			ok: false,
			detail: `The model called ${name}(${rawArguments.slice(0, 120)}) instead of get_weather({"city": …}).`,
		};
	}
	return { ok: true, detail: `Native tool calling works: get_weather(${rawArguments}).` };
}
