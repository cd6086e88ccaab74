import { approxTokens } from '../util/tokens';
import type { Workspace } from '../ports';
import type { DiagnosticEntry } from '../tools/toolDeps';
import { PathRefused, type WorkspaceGuard } from '../tools/paths';

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
	/** The path guard with the user's deny-read list: a secret is never attached. */
	guard: WorkspaceGuard;
	selection?(): { path: string; startLine: number; endLine: number; text: string } | undefined;
	problems?(): DiagnosticEntry[];
	terminalOutput?(): string | undefined;
	/** Through the network guard (https, public addresses only); returns readable text. */
	fetchUrl?(url: string, signal: AbortSignal): Promise<string>;
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
 * an `error` the chat shows and nothing attached.
 */
export async function resolveMentions(
	mentions: readonly Mention[],
	sources: MentionSources,
	maxTokens: number,
	signal: AbortSignal,
): Promise<Attachment[]> {
	const out: Attachment[] = [];
	for (const mention of mentions) {
		try {
			out.push(cap(await resolveMention(mention, sources, signal), maxTokens));
		} catch (error) {
			const message = error instanceof PathRefused ? error.message : (error as Error).message;
			out.push({ kind: mention.kind, label: mention.value, tokens: 0, content: '', error: message });
		}
	}
	return out;
}

async function resolveMention(mention: Mention, sources: MentionSources, signal: AbortSignal): Promise<Attachment> {
	switch (mention.kind) {
		case 'file': {
			const target = await sources.guard.resolve(mention.value, 'read');
			const stat = await sources.workspace.stat(target.path);
			if (stat?.type !== 'file') {
				throw new Error(`${mention.value} is not a file in the workspace.`);
			}
			const bytes = await sources.workspace.readFile(target.path);
			if (bytes.subarray(0, 8000).includes(0)) {
				throw new Error(`${mention.value} is a binary file; it cannot be attached as text.`);
			}
			return attach('file', target.path, Buffer.from(bytes).toString('utf8'));
		}
		case 'folder': {
			const target = await sources.guard.resolve(mention.value.replace(/\/+$/, ''), 'list');
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
			// The selection is a file's content too: its path must pass the deny list.
			await sources.guard.resolve(selection.path, 'read');
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
