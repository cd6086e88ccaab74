/**
 * The one gate. Every read, write, delete, copy, process start and network request Keel makes
 * on the user's behalf is decided here, whoever asks (a tool, a restore, a mention, a rules or
 * prompt file, an MCP server, a tool lent to another agent, a store, an export), on what will
 * actually be touched: the canonical path when the operation happens, the program that will
 * run, the address that will be dialled. It composes the policies that already exist (the
 * workspace guard in gate/paths/paths.ts, the deny-read and protected lists in gate/paths/pathPolicy.ts,
 * the permission rules, the URL guard in gate/network/urls.ts); surfaces ask it, and the adapters that
 * touch the disk, processes and the network (listed in eslint.config.mjs) do only what it allowed.
 */
import { evaluatePermissions, type PermissionRule } from './rules/permissions';
import type { RuledTool } from './rules/subjects';
import type { Workspace } from '../ports';
import { isDeniedRead, isProtectedPath, type PathPolicy } from './paths/pathPolicy';
import { PathRefused, WorkspaceGuard, type ResolvedPath } from './paths/paths';
import { admitAddress, type AddressConsent, type AddressOrigin } from './network/addresses';
import { endpointFetch } from './network/network';
import { RestoreFiles } from './restoreFiles';

export interface GateSources {
	/** keel.permissions.denyRead / allowRead / alwaysAsk, read at each decision. */
	policy(): PathPolicy;
	/** keel.permissions.rules: a deny rule with a path for "*" (or for the tool) also hides and keeps out. */
	rules?(): readonly PermissionRule[];
	/** Asked before an address that came from the workspace (its settings, its files) is contacted. */
	addresses?: AddressConsent;
}

/** Who reads a file the workspace ships: named in the refusal the chat shows. */
export type ShippedKind = 'rules file' | 'prompt file' | 'mention' | 'selection' | 'dropped file' | 'config file';

export interface ShippedFile extends ResolvedPath {
	bytes: Uint8Array;
}

/** A stand-in tool whose one subject is the path, so the permission rules' own matching decides. */
function pathProbe(tool: string, path: string): RuledTool {
	return { name: tool, effect: 'read', subjects: () => [{ kind: 'path', values: [path] }] };
}

export class Gate {
	constructor(private readonly _sources: GateSources) {}

	get policy(): PathPolicy {
		return this._sources.policy();
	}

	/** The workspace guard with the current policy: where tools resolve and confirm their paths. */
	files(workspace: Workspace): WorkspaceGuard {
		return new WorkspaceGuard(workspace, this._sources.policy());
	}

	/**
	 * The deny rule (for `tool` or for every tool) that covers `path`, as the rules' own matching
	 * decides it (case-insensitive globs with braces and extglobs), or undefined.
	 */
	deniedByRule(path: string, tool: string): string | undefined {
		const rules = (this._sources.rules?.() ?? []).filter(r => r.action === 'deny' && r.match !== undefined);
		if (rules.length === 0 || path === '') {
			return undefined;
		}
		const verdict = evaluatePermissions(pathProbe(tool, path), path, {
			rules: [...rules],
			autoApprove: true,
			trusted: true,
		});
		return verdict.verdict === 'deny' ? verdict.reason : undefined;
	}

	/**
	 * Why a search (grep, find_path, the @ picker) must not show `path`, or undefined. A search
	 * that shows lines of the file (`readsContent`: grep) is a read of it, so a deny rule for
	 * read_file hides it too: what read_file may not show, no search shows either.
	 */
	hiddenFromSearch(
		path: string,
		tool: string,
		recheck?: (path: string) => boolean,
		readsContent = false,
	): string | undefined {
		if (isDeniedRead(path, this.policy)) {
			return 'deny-read';
		}
		if (recheck ? recheck(path) : false) {
			return 'a deny rule';
		}
		return this.deniedByRule(path, tool) ?? (readsContent ? this.deniedByRule(path, 'read_file') : undefined);
	}

	/**
	 * Why Keel's own stores (checkpoints, exports) must not keep a copy of `path`: what read_file
	 * would refuse by its name (deny-read, a deny rule for read_file or for every tool), or undefined.
	 */
	keptOutOfStores(path: string): string | undefined {
		if (isDeniedRead(path, this.policy)) {
			return 'deny-read';
		}
		return this.deniedByRule(path, 'read_file');
	}

	/** A text that changes whenever what keptOutOfStores decides may change (to purge stores when it does). */
	storeFingerprint(): string {
		const policy = this.policy;
		const rules = (this._sources.rules?.() ?? []).filter(
			r => r.action === 'deny' && r.match !== undefined && (r.tool === '*' || r.tool === 'read_file'),
		);
		return JSON.stringify([policy.denyRead, policy.allowRead, rules.map(r => `${r.tool} ${r.match}`)]);
	}

	/**
	 * A file the workspace ships (rules, prompt files, mentions, the selection, a drop), read
	 * like read_file reads: inside the workspace once every link is resolved, not hard-linked to
	 * another file, not deny-read, not covered by a deny rule, and not a link into a protected
	 * place (.git/config, .vscode/…) under a harmless name. Throws PathRefused with the reason.
	 */
	async readShipped(workspace: Workspace, path: string, kind: ShippedKind): Promise<ShippedFile> {
		const resolved = await this.checkShipped(workspace, path, 'read', kind);
		const stat = await workspace.stat(resolved.path);
		if (stat?.type !== 'file') {
			throw new PathRefused(`${path} is not a file in the workspace.`);
		}
		return { ...resolved, bytes: await workspace.readFile(resolved.path) };
	}

	/** The checks of readShipped without the read; `list` for a folder (a folder mention, a dropped folder). */
	async checkShipped(
		workspace: Workspace,
		path: string,
		intent: 'read' | 'list',
		kind: ShippedKind,
	): Promise<ResolvedPath> {
		let resolved: ResolvedPath;
		try {
			resolved = await this.files(workspace).resolve(path, intent);
		} catch (error) {
			throw error instanceof PathRefused ? new PathRefused(`${kind} ${path}: ${error.message}`) : error;
		}
		// A link into .git/config or .vscode/ under another name: its own protected reason differs, or it has none.
		const linkedInto =
			resolved.canonical !== resolved.path ? isProtectedPath(resolved.canonical, this.policy) : undefined;
		if (linkedInto && linkedInto !== isProtectedPath(resolved.path, this.policy)) {
			throw new PathRefused(
				`${kind} ${path}: it is a link to ${resolved.canonical}, a protected file (${linkedInto}); Keel does not read it under another name.`,
			);
		}
		const rule =
			this.deniedByRule(resolved.path, 'read_file') ?? this.deniedByRule(resolved.canonical, 'read_file');
		if (rule) {
			throw new PathRefused(`${kind} ${path}: ${rule}.`);
		}
		return resolved;
	}

	/**
	 * Before Keel contacts an address: one the workspace wrote is contacted only once the user
	 * saw and allowed it; with `ask` off it is refused with the address named (the user can type it).
	 */
	admitAddress(url: string, origin: AddressOrigin, ask = true): Promise<URL> {
		return admitAddress(url, origin, ask ? this._sources.addresses : undefined);
	}

	/**
	 * An export the user saves inside the workspace is a write there: not over a deny-listed or
	 * protected file, not through a link out or a hard link. Throws PathRefused with the reason.
	 */
	async admitExport(workspace: Workspace, path: string): Promise<void> {
		const target = await this.files(workspace).resolve(path, 'write');
		if (target.protectedReason) {
			throw new PathRefused(`${path} is protected (${target.protectedReason}); save the export somewhere else.`);
		}
	}

	/** The fetch a model client gets: it dials only the endpoint admitAddress admitted. */
	modelFetch(endpoint: URL): typeof fetch {
		return endpointFetch(endpoint);
	}

	/**
	 * A restore's writes and deletes under `root`, each decided when it is done; `approved` are
	 * the protected paths the user allowed this restore to write.
	 */
	restorer(root: string, approved: ReadonlySet<string>): RestoreFiles {
		return new RestoreFiles(root, this.policy, approved);
	}
}
