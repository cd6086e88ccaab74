// Shared set-up for suites that drive Keel through its API inside the extension host: a model
// double in this process, Keel pointed at it through user settings, a fresh chat per test,
// and the settings a suite changed put back afterwards.
import * as vscode from 'vscode';
import type { CanonicalMessage, ToolResultData } from '../../src/core/llm/canonical';
import type { KeelApi } from '../../src/host/common/keelApi';
import type { ToolCallView } from '../../src/shared/views';
import { startModelDouble, type ModelDouble, type ModelDoubleOptions } from '../support/modelDouble';
import { testConfig } from './context';
import { requirePart } from '../support/tierGate';

export interface KeelSuite {
	readonly api: KeelApi;
	readonly double: ModelDouble;
	/** Updates a `keel.*` user setting; it is reset when the suite ends. */
	set(key: string, value: unknown, target?: vscode.ConfigurationTarget): Promise<void>;
	/** Waits until a call awaits approval and returns the pending ids (empty after the timeout). */
	pendingApprovals(timeoutMs?: number): Promise<string[]>;
	/** The tool cards of the current chat, in order. */
	toolCards(): ToolCallView[];
	/** The tool results of the current transcript, in order. */
	toolResults(): Array<ToolResultData & { content: string }>;
	/** The last message of the transcript. */
	last(): CanonicalMessage;
}

export function useKeelSuite(options: { double?: ModelDoubleOptions } = {}): KeelSuite {
	let double: ModelDouble | undefined;
	let api: KeelApi | undefined;
	const changed = new Map<string, vscode.ConfigurationTarget>();
	const keel = () => vscode.workspace.getConfiguration('keel');
	const set = async (key: string, value: unknown, target = vscode.ConfigurationTarget.Global) => {
		changed.set(key, target);
		await keel().update(key, value, target);
	};

	before(async function () {
		requirePart(
			this,
			'Keel VSIX',
			testConfig().installed.includes('keel.keel')
				? undefined
				: 'dist/keel.vsix was not installed (build it with npm run package)',
		);
		double = await startModelDouble(options.double);
		api = (await vscode.extensions.getExtension('keel.keel')!.activate()) as KeelApi;
		await set('model.baseUrl', double.openaiBaseUrl);
	});
	after(async () => {
		for (const [key, target] of changed) {
			await keel().update(key, undefined, target);
		}
		changed.clear();
		await double?.close();
	});
	beforeEach(() => {
		double!.reset();
		api!.newChat();
	});

	return {
		get api() {
			return api!;
		},
		get double() {
			return double!;
		},
		set,
		async pendingApprovals(timeoutMs = 10_000) {
			for (const started = Date.now(); Date.now() - started < timeoutMs;) {
				const pending = api!.pendingApprovals();
				if (pending.length > 0) {
					return pending;
				}
				await new Promise(resolve => setTimeout(resolve, 25));
			}
			return [];
		},
		toolCards: () => api!.view().items.flatMap(item => (item.kind === 'tool' ? [item.call] : [])),
		toolResults: () =>
			api!.transcript().flatMap(m => (m.kind === 'tool_result' ? [{ ...m.data, content: m.content }] : [])),
		last: () => api!.transcript().at(-1)!,
	};
}
