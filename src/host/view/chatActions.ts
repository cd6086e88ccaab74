import type { ActionView } from '../../shared/views';

/**
 * The way out of each stop, by what stopped: a failed turn can be sent again, a server that is
 * not there or a model it lacks is one pick away, a refused key is one command away, Restricted
 * Mode is one trust away. The chat draws them as buttons; the host runs them (chatActionRunner).
 */
export function errorActions(code: string): ActionView[] {
	const retry: ActionView = { action: 'retryTurn', label: 'Retry' };
	switch (code) {
		case 'modelUnreachable':
		case 'modelNotFound':
			return [retry, { action: 'selectModel', label: 'Select Model' }];
		case 'modelAuth':
			return [retry, { action: 'setApiKey', label: 'Set API Key' }];
		case 'modelTimeout':
			return [
				retry,
				{ action: 'openSetting', label: 'Open Setting', setting: 'keel.model.requestTimeoutSeconds' },
			];
		case 'cancelled':
			return [];
		default:
			return [retry];
	}
}

/** Notice codes whose notice carries a button, with it. */
const NOTICE_ACTIONS: Record<string, ActionView[]> = {
	untrusted: [{ action: 'manageTrust', label: 'Manage Workspace Trust' }],
	truncated: [{ action: 'openSetting', label: 'Open Setting', setting: 'keel.model.contextWindow' }],
	serverWindow: [{ action: 'openSetting', label: 'Open Setting', setting: 'keel.model.contextWindow' }],
	sandbox: [{ action: 'openSetting', label: 'Open Setting', setting: 'keel.shell.backend' }],
	rewound: [{ action: 'undoRewind', label: 'Undo' }],
};

export function noticeActions(code: string): ActionView[] | undefined {
	return NOTICE_ACTIONS[code];
}

/** Errors about the model server or the model: they stop being true when the model or endpoint changes. */
export function isModelError(code: string): boolean {
	return code.startsWith('model');
}
