/**
 * Tool dependencies: `requires` hides a tool until every listed tool succeeded in this
 * session (e.g. edit_file requires read_file, so the model reads before it edits);
 * `prefers` moves a tool up the offered list once its preferred tools have succeeded.
 */
export interface DependencyRule {
	requires?: string[];
	prefers?: string[];
}

export interface DependencySettings {
	enabled: boolean;
	rules: Record<string, DependencyRule>;
	boostPerDep: number;
	maxTotalBoost: number;
}

export const defaultDependencySettings: DependencySettings = {
	enabled: false,
	rules: { edit_file: { requires: ['read_file'] } },
	boostPerDep: 0.15,
	maxTotalBoost: 0.2,
};

export interface DependencyExclusion {
	tool: string;
	missing: string[];
}

export function unmetRequirements(
	tool: string,
	succeeded: ReadonlySet<string>,
	settings: DependencySettings,
	offered: ReadonlySet<string>,
): string[] {
	if (!settings.enabled) {
		return [];
	}
	// A prerequisite that is not offered at all can never succeed: it must not hide the tool for ever.
	return (settings.rules[tool]?.requires ?? []).filter(name => offered.has(name) && !succeeded.has(name));
}

export function preferenceBoost(tool: string, succeeded: ReadonlySet<string>, settings: DependencySettings): number {
	if (!settings.enabled) {
		return 0;
	}
	const satisfied = (settings.rules[tool]?.prefers ?? []).filter(name => succeeded.has(name)).length;
	return Math.min(settings.maxTotalBoost, satisfied * settings.boostPerDep);
}
