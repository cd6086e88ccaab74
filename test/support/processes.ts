// Process plumbing for the launchers: free ports, readiness polling, and stopping a whole
// process group (code-server forks the extension host and pty host into its group).
import { type ChildProcess } from 'child_process';
import * as http from 'http';
import * as net from 'net';

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.once('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address() as net.AddressInfo;
			srv.close(() => resolve(port));
		});
	});
}

export async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`code-server exited with code ${child.exitCode}`);
		const ok = await new Promise<boolean>(resolve => {
			const req = http.get(url, res => {
				res.resume();
				resolve(res.statusCode === 200);
			});
			req.on('error', () => resolve(false));
			req.setTimeout(2000, () => {
				req.destroy();
				resolve(false);
			});
		});
		if (ok) return;
		await new Promise(r => setTimeout(r, 200));
	}
	throw new Error(`code-server did not answer ${url} within ${timeoutMs} ms`);
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	try {
		if (child.pid) process.kill(-child.pid, signal);
	} catch {
		/* already gone */
	}
}

export async function stopGroup(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) {
		killGroup(child, 'SIGKILL');
		return;
	}
	const exited = new Promise<void>(r => child.once('exit', () => r()));
	killGroup(child, 'SIGTERM');
	const timedOut = await Promise.race([
		exited.then(() => false),
		new Promise<boolean>(r => setTimeout(() => r(true), 5000)),
	]);
	// The group may outlive the server (ext host shutting down): SIGKILL whatever is left.
	killGroup(child, 'SIGKILL');
	if (timedOut) await exited;
}
