#!/usr/bin/env bash
# Sets everything up on a bare machine and starts VS Code with Keel loaded: the desktop
# `code` when present, otherwise code-server in the browser at a printed URL.
# Usage: npm start [-- /path/to/workspace]   (default: the current folder)
# KEEL_PORT picks code-server's port (default: 7331, or the next free one; not 8080, which is
# llama.cpp's). KEEL_VSIX installs that VSIX instead of building one and KEEL_START_DATA moves
# code-server's profile: the first-start test uses both.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/setup.sh
workspace=$(cd "${1:-$PWD}" && pwd)

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

if [ -z "${KEEL_VSIX:-}" ]; then
  [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
  npm run --silent build
fi

# In a terminal of VS Code's remote server (SSH, WSL, containers, code-server) `code` is the
# remote CLI: it would hand the folder to that window instead of starting a VS Code of ours.
desktop=$(command -v code 2>/dev/null || true)
if [ -z "${KEEL_VSIX:-}" ] && [ -n "$desktop" ] && [[ "$desktop" != */remote-cli/* ]]; then
  echo "Starting VS Code with Keel loaded from $PWD on $workspace"
  exec code --extensionDevelopmentPath="$PWD" "$workspace"
fi

# Run from a VS Code terminal, the enclosing instance's variables (VSCODE_IPC_HOOK_CLI above
# all) make code-server open the folder in that instance and exit instead of serving its own.
for name in $(compgen -e); do
  case "$name" in VSCODE_*|ELECTRON_RUN_AS_NODE) unset "$name" ;; esac
done

keel_setup_code_server
vsix=${KEEL_VSIX:-dist/keel.vsix}
[ -n "${KEEL_VSIX:-}" ] || npm run --silent package >/dev/null
data="${KEEL_START_DATA:-$KEEL_CACHE/start}"
mkdir -p "$data/extensions" "$data/user/User"
# code-server's own config file, so nothing is written to ~/.config/code-server and a config
# left there (a password, another port) does not change this VS Code.
printf 'auth: none\ncert: false\n' >"$data/config.yaml"
# First start only, so the user's later changes stay: no calls home (the machine may be
# offline, and each failed call is an error in the logs), no update prompts, and VS Code's own
# Chat panel closed, so it does not open beside Keel asking to "Build with Agent".
[ -f "$data/user/User/settings.json" ] || cat >"$data/user/User/settings.json" <<'JSON'
{
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "workbench.enableExperiments": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden"
}
JSON
base=(--config "$data/config.yaml" --extensions-dir "$data/extensions" --user-data-dir "$data/user")
"$KEEL_CODE_SERVER_NODE" "$KEEL_CODE_SERVER_ENTRY" "${base[@]}" --install-extension "$vsix" --force >/dev/null
port=$(keel_start_port)
url="http://127.0.0.1:$port/?folder=$(node -p 'encodeURIComponent(process.argv[1])' "$workspace")"
echo
echo "Keel is ready: open $url"
echo "(port $port: KEEL_PORT picks another. The folder opens in Restricted Mode until you trust it:"
echo " Keel reads and searches, and edits or runs commands once trusted. Ctrl+Alt+K opens Keel's chat."
echo " Model endpoint: keel.model.baseUrl, default Ollama at http://127.0.0.1:11434/v1. Ctrl+C stops.)"
exec "$KEEL_CODE_SERVER_NODE" "$KEEL_CODE_SERVER_ENTRY" "${base[@]}" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry \
  --disable-update-check "$workspace"
