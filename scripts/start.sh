#!/usr/bin/env bash
# Sets everything up on a bare machine and starts VS Code with Keel loaded: the desktop
# `code` when present, otherwise code-server in the browser at a printed URL.
# Usage: npm start [-- /path/to/workspace]
# With no folder it opens the sample project, a copy of sample/ made on first start in the
# per-user folder (~/.cache/keel, or $XDG_CACHE_HOME/keel), where code-server's profile lives
# too. KEEL_PORT picks code-server's port (default: 7331, or the next free one; not 8080,
# which is llama.cpp's). KEEL_VSCODE=oldest runs the oldest code-server the tests cover.
set -euo pipefail
# npm runs scripts from the package root and says where the user typed the command in
# INIT_CWD: a relative folder means a folder there.
typed_in=${INIT_CWD:-$PWD}
cd "$(dirname "$0")/.."
source scripts/lib/setup.sh
keel_home=$(keel_user_cache)
profile="$keel_home/code-server"
sample="$keel_home/sample-project"

if [ $# -gt 0 ]; then
  workspace=$(cd "$typed_in" && cd "$1" 2>/dev/null && pwd -P) || {
    echo "npm start: $1 is not a folder (from $typed_in)" >&2
    exit 1
  }
else
  # Copied once, then it is the user's: Keel's edits there stay until they delete the folder.
  if [ ! -d "$sample" ]; then
    mkdir -p "$keel_home"
    rm -rf "$sample.tmp" && cp -R sample "$sample.tmp" && mv "$sample.tmp" "$sample"
  fi
  workspace=$(cd "$sample" && pwd -P)
fi

# KEEL_PORT when set (and it must be free); otherwise 7331, or the first free port after it.
keel_start_port() {
  node - "${KEEL_PORT:-}" <<'NODE'
const net = require('net');
const asked = process.argv[2];
const free = port => new Promise(resolve => {
  const server = net.createServer().once('error', () => resolve(false));
  server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
});
(async () => {
  if (asked) {
    if (await free(Number(asked))) return console.log(asked);
    console.error(`Port ${asked} (KEEL_PORT) is in use: pick another, e.g. KEEL_PORT=${Number(asked) + 1} npm start`);
    process.exit(1);
  }
  for (let port = 7331; port < 7431; port++) if (await free(port)) return console.log(port);
  console.error('No free port in 7331–7430: set KEEL_PORT to a free one.');
  process.exit(1);
})();
NODE
}

[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error

# In a terminal of VS Code's remote server (SSH, WSL, containers, code-server) `code` is the
# remote CLI: it would hand the folder to that window instead of starting a VS Code of ours.
desktop=$(command -v code 2>/dev/null || true)
if [ -n "$desktop" ] && [[ "$desktop" != */remote-cli/* ]]; then
  npm run --silent build
  echo "Starting VS Code with Keel loaded from $PWD on $workspace"
  exec code --extensionDevelopmentPath="$PWD" "$workspace"
fi

# Run from a VS Code terminal, the enclosing instance's variables (VSCODE_IPC_HOOK_CLI above
# all) make code-server open the folder in that instance and exit instead of serving its own.
for name in $(compgen -e); do
  case "$name" in VSCODE_*|ELECTRON_RUN_AS_NODE) unset "$name" ;; esac
done

# VS Code does not run an extension installed inside a folder it has not been told to trust
# (it compares the two paths), so a folder that holds the profile would open without Keel.
mkdir -p "$profile/extensions" "$profile/user/User"
profile=$(cd "$profile" && pwd -P)
if keel_folder_holds "$workspace" "$profile"; then
  echo "npm start: $workspace holds Keel's code-server profile ($profile), and VS Code does not run" >&2
  echo "an extension installed inside a folder it has not been told to trust. Open one of its subfolders," >&2
  echo "or keep the profile elsewhere: XDG_CACHE_HOME=/some/other/folder npm start -- $workspace" >&2
  exit 1
fi

target=${KEEL_VSCODE:-current}
keel_setup_code_server "$target"
keel_code_server_paths "$target"
# The production build: what the VSIX users install carries, and what `npm test` packages.
npm run --silent build:prod
npm run --silent package >/dev/null
# code-server's own config file, so nothing is written to ~/.config/code-server and a config
# left there (a password, another port) does not change this VS Code.
printf 'auth: none\ncert: false\n' >"$profile/config.yaml"
# First start only, so the user's later changes stay: no calls home (the machine may be
# offline, and each failed call is an error in the logs), no update prompts, a folder's README
# as the first editor, and VS Code's own Chat panel closed, so it does not open beside Keel
# asking to "Build with Agent".
[ -f "$profile/user/User/settings.json" ] || cat >"$profile/user/User/settings.json" <<'JSON'
{
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "workbench.enableExperiments": false,
  "workbench.startupEditor": "readme",
  "workbench.secondarySideBar.defaultVisibility": "hidden"
}
JSON
base=(--config "$profile/config.yaml" --extensions-dir "$profile/extensions" --user-data-dir "$profile/user")
"$KEEL_CODE_SERVER_NODE" "$KEEL_CODE_SERVER_ENTRY" "${base[@]}" --install-extension dist/keel.vsix --force >/dev/null
port=$(keel_start_port)
"$KEEL_CODE_SERVER_NODE" "$KEEL_CODE_SERVER_ENTRY" "${base[@]}" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry \
  --disable-update-check "$workspace" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server"; exit 130' INT TERM HUP
# Said ready once code-server answers, so the URL opens at the first try.
node - "$port" "$server" <<'NODE' || { wait "$server"; exit 1; }
const http = require('http');
const [port, pid] = process.argv.slice(2).map(Number);
const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
const poll = () => http.get(`http://127.0.0.1:${port}/healthz`, res => {
  res.resume();
  res.statusCode === 200 ? process.exit(0) : setTimeout(next, 200);
}).on('error', () => setTimeout(next, 200));
const next = () => (alive() ? poll() : (console.error('code-server stopped before it answered.'), process.exit(1)));
next();
NODE
url="http://127.0.0.1:$port/?folder=$(node -p 'encodeURIComponent(process.argv[1])' "$workspace")"
echo
echo "Keel is ready: open $url"
echo "(folder: $workspace"
echo " code-server's profile: $profile; delete $keel_home to start afresh."
echo " Port $port: KEEL_PORT picks another. The folder opens in Restricted Mode until you trust it:"
echo " Keel reads and searches, and edits or runs commands once trusted. Ctrl+Alt+K opens Keel's chat."
echo " Model endpoint: keel.model.baseUrl, default Ollama at http://127.0.0.1:11434/v1. Ctrl+C stops.)"
wait "$server"
