/**
 * What every request costs before the conversation starts: Keel's system prompt and the tool
 * schemas, as sent natively (JSON Schema) and in text mode (compact catalog in the prompt).
 * Tokens are Keel's own estimate (chars / 4), the one its context budget uses.
 */
import { buildSystemPrompt } from '../src/core/agent/loop/systemPrompt';
import { textModeInstructions } from '../src/core/agent/recovery/review/textMode';
import { createToolset } from '../src/core/tools/toolset';
import { defaultToolDeps } from '../src/core/tools/toolDeps';
import { ToolRegistry } from '../src/core/tools/registry';
import { toOpenAITools } from '../src/core/llm/wires/openai/openaiWire';
import { approxTokens } from '../src/core/util/tokens';
import { printTable } from './table';

export const title = 'Prompt overhead: system prompt + tool schemas (estimated tokens, chars/4)';

export function measurePrompt(): Array<[string, number, number]> {
	const system = buildSystemPrompt('workspace');
	const specs = new ToolRegistry(createToolset(defaultToolDeps())).specs();
	const native = JSON.stringify(toOpenAITools(specs));
	const text = textModeInstructions(specs);
	const row = (label: string, s: string): [string, number, number] => [label, s.length, approxTokens(s)];
	return [
		row('system prompt', system),
		row(`tool schemas, native JSON (${specs.length} tools)`, native),
		row('text-mode catalog (in the system prompt)', text),
		row('native total', system + native),
		row('text-mode total', system + text),
	];
}

export async function run(): Promise<void> {
	printTable(['part', 'chars', '~tokens'], measurePrompt());
}
