#!/usr/bin/env bash
# Installs the Debian packages the integration tests need (building VS Code's native
# modules, ripgrep for VS Code's search, headless Chromium, unzip for --vsix runs).
# An already set-up machine pays only a few `dpkg -s` calls.
set -euo pipefail

PACKAGES=(
  build-essential python3 pkg-config
  libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev
  ripgrep chromium unzip
  bubblewrap
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed'; then
    missing+=("$pkg")
  fi
done
# python3 may come from elsewhere (pyenv); any python3 on PATH will do for node-gyp.
if [[ ${#missing[@]} -gt 0 ]] && command -v python3 >/dev/null; then
  rest=(); for p in "${missing[@]}"; do [[ "$p" == python3 ]] || rest+=("$p"); done
  missing=("${rest[@]+"${rest[@]}"}")
fi

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "[install-system-deps] all Debian packages present"
  exit 0
fi

echo "[install-system-deps] installing: ${missing[*]}"
SUDO=()
if [[ $(id -u) -ne 0 ]]; then SUDO=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq "${missing[@]}" </dev/null
