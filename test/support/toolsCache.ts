// Where scripts/lib/setup.sh keeps what it installs for the tiers (code-server, the Node it runs
// on, llama.cpp for the benches), by the same rule: KEEL_CACHE when set, else the per-user cache
// folder ($XDG_CACHE_HOME/keel/tools, or ~/.cache/keel/tools; a relative XDG_CACHE_HOME is ignored,
// as the XDG spec says), else the clone's .vscode-test/ on a machine with no home.
import * as os from 'os';
import * as path from 'path';

export function toolsCache(repoRoot: string): string {
	if (process.env.KEEL_CACHE) return process.env.KEEL_CACHE;
	const xdg = process.env.XDG_CACHE_HOME;
	if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'keel', 'tools');
	const home = process.env.HOME || os.homedir();
	return home ? path.join(home, '.cache', 'keel', 'tools') : path.join(repoRoot, '.vscode-test');
}
