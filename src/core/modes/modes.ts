import type { PermissionRule } from '../gate/rules/permissions';
import type { ToolEffect } from '../tools/defineTool';

/**
 * A mode decides which tools the model is offered and adds instructions to the system prompt.
 * `tools`: 'all' (Act), 'read' (every read-only tool), or an explicit list of tool names.
 */
export interface Mode {
	id: string;
	name: string;
	instructions?: string;
	tools: 'all' | 'read' | string[];
	builtIn?: boolean;
}

const PLAN_INSTRUCTIONS = [
	'You are in Plan mode: you can read and search the workspace but not change it or run commands.',
	'Investigate what you need, then answer with a numbered plan: the files to change, what to change in each, and how to check the result.',
	'Do not claim to have made changes. The user switches to Act mode to carry the plan out.',
].join('\n');

export const ACT: Mode = { id: 'act', name: 'Act', tools: 'all', builtIn: true };
export const PLAN: Mode = { id: 'plan', name: 'Plan', tools: 'read', instructions: PLAN_INSTRUCTIONS, builtIn: true };
export const BUILT_IN_MODES: readonly Mode[] = [ACT, PLAN];

/**
 * Reads keel.modes: `[{ name, instructions?, tools? }]`. A bad entry is reported and left out,
 * never half-applied; a custom mode cannot replace Act or Plan.
 */
export function parseCustomModes(setting: unknown): { modes: Mode[]; errors: string[] } {
	const modes: Mode[] = [];
	const errors: string[] = [];
	if (setting === undefined || setting === null) {
		return { modes, errors };
	}
	if (!Array.isArray(setting)) {
		return { modes, errors: ['keel.modes must be a list of { "name", "instructions", "tools" } objects.'] };
	}
	setting.forEach((entry, index) => {
		const at = `keel.modes[${index}]`;
		if (
			typeof entry !== 'object' ||
			entry === null ||
			typeof (entry as { name?: unknown }).name !== 'string' ||
			!(entry as { name: string }).name.trim()
		) {
			errors.push(`${at} needs a "name" (text).`);
			return;
		}
		const { name, instructions, tools } = entry as { name: string; instructions?: unknown; tools?: unknown };
		const id = modeId(name);
		if (BUILT_IN_MODES.some(mode => mode.id === id) || modes.some(mode => mode.id === id)) {
			errors.push(`${at}: a mode named "${name}" already exists; pick another name.`);
			return;
		}
		if (instructions !== undefined && typeof instructions !== 'string') {
			errors.push(`${at}.instructions must be text.`);
			return;
		}
		let allowed: Mode['tools'] = 'all';
		if (tools === 'read' || tools === 'all') {
			allowed = tools;
		} else if (Array.isArray(tools) && tools.every(tool => typeof tool === 'string')) {
			allowed = tools as string[];
		} else if (tools !== undefined) {
			errors.push(`${at}.tools must be "all", "read" or a list of tool names (e.g. ["read_file", "grep"]).`);
			return;
		}
		modes.push({ id, name: name.trim(), instructions: instructions?.trim() || undefined, tools: allowed });
	});
	return { modes, errors };
}

export function modeId(name: string): string {
	return name
		.trim()
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
}

export function findMode(modes: readonly Mode[], nameOrId: string): Mode | undefined {
	const id = modeId(nameOrId);
	return modes.find(mode => mode.id === id);
}

/** Whether a tool is part of the mode. Unknown effect counts as not read-only: fail closed. */
export function modeAllows(mode: Mode, tool: { name: string; effect?: ToolEffect }): boolean {
	if (mode.tools === 'all') {
		return true;
	}
	if (mode.tools === 'read') {
		return tool.effect === 'read';
	}
	return mode.tools.includes(tool.name);
}

/**
 * The mode as permission rules: a `deny` without `match` for every tool outside it, which both
 * hides the tool from the model and refuses a call to it written as text (permissions.ts).
 */
export function modeDenyRules(
	mode: Mode,
	tools: ReadonlyArray<{ name: string; effect?: ToolEffect }>,
): PermissionRule[] {
	const because = modeRefusal(mode);
	return tools
		.filter(tool => !modeAllows(mode, tool))
		.map(tool => ({ tool: tool.name, action: 'deny' as const, because }));
}

/** What a call outside the mode is told, and the user with it: the mode refused it, and how to leave the mode. */
export function modeRefusal(mode: Mode): string {
	const allows =
		mode.tools === 'read'
			? 'only read-only tools'
			: mode.tools === 'all'
				? 'every tool'
				: mode.tools.length
					? `only ${mode.tools.join(', ')}`
					: 'no tools';
	return `${mode.name} mode allows ${allows}. Switch to Act mode (/act, or the mode menu beside Send) to let this run`;
}

/** One line for the chat and the status: "Plan: read-only tools, answers with a plan". */
export function describeMode(mode: Mode): string {
	const tools =
		mode.tools === 'all'
			? 'every tool'
			: mode.tools === 'read'
				? 'read-only tools'
				: mode.tools.length
					? mode.tools.join(', ')
					: 'no tools';
	return `${mode.name} mode (${tools})`;
}
