import * as vscode from 'vscode';
import { plainText } from '../../shared/keelText';
import type { ApprovalSettings } from '../../core/agent/approval/approvalPolicy';
import {
	ACT,
	BUILT_IN_MODES,
	describeMode,
	findMode,
	modeDenyRules,
	parseCustomModes,
	type Mode,
} from '../../core/modes/modes';
import type { ToolDefinition } from '../../core/tools/defineTool';
import { Emitter } from '../../core/util/emitter';
import { Disposable } from '../../core/util/lifecycle';
import { readSettingUnparsed } from '../settings/settings';

const STATE_KEY = 'keel.modes.bySession';

/**
 * The mode of each session (Act unless switched), remembered across reloads in the
 * workspace's state, plus the custom modes of keel.modes. A mode narrows the tools through
 * deny rules, so it goes through the same permission check as everything else.
 */
export class ModesHost extends Disposable {
	private readonly _bySession: Record<string, string>;
	private readonly _onDidChange = this._register(new Emitter<{ sessionId: string; mode: Mode }>());
	readonly onDidChange = this._onDidChange.event;
	private _reportedErrors = '';

	constructor(private readonly _state: vscode.Memento) {
		super();
		this._bySession = { ...(_state.get<Record<string, string>>(STATE_KEY) ?? {}) };
	}

	/** Act, Plan, then the valid custom modes; a broken keel.modes entry is reported once. */
	all(): Mode[] {
		// An untrusted workspace's own modes are ignored: their instructions would be its words in the prompt.
		const { modes, errors } = parseCustomModes(readSettingUnparsed('modes'));
		const text = errors.join(' ');
		if (text && text !== this._reportedErrors) {
			void vscode.window.showWarningMessage(`Keel: ${plainText(text)}`);
		}
		this._reportedErrors = text;
		return [...BUILT_IN_MODES, ...modes];
	}

	get(sessionId: string): Mode {
		const id = this._bySession[sessionId];
		return (id && this.all().find(mode => mode.id === id)) || ACT;
	}

	/** Switches; throws with the list of modes when the name is unknown. */
	set(sessionId: string, nameOrId: string): Mode {
		const mode = findMode(this.all(), nameOrId);
		if (!mode) {
			throw new Error(
				`There is no mode "${nameOrId}". Modes: ${this.all()
					.map(m => m.name)
					.join(', ')} (add your own in keel.modes).`,
			);
		}
		this._bySession[sessionId] = mode.id;
		void this._state.update(STATE_KEY, this._bySession);
		this._onDidChange.fire({ sessionId, mode });
		return mode;
	}

	/** The session's approval settings with the mode's deny rules added. */
	applyTo(sessionId: string, settings: ApprovalSettings, tools: readonly ToolDefinition[]): ApprovalSettings {
		const deny = modeDenyRules(this.get(sessionId), tools);
		return deny.length ? { ...settings, rules: [...(settings.rules ?? []), ...deny] } : settings;
	}

	instructions(sessionId: string): string | undefined {
		return this.get(sessionId).instructions;
	}

	/** "Keel: Switch Mode": a quick pick, or the mode given as argument (keybindings, tests). */
	async pick(sessionId: string, name?: string): Promise<Mode | undefined> {
		if (name) {
			return this.set(sessionId, name);
		}
		const current = this.get(sessionId);
		const chosen = await vscode.window.showQuickPick(
			this.all().map(mode => ({
				label: mode.name,
				description: describeMode(mode) + (mode.id === current.id ? ' · current' : ''),
				id: mode.id,
			})),
			{ title: 'Keel: Switch Mode', placeHolder: 'Mode for this chat' },
		);
		return chosen ? this.set(sessionId, chosen.id) : undefined;
	}
}
