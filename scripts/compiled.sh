#!/usr/bin/env bash
# Runs one of the project's TypeScript entry points, on a bare clone too: installs the npm
# packages when node_modules is missing, compiles to out/ (a type error stops here, so what
# runs is the tree as it is), then runs out/ENTRY.js with the arguments given. What this
# prints of its own goes to stderr, so `npm run --silent eval -- … > report.md` holds the
# report alone. Used by `npm run eval`, `bench:resilience`, `bench:filters` and
# `settings:generate`.
# Usage: bash scripts/compiled.sh ENTRY [args…]   (ENTRY: a path under out/ without .js)
set -euo pipefail
cd "$(dirname "$0")/.."
entry=$1
shift
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error >&2
npx tsc -p . >&2
exec node "out/$entry.js" "$@"
