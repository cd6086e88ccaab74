import type { CheckModelToHost } from '../../shared/checkModelProtocol';

interface VsCodeApi {
	postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

// Acquired once and kept private to this module: page content can never reach it.
const api = acquireVsCodeApi();

export function post(message: CheckModelToHost): void {
	api.postMessage(message);
}
