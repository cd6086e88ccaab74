interface VsCodeApi {
	postMessage(message: unknown): void;
	getState(): unknown;
	setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

// Acquired once per page (VS Code allows one call) and kept private to the modules that import it:
// page content can never reach it. Each view types what it posts (vscodeApi.ts, checkModel/api.ts).
export const vscodeApi = acquireVsCodeApi();

export function postToHost(message: unknown): void {
	vscodeApi.postMessage(message);
}
