// A client for the control API, for tests that run in another process than the double
// (e.g. Playwright driving VS Code while the extension inside talks to the double).
// Steps cross the wire as JSON, so only data steps (no functions) can be sent.

import type { DataStep, RecordedRequest } from './types';

export class DoubleControl {
	constructor(readonly url: string) {}

	/** Appends steps; resolves to how many are queued. Rejects with the double's validation message. */
	async script(...steps: DataStep[]): Promise<number> {
		const body = await this.call('POST', '/__double/script', steps);
		return (body as { queued: number }).queued;
	}

	async reset(): Promise<void> {
		await this.call('POST', '/__double/reset');
	}

	async requests(): Promise<RecordedRequest[]> {
		return (await this.call('GET', '/__double/requests')) as RecordedRequest[];
	}

	private async call(method: string, path: string, payload?: unknown): Promise<unknown> {
		const res = await fetch(this.url + path, {
			method,
			headers: payload === undefined ? undefined : { 'content-type': 'application/json' },
			body: payload === undefined ? undefined : JSON.stringify(payload),
		});
		const body = await res.json();
		if (!res.ok)
			throw new Error(`model double control ${method} ${path}: HTTP ${res.status}: ${JSON.stringify(body)}`);
		return body;
	}
}
