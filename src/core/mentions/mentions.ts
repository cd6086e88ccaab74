import type { Gate } from '../gate/gate';
import { approxTokens } from '../util/tokens';
import type { Workspace } from '../ports';
import type { DiagnosticEntry } from '../tools/toolDeps';

export type MentionKind = 'file' | 'folder' | 'selection' | 'problems' | 'terminal' | 'url';

/** One `@…` in a prompt, as written. */
export interface Mention {
	kind: MentionKind;
	/** The text after `@`: a path, "selection", a URL… */
	value: string;
}

/** What a mention became: content attached to the prompt, or why it was not. */
export interface Attachment {
	kind: MentionKind;
	/** For the chip: "src/app.ts", "Selection in a.ts:10-14", "Problems (3)". */
	label: string;
	tokens: number;
	content: string;
	/** Set when nothing was attached (denied, missing, refused URL); the sentence says why. */
	error?: string;
	truncated?: boolean;
}

export interface MentionSources {
	workspace: Workspace;
	/** Every file, folder and address a mention names passes the gate: a secret is never attached. */
	gate: Gate;
	selection?(): { path: string; startLine: number; endLine: number; text: string } | undefined;
	problems?(): DiagnosticEntry[];
	terminalOutput?(): string | undefined;
	/** Through the network guard (https, public addresses only); returns readable text. */
	fetchUrl?(url: string, signal: AbortSignal): Promise<string>;
}

/** Where the text with the mentions came from, when not all of it was typed by the user. */
export interface MentionOrigin {
	/** What the user typed themselves (a prompt file's arguments): only addresses in it are fetched. */
	typed: string;
	/** The workspace file the rest came from, named when an address of its is refused. */
	from: string;
}

const SPECIAL = new Set(['selection', 'problems', 'terminal']);
const MENTION = /(^|\s)@(\S+)/g;

/** Finds mentions: `@path`, `@folder/`, `@selection`, `@problems`, `@terminal`, `@https://…`. */
export function parseMentions(text: string): Mention[] {
	const found: Mention[] = [];
	for (const match of text.matchAll(MENTION)) {
		const value = match[2].replace(/[),.;:!?]+$/, '');
		if (!value) {
			continue;
		}
		const kind: MentionKind = SPECIAL.has(value)
			? (value as MentionKind)
			: /^https?:\/\//i.test(value)
				? 'url'
				: value.endsWith('/')
					? 'folder'
					: 'file';
		if (!found.some(m => m.kind === kind && m.value === value)) {
			found.push({ kind, value });
		}
	}
	return found;
}

/**
 * Resolves each mention to content, each capped at `maxTokens` (the middle of a long file is
 * better lost than the whole context window). Never throws: a refusal is an attachment with
 * an `error` the chat shows and nothing attached. With `origin`, part of the text came from a
 * workspace file: an address only it wrote is not contacted (the chat names it instead).
 */
export async function resolveMentions(
	mentions: readonly Mention[],
	sources: MentionSources,
	maxTokens: number,
	signal: AbortSignal,
	origin?: MentionOrigin,
): Promise<Attachment[]> {
	const typedUrls = origin ? new Set(parseMentions(origin.typed).map(m => m.value)) : undefined;
	const out: Attachment[] = [];
	for (const mention of mentions) {
		try {
			if (mention.kind === 'url') {
				const from = typedUrls && !typedUrls.has(mention.value) ? origin!.from : undefined;
				await sources.gate.admitAddress(
					mention.value,
					from ? { from: 'workspace', where: from } : { from: 'user' },
					false,
				);
			}
			out.push(cap(await resolveMention(mention, sources, signal), maxTokens));
		} catch (error) {
			out.push({
				kind: mention.kind,
				label: mention.value,
				tokens: 0,
				content: '',
				error: (error as Error).message,
			});
		}
	}
	return out;
}

async function resolveMention(mention: Mention, sources: MentionSources, signal: AbortSignal): Promise<Attachment> {
	switch (mention.kind) {
		case 'file': {
			const read = await sources.gate.readShipped(sources.workspace, mention.value, 'mention');
			if (read.bytes.subarray(0, 8000).includes(0)) {
				throw new Error(`${mention.value} is a binary file; it cannot be attached as text.`);
			}
			return attach('file', read.path, Buffer.from(read.bytes).toString('utf8'));
		}
		case 'folder': {
			const target = await sources.gate.checkShipped(
				sources.workspace,
				mention.value.replace(/\/+$/, ''),
				'list',
				'mention',
			);
			const entries = await sources.workspace.readDirectory(target.path);
			const lines = entries
				.sort(([a], [b]) => a.localeCompare(b))
				.slice(0, 300)
				.map(([name, type]) => `${name}${type === 'directory' ? '/' : ''}`);
			const more = entries.length > 300 ? `\n… and ${entries.length - 300} more` : '';
			return attach('folder', `${target.path || '.'}/`, lines.join('\n') + more);
		}
		case 'selection': {
			const selection = sources.selection?.();
			if (!selection || !selection.text) {
				throw new Error('There is no selection in the editor.');
			}
			// The selection is a file's content too: its file must pass the gate as a read would.
			await sources.gate.checkShipped(sources.workspace, selection.path, 'read', 'selection');
			return attach('selection', `${selection.path}:${selection.startLine}-${selection.endLine}`, selection.text);
		}
		case 'problems': {
			const problems = sources.problems?.() ?? [];
			const lines = problems.map(
				p =>
					`${p.path}:${p.line}:${p.column} ${p.severity}: ${p.message}${p.source ? ` (${p.source}${p.code ? ` ${p.code}` : ''})` : ''}`,
			);
			return attach('problems', `Problems (${problems.length})`, lines.join('\n') || 'No problems reported.');
		}
		case 'terminal': {
			const output = sources.terminalOutput?.();
			if (!output) {
				throw new Error(
					'No terminal output to attach: run a command in a terminal with shell integration first.',
				);
			}
			return attach('terminal', 'Terminal output', output);
		}
		case 'url': {
			if (!sources.fetchUrl) {
				throw new Error('Fetching URLs is not available here.');
			}
			return attach('url', mention.value, await sources.fetchUrl(mention.value, signal));
		}
	}
}

function attach(kind: MentionKind, label: string, content: string): Attachment {
	return { kind, label, content, tokens: approxTokens(content) };
}

function cap(attachment: Attachment, maxTokens: number): Attachment {
	if (attachment.tokens <= maxTokens) {
		return attachment;
	}
	const keep = maxTokens * 4;
	const head = attachment.content.slice(0, Math.floor(keep * 0.7));
	const tail = attachment.content.slice(-Math.floor(keep * 0.3));
	const content = `${head}\n[… ${attachment.content.length - head.length - tail.length} characters left out by Keel …]\n${tail}`;
	return { ...attachment, content, tokens: approxTokens(content), truncated: true };
}

/**
 * The prompt as the model (and the transcript) gets it: the user's words, then each
 * attachment in a fenced block that names what it is, so the user sees exactly what was sent.
 */
export function promptWithAttachments(text: string, attachments: readonly Attachment[]): string {
	const attached = attachments.filter(a => !a.error);
	if (attached.length === 0) {
		return text;
	}
	const blocks = attached.map(a => {
		const fence = '`'.repeat(Math.max(3, ...[...a.content.matchAll(/`+/g)].map(m => m[0].length + 1)));
		return `Attached ${a.kind} ${a.label} (${a.tokens} tokens${a.truncated ? ', shortened' : ''}):\n${fence}\n${a.content}\n${fence}`;
	});
	return `${text}\n\n${blocks.join('\n\n')}`;
}
