#!/usr/bin/env bash
# Sets everything up on a bare machine and starts VS Code with Keel loaded: the desktop
# `code` when present, otherwise code-server in the browser at a printed URL.
# Usage: npm start [-- /path/to/workspace]   (default: the current folder)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/setup.sh
workspace=$(cd "${1:-$PWD}" && pwd)

[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
npm run --silent build

if command -v code >/dev/null 2>&1; then
  echo "Starting VS Code with Keel loaded from $PWD on $workspace"
  exec code --extensionDevelopmentPath="$PWD" "$workspace"
fi

keel_setup_code_server
npm run --silent package >/dev/null
data="$KEEL_CACHE/start"
mkdir -p "$data/extensions" "$data/user"
"$KEEL_CODE_SERVER_NODE" "$KEEL_CODE_SERVER_ENTRY" --extensions-dir "$data/extensions" --user-data-dir "$data/user" \
  --install-extension dist/keel.vsix --force >/dev/null
port=${KEEL_PORT:-8080}
echo
echo "Keel is ready: open http://127.0.0.1:$port/?folder=$workspace"
echo "(model endpoint: keel.model.baseUrl, default Ollama at http://127.0.0.1:11434/v1; Ctrl+C stops)"
exec "$KEEL_CODE_SERVER_NODE" "$KEEL_CODE_SERVER_ENTRY" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry \
  --disable-update-check --extensions-dir "$data/extensions" --user-data-dir "$data/user" "$workspace"
