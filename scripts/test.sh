#!/usr/bin/env bash
# Every test tier, on a bare Debian machine: installs what it needs (npm packages, Chromium,
# code-server, a Docker engine and the offline sandbox base image), builds the extension and
# its VSIX, runs every tier (two lanes at once, see below), and ends with one line:
# "N passed, N failed, N skipped". Exit status is non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/setup.sh
started=$(date +%s)
# A tier whose real parts are missing fails here instead of skipping (test/support/tierGate.ts).
export KEEL_TEST_STRICT=1
rm -rf test-results && mkdir -p test-results

step() { echo; echo "=== $* ==="; }
fail_setup() { echo "setup failed: $*" >&2; echo '{"tier":"setup","passed":0,"failed":1}' >test-results/setup.json; }

step "install"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error || fail_setup "npm ci"
fi
keel_setup_chromium || fail_setup "chromium"
keel_setup_code_servers || fail_setup "code-server"
if keel_start_docker && keel_docker_base_image; then
  export KEEL_DOCKER_READY=1
else
  fail_setup "docker engine or base image"
fi
trap keel_stop_docker EXIT

step "build"
npm run --silent build:prod || fail_setup "build"
npx tsc -p . || fail_setup "tsc"
npx tsc -p src/webview --noEmit || fail_setup "tsc webview"
npm run --silent package >/dev/null || fail_setup "vsce package"

# The tiers run in two lanes at once, one per core: the tiers in a real VS Code (e2e in Chromium,
# then the extension host) and lint beside the plain Node tiers (unit, the Docker-backed
# integration and security tiers); lint sits in the VS Code lane to keep the lanes even. Each
# tier's output is kept apart and printed whole when the tier ends, so the log reads tier by
# tier. KEEL_TEST_LANES=1 runs them one after another.
mkdir -p test-results/logs
tier() {
  local name=$1; shift
  local log="test-results/logs/$name.log" t0; t0=$(date +%s)
  echo "[$name] started"
  "$@" >"$log" 2>&1
  local took=$(( $(date +%s) - t0 ))
  { flock 9; step "tier: $name"; cat "$log"; echo "[$name] took ${took}s"; } 9>test-results/logs/.print
}

node_lane() {
  tier unit node scripts/mochaTier.js unit 'out/test/unit/**/*.test.js' 10000
  tier integration node scripts/mochaTier.js integration 'out/test/integration/**/*.test.js' 60000
  [ -d out/test/security ] && tier security node scripts/mochaTier.js security 'out/test/security/**/*.test.js' 60000
}

# The extension-host tiers follow the e2e tiers; lint ends the lane.
vscode_lane() {
  tier e2e node scripts/mochaTier.js e2e 'out/test/e2e/**/*.test.js' 180000
  # The tiers run on the current VS Code; a smoke run covers the oldest engines.vscode claims.
  KEEL_VSCODE=oldest tier e2e-oldest node scripts/mochaTier.js e2e-oldest 'out/test/e2e/{smoke,mcp,npmStart}.test.js' 180000
  tier vscode node out/test/vscode/run.js
  tier vscode-multiroot node out/test/vscode/run.js --multi-root
  KEEL_VSCODE=oldest KEEL_TIER=vscode-oldest tier vscode-oldest node out/test/vscode/run.js --grep 'extension-host harness|Keel activation|MCP and vscode.lm|Keel turn in the extension host'
  tier lint node scripts/lintTier.js
}

if [ "${KEEL_TEST_LANES:-2}" = 1 ]; then
  node_lane
  vscode_lane
else
  vscode_lane &
  vscode=$!
  node_lane
  wait "$vscode"
fi

echo
echo "whole run took $(( $(date +%s) - started ))s"
# The engine this run started stops before the summary, so its line is not the last one printed.
keel_stop_docker
node scripts/summary.js lint unit integration security vscode vscode-multiroot e2e vscode-oldest e2e-oldest
