/**
 * Where the main thread's time went while the chat streamed: a sampled CPU profile of the
 * renderer that draws the chat's webview (Chromium's CDP Profiler), summed as self time per
 * script and per function. The webview frame is profiled through its own session when it runs
 * out of process, through the page's otherwise (then the workbench's own work shows beside it).
 */
import type { CDPSession, Frame, Page } from 'playwright-core';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
	nodes: ProfileNode[];
	samples?: number[];
	timeDeltas?: number[];
}

export interface CpuProfiler {
	/** Self time, ms, of the heaviest scripts and functions, heaviest first. */
	stop(): Promise<{ scripts: Array<[string, number]>; functions: Array<[string, number]> }>;
}

export async function startCpuProfile(page: Page, frame: Frame): Promise<CpuProfiler> {
	const session: CDPSession = await page
		.context()
		.newCDPSession(frame)
		.catch(() => page.context().newCDPSession(page));
	await session.send('Profiler.enable');
	await session.send('Profiler.setSamplingInterval', { interval: 500 });
	await session.send('Profiler.start');
	return {
		async stop() {
			const { profile } = (await session.send('Profiler.stop')) as { profile: Profile };
			await session.detach().catch(() => undefined);
			return summarise(profile);
		},
	};
}

function summarise(profile: Profile): {
	scripts: Array<[string, number]>;
	functions: Array<[string, number]>;
} {
	const byId = new Map(profile.nodes.map(n => [n.id, n]));
	const scripts = new Map<string, number>();
	const functions = new Map<string, number>();
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	for (let i = 0; i < samples.length; i++) {
		const node = byId.get(samples[i]);
		const ms = (deltas[i + 1] ?? 0) / 1000;
		if (!node || ms <= 0) {
			continue;
		}
		const script = node.callFrame.url.split('/').pop() || `(${node.callFrame.functionName || 'native'})`;
		const { lineNumber, columnNumber } = node.callFrame;
		const fn = `${node.callFrame.functionName || '(anonymous)'} ${script}:${lineNumber + 1}:${columnNumber + 1}`;
		scripts.set(script, (scripts.get(script) ?? 0) + ms);
		functions.set(fn, (functions.get(fn) ?? 0) + ms);
	}
	const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
	return { scripts: top(scripts, 8), functions: top(functions, 12) };
}
