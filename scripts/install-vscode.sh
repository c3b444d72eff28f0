#!/usr/bin/env bash
# Installs the VS Code 1.100.3 build that ships inside the npm package code-server@4.100.3
# into a cache folder (outside the extension's own package), for the integration tests.
# Idempotent: a marker file makes every later run a no-op. Prints the lib/vscode path.
# Needs the Debian packages from scripts/install-system-deps.sh (compilers, headers, rg).
# See shared/notes/testing-in-real-vscode.md for why each step is there.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
VSCODE_VERSION=1.100.3
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

log() { echo "[install-vscode] $*" >&2; }
start=$(date +%s)

for tool in node npm rg make g++ python3; do
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
# Native modules build against the installed Node's headers; without them node-gyp would try to
# download headers, which these machines cannot. Use the system's when npm has no nodedir set.
if [[ -z "$(npm config get nodedir 2>/dev/null | grep -v '^undefined$' || true)" ]]; then
  for d in /usr /usr/local; do
    if [[ -f "$d/include/node/node.h" ]]; then export npm_config_nodedir="$d"; break; fi
  done
fi

log "npm install code-server@$CODE_SERVER_VERSION (no install scripts)"
"${NPM[@]}" install --ignore-scripts --no-save "code-server@$CODE_SERVER_VERSION" >&2

CS="$DIR/node_modules/code-server"
log "building argon2 from source"
"${NPM[@]}" rebuild argon2 >&2

log "installing VS Code's own runtime dependencies"
cd "$VSCODE"
"${NPM[@]}" install --omit=dev --ignore-scripts >&2
log "building VS Code's native modules"
"${NPM[@]}" rebuild @parcel/watcher @vscode/spdlog kerberos native-watchdog node-pty @vscode/deviceid >&2

# Debian's ripgrep replaces the binary that @vscode/ripgrep would download.
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sfn "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg

# The links code-server's own postinstall would have made.
ln -sfn node_modules node_modules.asar
if [[ -e bin/remote-cli/code-linux.sh ]]; then ln -sfn code-linux.sh bin/remote-cli/code-server; fi
if [[ -e bin/helpers/browser-linux.sh ]]; then ln -sfn browser-linux.sh bin/helpers/browser.sh; fi

log "installing the built-in extensions' dependencies"
cd "$VSCODE/extensions"
"${NPM[@]}" install --omit=dev --ignore-scripts >&2

# Sanity checks: the server entry point and its native modules load.
test -f "$VSCODE/out/server-main.js"
(cd "$VSCODE" && node -e "require('@vscode/spdlog'); require('node-pty'); require('@parcel/watcher')") >&2

product_version=$(node -p "require('$VSCODE/package.json').version")
if [[ "$product_version" != "$VSCODE_VERSION" ]]; then
  log "unexpected VS Code version $product_version (wanted $VSCODE_VERSION)"
  exit 1
fi

echo "code-server $CODE_SERVER_VERSION / VS Code $VSCODE_VERSION installed $(date -u +%FT%TZ)" > "$MARKER"
log "done in $(( $(date +%s) - start ))s"
echo "$VSCODE"
