#!/usr/bin/env bash
# `npm run bench [-- name]`: figures only, never pass/fail. Builds the production bundles
# first so sizes and activation are what users get.
set -uo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
npm run --silent build:prod
npm run --silent package >/dev/null
npx tsc -p . >/dev/null || true
source scripts/lib/setup.sh
# The exec bench needs an engine and the sandbox base image; the activation bench needs code-server.
keel_setup_code_server || true
keel_setup_chromium || true
keel_start_docker && keel_docker_base_image || echo "(no Docker engine: the exec bench will say so)"
trap keel_stop_docker EXIT
# The prefill bench's llama.cpp rows run a real llama-server, built from source on first use
# (minutes; scripts/lib/llamaCpp.sh says how long) and cached after that.
source scripts/lib/llamaCpp.sh
wants_prefill=$([ $# -eq 0 ] && echo 1)
for name in "$@"; do [[ prefill.bench.js == "$name"* ]] && wants_prefill=1; done
if [ -n "$wants_prefill" ]; then
  keel_setup_llama_cpp || echo "(no llama.cpp server: the prefill bench's llama.cpp rows will say so)"
fi
node out/bench/main.js "$@"
