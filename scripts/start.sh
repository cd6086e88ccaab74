#!/usr/bin/env bash
# Sets everything up on a bare machine and starts VS Code with Keel loaded: the desktop
# `code` when present, otherwise code-server in the browser at a printed URL.
# Usage: npm start [-- /path/to/workspace]   (default: the current folder)
# KEEL_PORT picks code-server's port (default 8080). KEEL_VSIX installs that VSIX instead of
# building one and KEEL_START_DATA moves code-server's profile: the first-start test uses both.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/setup.sh
workspace=$(cd "${1:-$PWD}" && pwd)

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
# offline, and each failed call is an error in the logs) and no update prompts.
[ -f "$data/user/User/settings.json" ] || cat >"$data/user/User/settings.json" <<'JSON'
{
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "workbench.enableExperiments": false
}
JSON
base=(--config "$data/config.yaml" --extensions-dir "$data/extensions" --user-data-dir "$data/user")
"$KEEL_CODE_SERVER_NODE" "$KEEL_CODE_SERVER_ENTRY" "${base[@]}" --install-extension "$vsix" --force >/dev/null
port=${KEEL_PORT:-8080}
echo
echo "Keel is ready: open http://127.0.0.1:$port/?folder=$workspace"
echo "(model endpoint: keel.model.baseUrl, default Ollama at http://127.0.0.1:11434/v1; Ctrl+C stops)"
exec "$KEEL_CODE_SERVER_NODE" "$KEEL_CODE_SERVER_ENTRY" "${base[@]}" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry \
  --disable-update-check "$workspace"
