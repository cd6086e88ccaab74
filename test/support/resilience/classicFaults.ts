// The classic fault shapes of the resilience scenarios: transport bursts, broken JSON, calls
// written as text, context-length bodies.

import { disconnect, httpError, presets, text, toolCall, withFaults, type DataStep } from '../modelDouble';
import type { Scenario } from './scenarios';
import type { StepView } from './stepView';

/** The classic classes and the hopeless ones that share their shapes. */
export function classicFault(v: StepView): DataStep {
	const { s, phase, name, args, corrected, good } = v;
	const textMode = v.conv.textMode;
	const json = JSON.stringify(args);
	switch (s.fault) {
		case 'stubbornParse500':
			return presets.ollamaV1ToolParse500('ls -R\n', "invalid character 'l' looking for beginning of value");
		case 'stubbornArgs':
			return toolCall(name, `${name} ${Object.values(args).join(' ')}`);
		case 'stubbornDegenerate':
			return text('<thinking about the user-providualize '.repeat(40), { chunks: 60 });
		case 'serverDown':
			return presets.serviceUnavailable();
		case 'billing':
			return httpError(429, {
				error: { code: '1113', message: 'Insufficient balance or no resource package. Please recharge.' },
			});
		case 'http429':
		case 'http5xx':
		case 'reset':
		case 'streamDrop':
		case 'streamStall':
		case 'streamError':
			return v.fire() >= s.burst ? good(phase) : transient(s, good(phase));
		case 'badJson':
			return textMode || corrected ? good(phase) : toolCall(name, malformed(json, s.variant));
		case 'textCall':
			return text(asText(name, args, s.variant));
		case 'nameCase':
			return toolCall(
				[
					name.toUpperCase(),
					name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()),
					name.replace('_', '-'),
					`functions.${name}`,
					name.replace(/^\w/, c => c.toUpperCase()),
				][s.variant],
				args,
			);
		case 'ollamaParse500':
			// Without native tools (text mode) the server has no tool call to parse.
			if (corrected || textMode) return good(phase);
			return s.variant < 3
				? presets.ollamaV1ToolParse500(
						malformed(json, s.variant),
						"invalid character '}' looking for beginning of object key string",
					)
				: presets.ollamaV1ToolParse500(
						`${name} ${Object.values(args).join(' ')}\n`,
						"invalid character 'l' looking for beginning of value",
					);
		case 'llamacppParse500':
			return corrected || textMode
				? good(phase)
				: presets.llamacppParseError(12, `<tool_call>\n<function=${name}>\n<`);
		case 'invalidArgs400':
			return corrected || textMode ? good(phase) : presets.ollamaInvalidToolCallArguments();
		default:
			return good(phase);
	}
}

/** The server's "too long" answer once the conversation is big, in the shape of the variant. */
export function contextExceeded(s: Scenario, tokens: number): DataStep {
	if (s.fault === 'contextAnyShape') {
		return contextAnyShape(s.variant, tokens);
	}
	return [
		presets.openaiContextLengthExceeded(16_000, tokens),
		presets.llamacppContextExceeded(tokens, 16_000),
		vllmContextExceeded(tokens),
		presets.anthropicPromptTooLong(tokens, 16_000),
		presets.openaiContextLengthExceeded(16_000, tokens),
	][s.variant];
}

/** The same meaning under other statuses and shapes: 413, 500, inside a 200 stream, a 200 JSON body. */
function contextAnyShape(variant: number, tokens: number): DataStep {
	const message = `the input (${tokens} tokens) is longer than the model's context window of 16000 tokens`;
	switch (variant % 5) {
		case 0:
			return httpError(413, { error: { message: `Request too large: ${message}`, type: 'request_too_large' } });
		case 1:
			return httpError(500, { error: `llama runner: input exceeds context length (${tokens} > 16000)` });
		case 2:
			return withFaults(text('x'), {
				errorAfter: 0,
				streamErrorBody: { error: { message: `prompt is too long: ${tokens} tokens > 16000 maximum` } },
			});
		case 3:
			return httpError(200, {
				object: 'error',
				message: `This model's maximum context length is 16000 tokens. However, your messages resulted in ${tokens} tokens.`,
				code: 400,
			});
		default:
			return httpError(422, {
				detail: `Input validation error: \`inputs\` tokens + \`max_new_tokens\` must be <= 16000. Given: ${tokens} \`inputs\` tokens and 512 \`max_new_tokens\``,
			});
	}
}

export function vllmContextExceeded(tokens: number): DataStep {
	return httpError(400, {
		object: 'error',
		message: `This model's maximum context length is 16000 tokens. However, you requested ${tokens + 1024} tokens (${tokens} in the messages, 1024 in the completion). Please reduce the length of the messages or completion.`,
		type: 'BadRequestError',
		param: null,
		code: 400,
	});
}

/** Anthropic's overload: HTTP 529, or an `event: error` in the middle of a 200 stream. */
export function overloaded(s: Scenario, good: DataStep): DataStep {
	return s.variant % 2 === 0
		? presets.anthropicOverloaded()
		: withFaults(good, {
				errorAfter: midResponse(s),
				streamError: { type: 'overloaded_error', message: 'Overloaded' },
			});
}

/**
 * A frame count that falls inside the response on every wire: Ollama sends a call in two lines
 * (the call, then `done`), and a response whose last line arrived is complete, whatever the
 * socket does after it.
 */
function midResponse(s: Scenario): number {
	return s.wire === 'ollama' ? 1 : 2;
}

export function transient(s: Scenario, good: DataStep): DataStep {
	switch (s.fault) {
		case 'http429':
			return httpError(
				429,
				{
					error: {
						message: 'Rate limit reached, try again in 20ms',
						type: 'requests',
						code: 'rate_limit_exceeded',
					},
				},
				{ 'retry-after-ms': '20' },
			);
		case 'http5xx':
			return [
				presets.serviceUnavailable(),
				presets.openaiServerError(),
				presets.badGatewayHtml(),
				presets.llamacppLoadingModel(),
				presets.serviceUnavailable(),
			][s.variant];
		case 'reset':
			return disconnect();
		case 'streamDrop':
			return withFaults(good, { dropAfter: midResponse(s) });
		case 'streamStall':
			return withFaults(good, { stallAfter: midResponse(s) });
		default:
			return withFaults(good, {
				errorAfter: midResponse(s),
				streamError: { type: 'server_error', message: 'upstream connection reset' },
			});
	}
}

/** The broken JSON small models write (competitors.md §3). */
export function malformed(json: string, variant: number): string {
	switch (variant % 5) {
		case 0:
			return json.replace(/}$/, ',}');
		case 1:
			return json.replace(/"/g, "'");
		case 2:
			return json.replace(/"(\w+)":/g, '$1:');
		case 3:
			return JSON.stringify(json);
		default:
			return json.slice(0, -2);
	}
}

export function asText(name: string, args: Record<string, string>, variant: number): string {
	switch (variant % 5) {
		case 0:
			return `I'll do that now.\n${JSON.stringify({ name, arguments: args })}`;
		case 1:
			return `\`\`\`json\n${JSON.stringify({ name, parameters: args })}\n\`\`\``;
		case 2:
			return `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
		case 3:
			return `<function=${name}>\n${Object.entries(args)
				.map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>`)
				.join('\n')}\n</function>`;
		default:
			return `<tool_call>${name}\n${Object.entries(args)
				.map(([k, v]) => `<arg_key>${k}</arg_key>\n<arg_value>${v}</arg_value>`)
				.join('\n')}\n</tool_call>`;
	}
}
