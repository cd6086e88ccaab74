import type { CanonicalMessage } from '../llm/canonical';
import type { SessionMeta, StoredEvent } from './sessionStore';

/** JSON export: the metadata and the canonical events, the same shape the store keeps. */
export function sessionToJson(meta: SessionMeta, events: readonly StoredEvent[]): string {
	return JSON.stringify({ format: 'keel-session', version: 1, session: meta, events }, null, 2) + '\n';
}

/**
 * Markdown export for reading and sharing: prompts, answers, and each tool call with its result
 * folded under it. Fences are widened when the content itself holds backticks.
 */
export function sessionToMarkdown(meta: SessionMeta, history: readonly CanonicalMessage[]): string {
	const lines: string[] = [
		`# ${meta.title}`,
		'',
		`_${meta.provider || 'model'} · ${meta.model} · ${new Date(meta.createdAt).toISOString()}_`,
		'',
	];
	const results = new Map(history.flatMap(m => (m.kind === 'tool_result' ? [[m.data.toolCallId, m] as const] : [])));
	for (const message of history) {
		switch (message.kind) {
			case 'user':
				lines.push('## You', '', message.content, '');
				break;
			case 'assistant':
				lines.push('## Keel', '', message.content, '');
				break;
			case 'tool_call': {
				const result = results.get(message.data.id);
				const status = !result
					? 'interrupted'
					: result.kind === 'tool_result' && result.data.ok
						? 'ok'
						: result.kind === 'tool_result'
							? (result.data.errorKind ?? 'failed')
							: '';
				lines.push(
					`**Tool** \`${message.data.name}\` (${status})`,
					'',
					fence(prettyArgs(message.data.rawArguments), 'json'),
					'',
				);
				if (result) {
					lines.push(
						'<details><summary>Output</summary>',
						'',
						fence(result.content, ''),
						'',
						'</details>',
						'',
					);
				}
				break;
			}
			case 'system':
			case 'tool_result':
				break;
		}
	}
	return lines.join('\n');
}

function prettyArgs(raw: string): string {
	try {
		return JSON.stringify(JSON.parse(raw), null, 2);
	} catch {
		return raw;
	}
}

function fence(content: string, language: string): string {
	const longest = Math.max(2, ...[...content.matchAll(/`+/g)].map(match => match[0].length));
	const ticks = '`'.repeat(longest + 1);
	return `${ticks}${language}\n${content}\n${ticks}`;
}
