// How the security tier builds the surfaces it attacks, in one place: each surface is wired the
// way the extension wires it (the same policy sources, the same gate), on a real disk.
import * as path from 'path';
import type { ApprovalSettings } from '../../../src/core/agent/approval/approvalPolicy';
import type { PermissionRule } from '../../../src/core/gate/rules/permissions';
import { Checkpoints, type CheckpointNotice } from '../../../src/core/checkpoints/checkpoints';
import { CheckpointStore } from '../../../src/core/checkpoints/checkpointStore';
import { CheckpointIndex } from '../../../src/core/checkpoints/turnCheckpoints';
import { createChatModel, resolveProvider } from '../../../src/core/llm/catalog/providers';
import { parseMentions, promptWithAttachments, resolveMentions } from '../../../src/core/mentions/mentions';
import type { Workspace } from '../../../src/core/ports';
import { settingOrigin, type AddressConsent } from '../../../src/core/gate/network/addresses';
import { Gate } from '../../../src/core/gate/gate';
import { expandPrompt, loadPromptFiles } from '../../../src/core/prompts/slashCommands';
import { loadRules } from '../../../src/core/rules/projectRules';
import type { CanonicalMessage } from '../../../src/core/llm/canonical';
import { sessionToJson, sessionToMarkdown } from '../../../src/core/store/exportSession';
import type { SessionStore } from '../../../src/core/store/sessionStore';
import { exportable, filteredEvents } from '../../../src/core/session/exportGate';
import { LentTools } from '../../../src/core/tools/lent/lentTools';
import { lentCallPipeline } from '../../../src/core/agent/approval/lentCalls';
import { defaultPathPolicy, isProtectedPath, type PathPolicy } from '../../../src/core/gate/paths/pathPolicy';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { defaultToolDeps } from '../../../src/core/tools/toolDeps';
import { createToolset } from '../../../src/core/tools/toolset';

/** The gate as the host builds it: the user's path policy and permission rules. */
export function gateFor(policy: PathPolicy, rules: PermissionRule[] = [], consent?: AddressConsent): Gate {
	return new Gate({ policy: () => policy, rules: () => rules, addresses: consent });
}

export async function openCheckpointStore(
	gitDir: string,
	workTree: string,
	policy: PathPolicy,
	rules: PermissionRule[] = [],
): Promise<CheckpointStore> {
	return CheckpointStore.open(gitDir, workTree, undefined, gateFor(policy, rules));
}

export function checkpointsFor(
	workTree: string,
	storage: string,
	policy: PathPolicy,
	notices: CheckpointNotice[] = [],
): Checkpoints {
	let clock = 0;
	return new Checkpoints({
		open: async () => ({
			store: await openCheckpointStore(path.join(storage, 'shadow.git'), workTree, policy),
			index: new CheckpointIndex(path.join(storage, 'turns.json')),
		}),
		notice: notice => notices.push(notice),
		now: () => ++clock,
		protectedReason: file => isProtectedPath(file, policy),
	});
}

/**
 * A Language Model Tool call as VS Code makes it: `confirmed` when VS Code asked Keel first
 * (prepare) and showed the confirmation it gave; otherwise the call arrives unconfirmed.
 */
export async function lentCall(
	workspace: Workspace,
	settings: ApprovalSettings,
	policy: PathPolicy,
	name: string,
	input: unknown,
	confirmed = false,
): Promise<string> {
	const registry = new ToolRegistry(createToolset(defaultToolDeps({ pathPolicy: () => policy })));
	const lent = new LentTools(
		registry,
		workspace,
		lentCallPipeline({ registry, workspace, settings: () => settings }),
	);
	if (confirmed) {
		await lent.prepare(name, input);
	}
	return lent.invoke(name, input, new AbortController().signal);
}

/** The project rules as the system prompt would carry them. */
export async function rulesText(workspace: Workspace, policy: PathPolicy, rules: PermissionRule[] = []) {
	const loaded = await loadRules(workspace, 100_000, gateFor(policy, rules));
	return {
		text: loaded.applied.map(r => `${r.path}\n${r.text}`).join('\n'),
		skipped: loaded.skipped.map(s => `${s.path}: ${s.reason}`),
	};
}

/** The prompt files as `/name` would expand them. */
export async function promptFileBodies(workspace: Workspace, policy: PathPolicy): Promise<string> {
	return (await loadPromptFiles(workspace, gateFor(policy))).map(f => `${f.path}\n${f.body}`).join('\n');
}

/** What the prompt carries after its @-mentions are resolved (files, folders, the selection). */
export async function mentionedText(
	workspace: Workspace,
	policy: PathPolicy,
	text: string,
	selection?: { path: string; text: string },
): Promise<string> {
	const attachments = await resolveMentions(
		parseMentions(text),
		{
			workspace,
			gate: gateFor(policy),
			selection: () => selection && { ...selection, startLine: 1, endLine: 1 },
		},
		100_000,
		new AbortController().signal,
	);
	return promptWithAttachments(text, attachments) + attachments.map(a => a.error ?? '').join('\n');
}

/**
 * A file dragged from the Explorer onto the composer, then sent: the chip is accepted as the
 * host accepts it (it exists, and the gate reads it like read_file), then resolved as a mention.
 */
export async function droppedText(workspace: Workspace, policy: PathPolicy, relative: string): Promise<string> {
	const stat = await workspace.stat(relative);
	if (!stat) {
		return 'refused';
	}
	const folder = stat.type === 'directory';
	try {
		await gateFor(policy).checkShipped(workspace, relative, folder ? 'list' : 'read', 'dropped file');
	} catch (error) {
		return `refused: ${(error as Error).message}`;
	}
	return mentionedText(workspace, policy, `look at @${folder ? `${relative}/` : relative}`);
}

/** `/name args` for a prompt file: the addresses Keel fetched on the way to the prompt. */
export async function promptFileFetches(
	workspace: Workspace,
	policy: PathPolicy,
	body: string,
	args: string,
): Promise<string[]> {
	const fetched: string[] = [];
	const text = expandPrompt(body, args);
	await resolveMentions(
		parseMentions(text),
		{
			workspace,
			gate: gateFor(policy),
			fetchUrl: async url => (fetched.push(url), 'page'),
		},
		100_000,
		new AbortController().signal,
		{ typed: args, from: '.keel/prompts/review.md' },
	);
	return fetched;
}

/** The model endpoint as keel.model.baseUrl's scopes give it (a trusted workspace), asked for one answer. */
export async function modelRequestTo(
	inspected: { globalValue?: string; workspaceValue?: string; workspaceFolderValue?: string },
	consent: { answer: boolean; asked: string[] },
): Promise<void> {
	const baseUrl = inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue!;
	const gate = gateFor(defaultPathPolicy, [], {
		allow: async url => (consent.asked.push(url.href), consent.answer),
	});
	await gate.admitAddress(baseUrl, settingOrigin('keel.model.baseUrl', inspected));
	const model = createChatModel(
		resolveProvider({
			provider: 'custom',
			baseUrl,
			model: 'm',
			contextWindow: 8192,
			requestTimeoutSeconds: 5,
		}),
		undefined,
	);
	for await (const _event of model.stream({
		messages: [{ kind: 'user', content: 'what the user typed' }] as never,
		tools: [],
	})) {
		// drain
	}
}

/** A stored session as "Export" writes it (Markdown or JSON), with the user's policy as it is now. */
export function exportedText(
	store: SessionStore,
	sessionId: string,
	policy: PathPolicy,
	rules: PermissionRule[],
	format: 'markdown' | 'json',
): string {
	const gate = gateFor(policy, rules);
	const filter = (messages: readonly CanonicalMessage[]) => exportable(gate, messages);
	const meta = store.get(sessionId)!;
	return format === 'json'
		? sessionToJson(meta, filteredEvents(store.events(sessionId), filter))
		: sessionToMarkdown(meta, filter(store.load(sessionId)));
}
