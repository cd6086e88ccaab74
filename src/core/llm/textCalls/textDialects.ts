import { parseLoose } from './argumentReaders';

export type DialectName = 'harmony' | 'mistral' | 'deepseek' | 'llama' | 'kimi' | 'minimax';

export interface DialectCall {
	start: number;
	end: number;
	name: string;
	rawArguments: string;
	dialect: DialectName;
}

type Add = (
	start: number,
	end: number,
	name: string | undefined,
	rawArguments: string | undefined,
	dialect: DialectName,
) => void;

/**
 * The tool-call dialects of today's open models, as they leak into the text when the server
 * does not parse them: Harmony (gpt-oss), Mistral `[TOOL_CALLS]`, DeepSeek's full-width
 * tokens, Llama `<|python_tag|>`, Kimi K2 sections and MiniMax/Kimi `<invoke>` XML — including
 * the known breakages (a tag that lost its `<` or `</`). Names are checked by the caller.
 * These are fast paths: the general extractor (callExtractor.ts) reads every other shape.
 */
export function findDialectCalls(text: string): DialectCall[] {
	const out: DialectCall[] = [];
	const add: Add = (start, end, name, rawArguments, dialect) => {
		if (name && rawArguments !== undefined) {
			out.push({ start, end, name: name.trim(), rawArguments, dialect });
		}
	};
	for (const read of [harmony, mistral, deepseek, llama, kimi, minimax]) {
		read(text, add);
	}
	return out;
}

/** Harmony: `to=functions.NAME … <|message|>{json}<|call|>`; only up to the first <|call|>. */
function harmony(text: string, add: Add): void {
	for (const m of text.matchAll(
		/(?:<\|start\|>[^<]*|<\|channel\|>[^<]*)?to=(?:functions\.)?([\w.-]+)[^<\n]*(?:<\|channel\|>[^<]*)?(?:<\|constrain\|>[^<]*)?<\|message\|>([\s\S]*?)(?:<\|call\|>|<\|end\|>|$)/g,
	)) {
		add(m.index!, m.index! + m[0].length, m[1], m[2].trim(), 'harmony');
		if (m[0].includes('<|call|>')) {
			break;
		}
	}
}

/** Mistral: `[TOOL_CALLS][{"name":…,"arguments":{…}}, …]` (v3) or `[TOOL_CALLS]NAME[ARGS]{…}` (v11+). */
function mistral(text: string, add: Add): void {
	for (const m of text.matchAll(/\[TOOL_CALLS\]\s*(\[[\s\S]*?\])(?=\s*(?:\[TOOL_CALLS\]|<\/s>|$))/g)) {
		const list = parseLoose(m[1]);
		for (const item of Array.isArray(list) ? list : []) {
			const call = item as { name?: unknown; arguments?: unknown; parameters?: unknown };
			const name = typeof call.name === 'string' ? call.name : undefined;
			add(m.index!, m.index! + m[0].length, name, argsText(call.arguments ?? call.parameters ?? {}), 'mistral');
		}
	}
	for (const m of text.matchAll(
		/\[TOOL_CALLS\]\s*([\w.-]+)\s*(?:\[CALL_ID\]\s*\w+\s*)?\[ARGS\]\s*(\{[\s\S]*?\})(?=\s*(?:\[TOOL_CALLS\]|<\/s>|$))/g,
	)) {
		add(m.index!, m.index! + m[0].length, m[1], m[2], 'mistral');
	}
}

/**
 * DeepSeek V3/R1: `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜>`;
 * V3.1+: `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>`. ASCII look-alikes too.
 */
function deepseek(text: string, add: Add): void {
	const ds = (word: string) => `<[｜|]${word.split('_').join('[▁_]')}[｜|]>`;
	const pattern = new RegExp(
		`${ds('tool_call_begin')}([\\s\\S]*?)${ds('tool_sep')}([\\s\\S]*?)(?:${ds('tool_call_end')}|${ds('tool_calls_end')}|$)`,
		'g',
	);
	for (const m of text.matchAll(pattern)) {
		const head = m[1].trim();
		const body = m[2].trim();
		if (head === 'function') {
			const split = /^([\w.-]+)\s*\n?([\s\S]*)$/.exec(body);
			add(m.index!, m.index! + m[0].length, split?.[1], split ? stripFence(split[2]) : undefined, 'deepseek');
		} else {
			add(m.index!, m.index! + m[0].length, head, stripFence(body), 'deepseek');
		}
	}
}

/** Llama 3.x: `<|python_tag|>{"name":…,"parameters":{…}}` ending at <|eom_id|> / <|eot_id|>, `;` between calls. */
function llama(text: string, add: Add): void {
	for (const m of text.matchAll(/<\|python_tag\|>([\s\S]*?)(?:<\|eom_id\|>|<\|eot_id\|>|$)/g)) {
		for (const part of m[1].split(/;\s*(?=\{)/)) {
			const value = parseLoose(part.trim()) as
				{ name?: unknown; parameters?: unknown; arguments?: unknown } | undefined;
			if (value && typeof value === 'object') {
				const name = typeof value.name === 'string' ? value.name : undefined;
				add(
					m.index!,
					m.index! + m[0].length,
					name,
					argsText(value.parameters ?? value.arguments ?? {}),
					'llama',
				);
			}
		}
	}
}

/** Kimi K2: `<|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`, tags sometimes missing their `<`. */
function kimi(text: string, add: Add): void {
	for (const m of text.matchAll(
		/<?\|tool_call_begin\|>\s*([^\s<|]+)\s*<?\|tool_call_argument_begin\|>([\s\S]*?)(?:<?\|tool_call_end\|>|<?\|tool_calls_section_end\|>|$)/g,
	)) {
		add(m.index!, m.index! + m[0].length, m[1], m[2].trim(), 'kimi');
	}
}

/** MiniMax M2 (and Kimi's XML): `<invoke name="NAME"><parameter name="KEY">value</parameter></invoke>`, also with `<` or `</` dropped. */
function minimax(text: string, add: Add): void {
	for (const m of text.matchAll(
		/<?invoke name="([^"]+)">([\s\S]*?)(?:<?\/invoke>|<?\/minimax:tool_call>|<?\/function_calls>|(?=<?invoke name=)|$)/g,
	)) {
		const args: Record<string, string> = {};
		for (const p of m[2].matchAll(
			/<?parameter name="([^"]+)">([\s\S]*?)(?=<?\/parameter>|<?parameter name=|<?\/invoke>|$)/g,
		)) {
			args[p[1]] = p[2].replace(/^\r?\n/, '').replace(/\r?\n$/, '');
		}
		add(m.index!, m.index! + m[0].length, m[1], JSON.stringify(args), 'minimax');
	}
}

/** Wrappers left around the calls once they are taken out of the prose. */
export const DIALECT_WRAPPERS =
	/<?\|tool_calls_section_(?:begin|end)\|>|<[｜|]tool[▁_]calls[▁_](?:begin|end)[｜|]>|<\/?minimax:tool_call>|<\/?function_calls>|<\|(?:eom_id|eot_id|end|return|start)\|>|\[\/?TOOL_CALLS\]|<\/s>/g;

function argsText(args: unknown): string {
	return typeof args === 'string' ? args : JSON.stringify(args);
}

function stripFence(text: string): string {
	const fence = /^```[a-z]*\s*\n?([\s\S]*?)\n?```\s*$/i.exec(text.trim());
	return fence ? fence[1].trim() : text.trim();
}
