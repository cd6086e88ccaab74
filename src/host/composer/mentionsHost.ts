import * as vscode from 'vscode';
import type { Gate } from '../../core/gate/gate';
import {
	parseMentions,
	promptWithAttachments,
	resolveMentions,
	type Attachment,
	type MentionKind,
	type MentionOrigin,
	type MentionSources,
} from '../../core/mentions/mentions';
import { terminalText } from '../../core/filters/sanitize';
import type { Workspace } from '../../core/ports';
import { guardedFetch } from '../../core/gate/network/urls';
import { htmlToText } from '../../core/tools/web/webTools';
import { Disposable } from '../../core/util/lifecycle';
import type { MentionCandidate } from '../common/keelApi';
import { vscodeDiagnostics } from '../tools/hostToolDeps';
import { relativeOfUri } from '../tools/workspaceFolderNames';

const MAX_TOKENS_PER_MENTION = 8000;
const TERMINAL_KEEP = 20_000;

/**
 * Turns `@…` in a prompt into attached content (mentions.ts) from VS Code: the workspace files
 * through the path guard (deny-read holds), the editor selection, the Problems panel, the
 * active terminal's last command output (shell integration), and URLs through the network guard.
 */
export class MentionsHost extends Disposable {
	private readonly _terminalOutput = new Map<vscode.Terminal, string>();
	private _files: { at: number; list: string[] } | undefined;

	constructor(
		private readonly _workspace: Workspace,
		private readonly _gate: Gate,
	) {
		super();
		// Shell integration streams every command's output; keep the last one per terminal.
		this._register(
			vscode.window.onDidStartTerminalShellExecution(async event => {
				let text = '';
				const keep = () =>
					this._terminalOutput.set(
						event.terminal,
						`$ ${event.execution.commandLine.value}\n${terminalText(text)}`,
					);
				keep();
				try {
					// Kept as it streams: a long-running command's output so far is attachable too.
					for await (const chunk of event.execution.read()) {
						text = (text + chunk).slice(-TERMINAL_KEEP);
						keep();
					}
				} catch {
					// the terminal closed mid-command: keep what arrived
				}
			}),
		);
		this._register(vscode.window.onDidCloseTerminal(terminal => this._terminalOutput.delete(terminal)));
	}

	private _sources(): MentionSources {
		return {
			workspace: this._workspace,
			gate: this._gate,
			selection: () => {
				const editor = vscode.window.activeTextEditor;
				if (!editor || editor.selection.isEmpty || !vscode.workspace.getWorkspaceFolder(editor.document.uri)) {
					return undefined;
				}
				return {
					path: vscode.workspace.asRelativePath(editor.document.uri, false),
					startLine: editor.selection.start.line + 1,
					endLine: editor.selection.end.line + 1,
					text: editor.document.getText(editor.selection),
				};
			},
			problems: () => vscodeDiagnostics.get(undefined),
			terminalOutput: () => {
				const active = vscode.window.activeTerminal;
				return (active && this._terminalOutput.get(active)) ?? [...this._terminalOutput.values()].at(-1);
			},
			fetchUrl: async (url, signal) => {
				const page = await guardedFetch(url, {}, signal);
				const raw = page.body.toString('utf8');
				return /html/i.test(page.contentType) ? htmlToText(raw).text : raw;
			},
		};
	}

	/**
	 * Resolves the prompt's mentions; the prompt to send has the content attached after the words.
	 * `origin`: part of the text came from a workspace file (a prompt file) and only `origin.typed` from the user.
	 */
	async resolve(
		text: string,
		origin?: MentionOrigin,
		signal = new AbortController().signal,
	): Promise<{ prompt: string; attachments: Attachment[] }> {
		const mentions = parseMentions(text);
		if (mentions.length === 0) {
			return { prompt: text, attachments: [] };
		}
		const attachments = await resolveMentions(mentions, this._sources(), MAX_TOKENS_PER_MENTION, signal, origin);
		return { prompt: promptWithAttachments(text, attachments), attachments };
	}

	/**
	 * Files and folders dragged from the Explorer (a uri-list): the workspace-relative mention of
	 * each, so the composer shows them as chips. Outside the workspace or denied by the read
	 * policy: refused with the reason, never attached.
	 */
	async mentionsForUris(uris: readonly string[]): Promise<{ values: string[]; refused: string[] }> {
		const values: string[] = [];
		const refused: string[] = [];
		for (const text of uris) {
			let uri: vscode.Uri;
			try {
				uri = vscode.Uri.parse(text, true);
			} catch {
				refused.push(`${text} (not a file address)`);
				continue;
			}
			// The path the tools use for it (a multi-root workspace names the folder first).
			const relative = relativeOfUri(uri);
			if (relative === undefined) {
				refused.push(`${uri.fsPath || text} (outside the workspace)`);
				continue;
			}
			// Read like read_file reads (the gate): links and hard links out, deny-read, links to protected files.
			const stat = await this._workspace.stat(relative).catch(() => undefined);
			if (!stat) {
				refused.push(`${relative} (not found)`);
				continue;
			}
			const folder = stat.type === 'directory';
			try {
				await this._gate.checkShipped(this._workspace, relative, folder ? 'list' : 'read', 'dropped file');
			} catch (error) {
				refused.push(`${relative} (${(error as Error).message})`);
				continue;
			}
			const value = folder ? `${relative}/` : relative;
			if (/\s/.test(value)) {
				refused.push(`${relative} (a mention cannot hold spaces; attach it with @ instead)`);
				continue;
			}
			values.push(value);
		}
		return { values, refused };
	}

	/** For the `@` picker: the special mentions and workspace files/folders matching `query` (fuzzy), never a denied one. */
	async candidates(query: string, limit = 50): Promise<MentionCandidate[]> {
		const q = query.toLowerCase();
		const special: MentionCandidate[] = [
			{ kind: 'selection', value: 'selection', label: 'Selection in the editor' },
			{ kind: 'problems', value: 'problems', label: 'Problems' },
			{ kind: 'terminal', value: 'terminal', label: 'Last terminal output' },
		].filter(c => fuzzy(q, c.value) >= 0) as MentionCandidate[];
		if (/^https?:\/\/\S+$/i.test(query)) {
			// A typed address: fetched through the network guard when measured or sent, like the fetch tool.
			return [{ kind: 'url', value: query, label: `Fetch ${query}` }];
		}
		if (!this._files || Date.now() - this._files.at > 10_000) {
			this._files = { at: Date.now(), list: await this._workspace.findFiles('**/*', 5000).catch(() => []) };
		}
		const folders = new Set<string>();
		for (const file of this._files.list) {
			const parts = file.split('/');
			for (let i = 1; i < parts.length; i++) {
				folders.add(`${parts.slice(0, i).join('/')}/`);
			}
		}
		const paths = [...this._files.list, ...folders].filter(
			p => this._gate.hiddenFromSearch(p.replace(/\/$/, ''), 'read_file') === undefined,
		);
		const scored = paths
			.map(p => ({ p, score: fuzzy(q, p.toLowerCase()) }))
			.filter(s => s.score >= 0)
			.sort((a, b) => a.score - b.score || a.p.length - b.p.length);
		return [
			...special,
			...scored
				.slice(0, limit)
				.map(({ p }) => ({ kind: (p.endsWith('/') ? 'folder' : 'file') as MentionKind, value: p, label: p })),
		].slice(0, limit);
	}
}

/** Subsequence match; lower is better (gaps, and a match late in the path); -1 = no match. */
function fuzzy(query: string, text: string): number {
	let at = -1;
	let gaps = 0;
	for (const ch of query) {
		const next = text.indexOf(ch, at + 1);
		if (next === -1) {
			return -1;
		}
		gaps += next - at - 1;
		at = next;
	}
	const base = text.lastIndexOf('/') + 1;
	return gaps + (text.slice(base).includes(query) ? 0 : 50);
}
