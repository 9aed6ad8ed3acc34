#!/usr/bin/env bash
# Installs what a fresh machine (Node 20 + npm only) lacks: the pinned pnpm, the
# workspace's dependencies, and Debian's Chromium for the real-browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
want=$(node -p "require('./package.json').packageManager.split('@')[1]")
if [[ "$(pnpm -v 2>/dev/null || true)" != "$want" ]]; then
  npm install -g "pnpm@$want" --no-fund --no-audit
fi
if ! command -v chromium >/dev/null 2>&1 && [[ -z "${CHROMIUM_PATH:-}" ]]; then
  if [[ $(id -u) == 0 ]]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi
pnpm install --frozen-lockfile
