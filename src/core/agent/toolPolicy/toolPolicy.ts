/**
 * What the tool system decides per session, around the loop: which tools are offered
 * (anomaly blocks, dependencies, TAFC schemas), which calls are refused before they run,
 * and how a failure is classified. The host's tool system keeps one and hands it to each
 * session with the registry (`AgentOptions.toolPolicy`); without it the loop behaves as before.
 */
import type { ToolSpec } from '../../llm/chatModel';
import { AnomalyGuard, defaultAnomalySettings, type AnomalySettings } from './anomalyGuard';
import { augmentSpec, defaultTafcSettings, dropThinking, type TafcSettings } from './tafc';
import { defaultDependencySettings, unmetRequirements, type DependencySettings } from './toolDependencies';
import { QUALITY, type ToolErrorCategory } from '../recovery/toolErrors';

export interface ToolPolicySettings {
	anomaly: AnomalySettings;
	tafc: TafcSettings;
	dependencies: DependencySettings;
	/** Automatic retries of read and network tools after an infrastructure failure. */
	infraRetries: number;
	infraRetryDelayMs: number;
}

export const defaultToolPolicySettings: ToolPolicySettings = {
	anomaly: defaultAnomalySettings,
	tafc: defaultTafcSettings,
	dependencies: defaultDependencySettings,
	infraRetries: 2,
	infraRetryDelayMs: 500,
};

export class SessionToolState {
	readonly succeeded = new Set<string>();
	readonly anomaly = new AnomalyGuard();
	private readonly _qualityFailures = new Map<string, number>();
	private readonly _tafcApplied = new Set<string>();
	private _lastExclusions = '';

	constructor(
		private readonly _settings: () => ToolPolicySettings,
		private readonly _log: (line: string) => void,
	) {}

	get settings(): ToolPolicySettings {
		return this._settings();
	}

	/**
	 * The specs a request carries this step: every offerable tool, in its order, TAFC applied.
	 * A blocked tool or one whose prerequisite has not succeeded stays offered (removing it
	 * would make a local server re-read the whole conversation); its call is refused with the
	 * reason instead (`refuse`).
	 */
	offer(specs: readonly ToolSpec[]): ToolSpec[] {
		const settings = this._settings();
		const names = new Set(specs.map(s => s.name));
		const line = specs
			.map(spec => ({
				tool: spec.name,
				missing: unmetRequirements(spec.name, this.succeeded, settings.dependencies, names),
			}))
			.filter(e => e.missing.length)
			.map(e => `${e.tool} (requires ${e.missing.join(', ')})`)
			.join('; ');
		if (line && line !== this._lastExclusions) {
			this._log(`Tool dependencies: refused until their prerequisites succeed: ${line}.`);
		}
		this._lastExclusions = line;
		this._tafcApplied.clear();
		return specs.map(spec => {
			const augmented = augmentSpec(spec, settings.tafc);
			if (augmented !== spec) {
				this._tafcApplied.add(spec.name);
			}
			return augmented;
		});
	}

	/** A reason not to run the call at all, or undefined. */
	refuse(tool: string, offeredNames: ReadonlySet<string>): string | undefined {
		if (this.anomaly.isBlocked(tool)) {
			return `${tool} is blocked for this session: it failed too often. Do not call it; use another tool or answer with what you have.`;
		}
		const missing = unmetRequirements(tool, this.succeeded, this._settings().dependencies, offeredNames);
		return missing.length
			? `${tool} is not available until ${missing.join(' and ')} has succeeded in this session. Call ${missing[0]} first.`
			: undefined;
	}

	/** The model's `thinking` is for the model: dropped before validation and execution. */
	prepareArguments(tool: string, rawArguments: string): string {
		return this._tafcApplied.has(tool) || this._settings().tafc.enabled ? dropThinking(rawArguments) : rawArguments;
	}

	/** Whether a quality failure of this tool still has its one reformat attempt. */
	qualityAttemptLeft(tool: string, category: ToolErrorCategory): boolean {
		if (!QUALITY.has(category)) {
			return false;
		}
		const count = (this._qualityFailures.get(tool) ?? 0) + 1;
		this._qualityFailures.set(tool, count);
		return count <= 1;
	}

	/** Records an outcome; returns the failure rate when this one blocked the tool. */
	record(tool: string, ok: boolean, category?: ToolErrorCategory): number | undefined {
		if (ok) {
			this.succeeded.add(tool);
			this._qualityFailures.delete(tool);
		}
		// User decisions and policy refusals are not the tool's failures.
		if (category === 'cancelled' || category === 'policy_blocked') {
			return undefined;
		}
		return this.anomaly.record(tool, !ok, this._settings().anomaly);
	}
}

export class ToolPolicy {
	private readonly _sessions = new Map<string, SessionToolState>();

	constructor(
		private readonly _settings: () => ToolPolicySettings = () => defaultToolPolicySettings,
		private readonly _log: (line: string) => void = () => {},
	) {}

	session(sessionId: string): SessionToolState {
		let state = this._sessions.get(sessionId);
		if (!state) {
			state = new SessionToolState(this._settings, this._log);
			this._sessions.set(sessionId, state);
		}
		return state;
	}
}
