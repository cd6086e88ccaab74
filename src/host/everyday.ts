import type { NoticeCode } from '../core/agent/noticeCodes';
import type * as vscode from 'vscode';
import type { ApprovalSettings } from '../core/agent/approval/approvalPolicy';
import { buildSystemPrompt } from '../core/agent/loop/systemPrompt';
import type { TurnOutcome } from '../core/agent/loop/runAgent';
import { withCheckpoints } from '../core/checkpoints/checkpointedTools';
import type { ChatModel } from '../core/llm/chatModel';
import { describeMode } from '../core/modes/modes';
import type { Logger, Workspace } from '../core/ports';
import { summarise } from '../core/prompts/compact';
import { draftAgentsPrompt } from '../core/rules/draftPrompt';
import { exportSession, searchPassage } from '../core/session/sessionExport';
import type { ToolDefinition } from '../core/tools/defineTool';
import type { ToolRegistry } from '../core/tools/registry';
import { Disposable } from '../core/util/lifecycle';
import { postNotice } from './chat/chatNotices';
import { CheckpointDiff } from './checkpoints/checkpointDiff';
import { CheckpointsHost } from './checkpoints/checkpointsHost';
import { ConversationRewind } from './session/conversationRewind';
import type { EverydayApi, TurnInfo } from './everydayApi';
import { checkImages } from './composer/images';
import { MentionsHost } from './composer/mentionsHost';
import { readResolvedProvider } from './models/providerConfig';
import { ModesHost } from './projectContext/modesHost';
import { RulesHost } from './projectContext/rulesHost';
import type { SessionController } from './session/sessionController';
import type { SessionPersistence } from './session/sessionPersistence';
import { SlashHost } from './composer/slashHost';

export interface EverydayWiring {
	controller: SessionController;
	registry: ToolRegistry;
	createModel(): Promise<ChatModel>;
	contextWindow(): number;
}

/**
 * Project rules, checkpoints, modes, slash commands, mentions and history search, composed
 * for the host. Built before the session controller (its tools and prompt depend on it) and
 * attached to it once it exists.
 */
export class Everyday extends Disposable {
	readonly rules: RulesHost;
	readonly modes: ModesHost;
	readonly checkpoints: CheckpointsHost;
	readonly mentions: MentionsHost;
	private readonly _diff: CheckpointDiff;
	private _wiring: EverydayWiring | undefined;
	private _rewind: ConversationRewind | undefined;
	private _slash: SlashHost | undefined;

	constructor(
		context: vscode.ExtensionContext,
		private readonly _workspace: Workspace,
		logger: Logger,
		private readonly _persistence: SessionPersistence,
	) {
		super();
		this.rules = this._register(new RulesHost(_workspace, logger));
		this.modes = this._register(new ModesHost(context.workspaceState));
		this.checkpoints = this._register(
			new CheckpointsHost(context.storageUri ?? context.globalStorageUri, notice =>
				this._notice(notice.sessionId, notice),
			),
		);
		this.mentions = this._register(new MentionsHost(_workspace));
		this._diff = this._register(new CheckpointDiff(this.checkpoints.checkpoints));
	}

	/** File tools and commands take the turn's checkpoint before they run. */
	wrapTools(tools: ToolDefinition<any>[]): ToolDefinition<any>[] {
		return withCheckpoints(tools, () => this.checkpoints.beforeChange());
	}

	approvalSettings(sessionId: string, base: ApprovalSettings): ApprovalSettings {
		return this.modes.applyTo(sessionId, base, this._wiring?.registry.list() ?? []);
	}

	systemPrompt(sessionId: string, workspaceName: string, folders?: string[]): string {
		return buildSystemPrompt(workspaceName, {
			rules: this.rules.promptSection(),
			modeInstructions: this.modes.instructions(sessionId),
			folders,
		});
	}

	attach(wiring: EverydayWiring): void {
		this._wiring = wiring;
		const { controller } = wiring;
		this._rewind = new ConversationRewind(this._persistence, controller);
		this._slash = new SlashHost(this._workspace, {
			send: (prompt, images) => controller.send(prompt, images),
			newChat: () => controller.newChat(),
			compact: () => this.compact(),
			setMode: async name => {
				const mode = await this.modes.pick(controller.sessionId, name);
				return mode ? `Mode: ${describeMode(mode)}.` : 'Mode unchanged.';
			},
			draftAgentsMd: () => this.draftAgentsMd(),
			resolveMentions: text => this._resolveMentions(text),
		});
		this._register(
			controller.onDidEvent(event => {
				this.checkpoints.handle(controller.sessionId, event);
				if (event.type === 'turnStarted') {
					const text = this.rules.announcement(controller.sessionId);
					// After the turn's own first update, so the line sits under the prompt.
					if (text) {
						queueMicrotask(() =>
							postNotice(controller, {
								turnId: event.turnId,
								level: this.rules.applied ? 'info' : 'warning',
								code: 'rules',
								text,
							}),
						);
					}
				}
			}),
		);
		this._register(
			this.modes.onDidChange(({ sessionId, mode }) =>
				this._notice(sessionId, { level: 'info', code: 'mode', text: `Mode: ${describeMode(mode)}.` }),
			),
		);
	}

	private _notice(
		sessionId: string,
		notice: { turnId?: string; level: 'info' | 'warning' | 'error'; code: NoticeCode; text: string },
	): void {
		const controller = this._wiring?.controller;
		if (controller && controller.sessionId === sessionId) {
			postNotice(controller, notice);
		}
	}

	get currentSessionId(): string {
		return this._controller.sessionId;
	}

	private get _controller(): SessionController {
		if (!this._wiring) {
			throw new Error('Keel is still starting.');
		}
		return this._wiring.controller;
	}

	private async _resolveMentions(text: string) {
		const resolved = await this.mentions.resolve(text);
		const failed = resolved.attachments.filter(a => a.error);
		if (failed.length) {
			this._notice(this._controller.sessionId, {
				level: 'warning',
				code: 'mention',
				text: `Not attached: ${failed.map(a => `@${a.label} (${a.error})`).join('; ')}`,
			});
		}
		return resolved;
	}

	async draftAgentsMd(): Promise<TurnOutcome> {
		const existing = (await this._workspace.stat('AGENTS.md')) !== undefined;
		return this._controller.send(draftAgentsPrompt(existing));
	}

	/** /compact: the model summarises; a new session starts from the summary, which stays visible. */
	async compact(): Promise<string> {
		const controller = this._controller;
		const store = this._persistence.store;
		if (!store) {
			throw new Error(
				'Compacting needs the session history, which is not available (see the Keel output channel).',
			);
		}
		if (controller.session.busy) {
			throw new Error('A turn is running. Stop it or wait, then compact.');
		}
		const history = controller.transcript();
		if (history.length === 0) {
			return 'Nothing to compact yet.';
		}
		const model = await this._wiring!.createModel();
		const summary = await summarise(model, history, this._wiring!.contextWindow(), new AbortController().signal);
		const oldId = controller.sessionId;
		const title = store.get(oldId)?.title ?? 'this conversation';
		const newId = `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
		const turnId = `${newId}-compact`;
		store.append(
			newId,
			{ kind: 'user', content: `Continue from this summary of the earlier conversation "${title}".` },
			{ turnId },
		);
		store.append(newId, { kind: 'assistant', content: summary }, { turnId });
		store.rename(newId, `${title} (compacted)`);
		const mode = this.modes.get(oldId);
		controller.resume(newId);
		if (mode.id !== 'act') {
			this.modes.set(newId, mode.id);
		}
		return `Compacted ${history.length} messages into a summary (about ${Math.ceil(summary.length / 4)} tokens). The full conversation stays in the history as "${title}".`;
	}

	async turns(): Promise<TurnInfo[]> {
		const controller = this._controller;
		const sessionId = controller.sessionId;
		const checkpoints = await this.checkpoints.turns(sessionId);
		// Read after the wait: a rewind or a turn meanwhile shows in the list.
		const stored = this._persistence.store?.turns(sessionId) ?? [];
		const restored = (await this.checkpoints.checkpoints.lastRestore(sessionId))?.turnId;
		return stored.map(turn => ({
			turnId: turn.turnId,
			prompt: turn.prompt,
			changes: checkpoints.find(c => c.turnId === turn.turnId)?.files,
			...(turn.turnId === restored ? { restored: true } : {}),
		}));
	}

	readonly api: EverydayApi = {
		rules: () => ({
			applied: this.rules.applied,
			files: this.rules.rules.applied.map(r => ({ path: r.path, tokens: r.tokens, scope: r.scope })),
			skipped: this.rules.rules.skipped,
		}),
		reloadRules: async () => void (await this.rules.reload()),
		draftAgentsMd: () => this.draftAgentsMd(),
		mode: () => {
			const mode = this.modes.get(this._controller.sessionId);
			return { id: mode.id, name: mode.name };
		},
		modes: () => this.modes.all().map(mode => ({ id: mode.id, name: mode.name, description: describeMode(mode) })),
		setMode: name => {
			const mode = this.modes.set(this._controller.sessionId, name);
			return { id: mode.id, name: mode.name };
		},
		turns: () => this.turns(),
		turnDiff: async (turnId, open = true) => {
			const sessionId = this._controller.sessionId;
			const checkpoint = (await this.checkpoints.turns(sessionId)).find(c => c.turnId === turnId && c.after);
			if (!checkpoint) {
				throw new Error('That turn changed no files (or ran before checkpoints were on).');
			}
			const prompt = this._persistence.store?.turns(sessionId).find(t => t.turnId === turnId)?.prompt ?? '';
			const diff = this._diff.describe(checkpoint, prompt);
			if (open) {
				await this._diff.open(diff);
			}
			return diff;
		},
		restoreCheckpoint: (turnId, onConflict) =>
			this._guardIdle(() => this.checkpoints.restore(this._controller.sessionId, turnId, onConflict)),
		undoRestore: onConflict =>
			this._guardIdle(() => this.checkpoints.undoRestore(this._controller.sessionId, onConflict)),
		rewindTo: async (turnId, options = {}) => {
			const restored = options.restoreFiles
				? await this.api.restoreCheckpoint(turnId, options.onConflict)
				: undefined;
			if (restored?.cancelled) {
				return { prompt: '', restored };
			}
			return { prompt: this._rewind!.rewind(turnId).prompt, restored };
		},
		undoRewind: () => this._rewind?.undo() ?? false,
		searchHistory: query =>
			(this._persistence.store?.search(query) ?? []).map(hit => ({
				sessionId: hit.sessionId,
				title: hit.meta.title,
				snippet: searchPassage(hit.snippet),
				updatedAt: hit.meta.updatedAt,
			})),
		renameSession: (id, title) => this._persistence.store?.rename(id, title),
		deleteSession: id => {
			this._persistence.store?.delete(id);
			if (id === this._controller.sessionId) {
				this._controller.newChat();
			}
		},
		exportSession: (id, format) => {
			const store = this._persistence.store;
			const meta = store?.get(id);
			if (!store || !meta) {
				throw new Error(`There is no stored session ${id}.`);
			}
			return exportSession(format === 'json' ? 'json' : 'markdown', meta, {
				events: () => store.events(id),
				history: () => store.load(id),
			});
		},
		submit: (text, options) => {
			const resolved = readResolvedProvider();
			const images = options?.images?.length
				? checkImages(options.images, { wire: resolved.preset.wire, name: resolved.model })
				: undefined;
			return this._slash!.submit(text, images);
		},
		slashCompletions: prefix => this._slash!.completions(prefix),
		mentionCandidates: query => this.mentions.candidates(query),
		resolveMentions: text => this.mentions.resolve(text),
		mentionsForUris: uris => this.mentions.mentionsForUris(uris),
		compact: () => this.compact(),
		onDidChangeState: listener => {
			const subscriptions = [
				this.rules.onDidChange(() => listener('rules')),
				this.modes.onDidChange(
					({ sessionId }) => sessionId === this._wiring?.controller.sessionId && listener('mode'),
				),
				this.checkpoints.onDidChange(() => listener('checkpoints')),
			];
			return { dispose: () => subscriptions.forEach(s => s.dispose()) };
		},
	};

	private async _guardIdle<T>(run: () => Promise<T>): Promise<T> {
		if (this._controller.session.busy) {
			throw new Error('A turn is running. Stop it before restoring files.');
		}
		return run();
	}
}
