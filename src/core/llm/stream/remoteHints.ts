/**
 * In a remote window (Remote-SSH, WSL, a dev container, Codespaces, a tunnel, code-server) Keel
 * runs in the remote extension host, so a loopback address is the remote machine, not the one
 * the user sits at: a model server on their laptop is not at 127.0.0.1 there. When such an
 * address does not answer, the error says so and gives the ways out for that kind of remote.
 */
import ipaddr from 'ipaddr.js';

/** Whether a URL's host is this machine itself: loopback or unspecified literals, and `localhost` names (RFC 6761). */
export function isLoopbackUrl(baseUrl: string): boolean {
	let host: string;
	try {
		host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
	} catch {
		return false;
	}
	if (host === 'localhost' || host.endsWith('.localhost')) {
		return true;
	}
	if (!ipaddr.isValid(host)) {
		return false;
	}
	let address = ipaddr.parse(host);
	if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
		address = (address as ipaddr.IPv6).toIPv4Address();
	}
	// 0.0.0.0 and :: connect to this machine too.
	return address.range() === 'loopback' || address.range() === 'unspecified';
}

/** What VS Code's `env.remoteName` says, as the user knows it; an unknown name is quoted. */
function remoteLabel(remote: string): string {
	switch (remote) {
		case 'ssh-remote':
			return 'an SSH remote';
		case 'wsl':
			return 'WSL';
		case 'dev-container':
		case 'attached-container':
			return 'a dev container';
		case 'codespaces':
			return 'a codespace';
		case 'tunnel':
			return 'a remote tunnel';
		default:
			// A web workbench (code-server, a VS Code server) names the remote by the server's host:port.
			return /^[^+\s]+:\d+$/.test(remote) ? `a browser window served by ${remote}` : `the remote "${remote}"`;
	}
}

/** How a server on the user's own machine can be reached from this kind of remote. */
function reachHint(remote: string, port: string): string {
	switch (remote) {
		case 'ssh-remote':
			return `forward the port to the remote (\`ssh -R ${port}:127.0.0.1:${port} <host>\`, or RemoteForward in your SSH config)`;
		case 'wsl':
			return "turn on WSL's mirrored networking (networkingMode=mirrored in .wslconfig) or use the Windows host's address";
		case 'dev-container':
		case 'attached-container':
			return `use \`http://host.docker.internal:${port}\` (on Linux add \`--add-host=host.docker.internal:host-gateway\` to the container's runArgs)`;
		default:
			return "forward your machine's port to it";
	}
}

/**
 * The sentence added to "no model server answered" when Keel runs remote and the address is
 * loopback; undefined when neither (a local window, or an address that is not this machine).
 */
export function remoteLoopbackHint(baseUrl: string, remote: string | undefined): string | undefined {
	if (!remote || !isLoopbackUrl(baseUrl)) {
		return undefined;
	}
	const url = new URL(baseUrl);
	const port = url.port || (url.protocol === 'https:' ? '443' : '80');
	return (
		`Keel runs in ${remoteLabel(remote)}, so ${url.hostname} is that remote machine, not your own: ` +
		`${reachHint(remote, port)}, set keel.model.baseUrl to an address the remote machine can reach, ` +
		`or run the model server there.`
	);
}
