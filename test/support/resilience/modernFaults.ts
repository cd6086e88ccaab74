// The faults of today's reasoning models and their servers, for the resilience scenarios:
// empty and reasoning-only turns, reasoning in every format, call dialects, argument shapes,
// cut-off calls, repetition, and servers that refuse native tools. Each returns the faulty
// response for the step; the brain in scenarios.ts decides when it is asked and when it is fixed.

import { httpError, text, textThenTools, toolCall, toolCalls, type DataStep, type Wire } from '../modelDouble';

export const MODERN_CLASSES = [
	'emptyAnswer',
	'reasoningOnly',
	'droppedCall',
	'thinkTags',
	'reasoningField',
	'callInReasoning',
	'harmony',
	'dialect',
	'nameGarbage',
	'argShapes',
	'gluedCalls',
	'truncatedWrite',
	'degenerate',
	'noToolsSupport',
	'overloaded',
] as const;
export type ModernClass = (typeof MODERN_CLASSES)[number];

export interface FaultContext {
	wire: Wire;
	variant: number;
	/** Which step: 0 list, 1 read, 2 write, 3 final answer. */
	phase: number;
	name: string;
	args: Record<string, string>;
	/** The correct response for this step (a native call, a text call in text mode, or the answer). */
	good: DataStep;
	textMode: boolean;
	/** The other file the task folder holds (for glued parallel reads). */
	otherPath: string;
}

export function modernFault(fault: ModernClass, c: FaultContext): DataStep {
	return reasoningFault(fault, c) ?? callFault(fault, c);
}

/** Faults of what a reasoning model says: nothing, only reasoning, reasoning in some format, a call in it. */
function reasoningFault(fault: ModernClass, c: FaultContext): DataStep | undefined {
	const json = JSON.stringify(c.args);
	const answer = c.phase === 3;
	switch (fault) {
		case 'emptyAnswer':
			return text('');
		case 'reasoningOnly':
			return {
				kind: 'reply',
				text: '',
				reasoning: answer
					? 'All three steps are done, I should tell the user.'
					: `Next I need ${c.name} on ${c.args.path}.`,
			};
		case 'droppedCall':
			// The server could not parse the call and sent an empty turn; OpenAI-style servers still say "tool_calls".
			// Asked for the call as text, there is nothing for the server to parse, so nothing to drop.
			if (c.textMode) {
				return c.good;
			}
			return text('', {
				finishReason: c.wire === 'anthropic' ? 'tool_use' : c.wire === 'openai' ? 'tool_calls' : 'stop',
			});
		case 'thinkTags':
			return withThink(
				c.good,
				`<think>The user wants the file in upper case. ${answer ? 'Done.' : `Next: ${c.name}.`}</think>\n`,
			);
		case 'reasoningField':
			return c.good.kind !== 'reply'
				? c.good
				: {
						...c.good,
						reasoning: `Step ${c.phase + 1}: ${answer ? 'report' : c.name}. Reasoning about <tool_call> formats is fine here.`,
						reasoningField: c.variant % 2 ? 'reasoning' : 'reasoning_content',
					};
		case 'callInReasoning':
			if (answer) {
				return c.good;
			}
			return {
				kind: 'reply',
				text: '',
				reasoning: `I will call it now.\n<tool_call>${JSON.stringify({ name: c.name, arguments: c.args })}</tool_call>`,
			};
		case 'harmony':
			if (answer) {
				return text(
					`<|channel|>analysis<|message|>All done, report.<|end|><|start|>assistant<|channel|>final<|message|>${finalText(c.good)}<|return|>`,
				);
			}
			return text(
				`<|channel|>analysis<|message|>Need ${c.name}.<|end|><|start|>assistant<|channel|>commentary to=functions.${c.name} <|constrain|>json<|message|>${json}<|call|>`,
			);
		default:
			return undefined;
	}
}

/** Faults of the call itself: its dialect, its name, its arguments, its length; and of the server that takes it. */
function callFault(fault: ModernClass, c: FaultContext): DataStep {
	const json = JSON.stringify(c.args);
	const answer = c.phase === 3;
	switch (fault) {
		case 'dialect':
			return answer ? c.good : text(dialectText(c.name, c.args, c.variant));
		case 'nameGarbage':
			if (answer || c.textMode) {
				return c.good;
			}
			return toolCall(
				[`${c.name}<|channel|>commentary`, `functions.${c.name}`, `${c.name}</tool_call>`][c.variant % 3],
				c.args,
			);
		case 'argShapes':
			return answer || c.textMode ? c.good : argShape(c);
		case 'gluedCalls':
			if (c.phase !== 1 || c.textMode) {
				return c.good;
			}
			// Ollama's /v1 streams parallel calls all with index 0; elsewhere the arguments arrive glued.
			if (c.wire === 'openai') {
				return {
					...toolCalls([
						{ name: 'read_file', arguments: { path: c.otherPath } },
						{ name: 'read_file', arguments: c.args },
					]),
					callShape: 'indexZero',
				};
			}
			return c.wire === 'anthropic'
				? toolCall('read_file', `${JSON.stringify({ path: c.otherPath })}${json}`)
				: toolCalls([
						{ name: 'read_file', arguments: { path: c.otherPath } },
						{ name: 'read_file', arguments: c.args },
					]);
		case 'truncatedWrite': {
			if (c.phase !== 2) {
				return c.good;
			}
			const cut = json.slice(0, json.length - 4);
			const finishReason = c.wire === 'anthropic' ? 'max_tokens' : 'length';
			return c.textMode
				? text(`<tool_call>{"name": "write_file", "arguments": ${cut}`, { finishReason })
				: toolCall('write_file', cut, { finishReason, split: 4 });
		}
		case 'degenerate':
			return text('I will now I will now continue the the task '.repeat(60), { chunks: 120 });
		case 'noToolsSupport':
			return c.textMode ? c.good : noTools(c.wire, c.variant);
		default:
			return c.good;
	}
}

function withThink(good: DataStep, think: string): DataStep {
	if (good.kind !== 'reply') {
		return good;
	}
	if (good.toolCalls?.length) {
		return textThenTools(
			think,
			good.toolCalls.map(t => ({ name: t.name, arguments: t.arguments })),
		);
	}
	return { ...good, text: think + (good.text ?? ''), textChunks: 6 };
}

function finalText(good: DataStep): string {
	return good.kind === 'reply' ? (good.text ?? '') : '';
}

function dialectText(name: string, args: Record<string, string>, variant: number): string {
	const json = JSON.stringify(args);
	switch (variant % 6) {
		case 0:
			return `[TOOL_CALLS][${JSON.stringify({ name, arguments: args })}]`;
		case 1:
			return `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>${name}\n\`\`\`json\n${json}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`;
		case 2:
			return `<|python_tag|>${JSON.stringify({ name, parameters: args })}<|eom_id|>`;
		case 3:
			return `<|tool_calls_section_begin|><|tool_call_begin|>functions.${name}:0<|tool_call_argument_begin|>${json}<|tool_call_end|><|tool_calls_section_end|>`;
		case 4:
			// MiniMax with its known breakage: a closing tag that lost its "<".
			return `<minimax:tool_call>\n<invoke name="${name}">\n${Object.entries(args)
				.map(([k, v]) => `<parameter name="${k}">${v}/parameter>`)
				.join('\n')}\n</invoke>\n</minimax:tool_call>`;
		default:
			return `[TOOL_CALLS]${name}[ARGS]${json}`;
	}
}

function argShape(c: FaultContext): DataStep {
	const renamed = Object.fromEntries(
		Object.entries(c.args).map(([k, v]) => [
			k === 'path' ? ['file_path', 'filename', 'filepath'][c.variant % 3] : k,
			v,
		]),
	);
	if (c.wire !== 'openai') {
		return toolCall(c.name, renamed);
	}
	switch (c.variant % 3) {
		case 0:
			return { ...toolCall(c.name, c.args), callShape: 'legacyFunctionCall' };
		case 1:
			return { ...toolCall(c.name, c.args), callShape: 'objectArguments' };
		default:
			return toolCall(c.name, renamed);
	}
}

function noTools(wire: Wire, variant: number): DataStep {
	if (wire === 'ollama' || variant % 2 === 0) {
		return httpError(400, { error: 'registry.ollama.ai/library/gemma3:4b does not support tools' });
	}
	// vLLM started without --enable-auto-tool-choice.
	return httpError(400, {
		object: 'error',
		message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
		type: 'BadRequestError',
		param: null,
		code: 400,
	});
}
