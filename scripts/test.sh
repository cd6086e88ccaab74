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
trap keel_stop_docker EXIT

step() { echo; echo "=== $* ==="; }
# One file per set-up that failed, so a failure in either lane is never overwritten by the other's.
fail_setup() {
  echo "setup failed: $*" >&2
  echo "{\"tier\":\"setup: $*\",\"passed\":0,\"failed\":1}" >"test-results/setup-${*// /-}.json"
}
mkdir -p test-results/logs

# Each tier's output is kept apart and printed whole when the tier ends, so the log reads tier by
# tier although two lanes run at once.
tier() {
  local name=$1; shift
  local log="test-results/logs/$name.log" t0; t0=$(date +%s)
  echo "[$name] started"
  "$@" >"$log" 2>&1
  local took=$(( $(date +%s) - t0 ))
  { flock 9; step "tier: $name"; cat "$log"; echo "[$name] took ${took}s"; } 9>test-results/logs/.print
}

step "install"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error || fail_setup "npm ci"
fi

# The build and the engine are ready when this file says so: the VS Code lane starts before them
# and waits here, and learns from it whether the Docker engine answered.
built=test-results/logs/.built
build_and_engine() {
  local docker=0
  if keel_start_docker && keel_docker_base_image; then
    docker=1
    export KEEL_DOCKER_READY=1
  else
    fail_setup "docker engine or base image"
  fi
  step "build"
  npm run --silent build:prod || fail_setup "build"
  npx tsc -p . || fail_setup "tsc"
  npx tsc -p src/webview --noEmit || fail_setup "tsc webview"
  npm run --silent package >/dev/null || fail_setup "vsce package"
  echo "$docker" >"$built"
}
wait_for_build() {
  while [ ! -f "$built" ]; do sleep 1; done
  [ "$(cat "$built")" = 1 ] && export KEEL_DOCKER_READY=1
  return 0
}

# The two lanes run at once, one per core: the tiers in a real VS Code (e2e in Chromium, then the
# extension host, on the current and the oldest VS Code; one after another, as `npm start` in the
# e2e tiers packages the VSIX the others install) beside the plain Node tiers (unit, the
# Docker-backed integration and security tiers). The VS Code lane first installs what only it
# needs (Chromium, two code-servers: five minutes of compiling on a bare machine) while the build
# and the Node tiers run. Lint runs while the build does when the VS Code lane has nothing to
# install, else in whichever lane is done first. KEEL_TEST_LANES=1 runs them one after another.
node_lane() {
  tier unit node scripts/mochaTier.js unit 'out/test/unit/**/*.test.js' 10000
  tier integration node scripts/mochaTier.js integration 'out/test/integration/**/*.test.js' 60000
  [ -d out/test/security ] && tier security node scripts/mochaTier.js security 'out/test/security/**/*.test.js' 60000
  lint_if_first
}

vscode_lane() {
  local ok=1
  step "install: Chromium and code-server"
  { keel_setup_chromium || { fail_setup "chromium"; ok=0; }; } 2>&1
  { keel_setup_code_servers || { fail_setup "code-server"; ok=0; }; } 2>&1
  # With the code-servers already in the cache, the build is still running: lint (which needs
  # no build) fills that wait instead of ending a lane.
  [ -f "$built" ] || lint_if_first
  wait_for_build
  if [ "$ok" = 1 ]; then
    tier e2e node scripts/mochaTier.js e2e 'out/test/e2e/**/*.test.js' 180000
    # The tiers run on the current VS Code; a smoke run covers the oldest engines.vscode claims.
    KEEL_VSCODE=oldest tier e2e-oldest node scripts/mochaTier.js e2e-oldest 'out/test/e2e/{smoke,mcp,npmStart}.test.js' 180000
    tier vscode node out/test/vscode/run.js
    tier vscode-multiroot node out/test/vscode/run.js --multi-root
    KEEL_VSCODE=oldest KEEL_TIER=vscode-oldest tier vscode-oldest node out/test/vscode/run.js --grep 'extension-host harness|Keel activation|MCP and vscode.lm|Keel turn in the extension host'
  fi
  lint_if_first
}

# mkdir is atomic: the first lane to get here runs lint, the other finds it taken.
lint_if_first() { mkdir test-results/logs/.lint-claimed 2>/dev/null && tier lint node scripts/lintTier.js; return 0; }

if [ "${KEEL_TEST_LANES:-2}" = 1 ]; then
  build_and_engine
  vscode_lane
  node_lane
else
  vscode_lane &
  vscode=$!
  build_and_engine
  node_lane
  wait "$vscode"
fi

echo
echo "whole run took $(( $(date +%s) - started ))s"
# The engine this run started stops before the summary, so its line is not the last one printed.
keel_stop_docker
node scripts/summary.js lint unit integration security vscode vscode-multiroot e2e vscode-oldest e2e-oldest
