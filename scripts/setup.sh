#!/usr/bin/env bash
# Installs what a fresh machine (Node 20 + npm only) lacks: the pinned pnpm, the
# workspace's dependencies, and Debian's Chromium for the real-browser tests.
# Chromium is optional: without it (and without root to install it) the dependencies are
# still installed, so everything but the real-browser tests runs, and the script says how
# to get it.
set -euo pipefail
cd "$(dirname "$0")/.."
want=$(node -p "require('./package.json').packageManager.split('@')[1]")

# pnpm: the pinned version, else an explanation of how to get it without root.
pnpm_command=(pnpm)
if [[ "$(pnpm -v 2>/dev/null || true)" != "$want" ]]; then
  if ! npm install -g "pnpm@$want" --no-fund --no-audit; then
    cat >&2 <<EOF

Could not install pnpm $want globally (npm install -g needs write access to $(npm prefix -g 2>/dev/null || echo "npm's global folder"); EACCES means it has none).
Without root, either:
  npm install -g --prefix ~/.local "pnpm@$want"   # then put ~/.local/bin on your PATH
or run it through npx, with no install:
  npx "pnpm@$want" install
This time, setup goes on with npx "pnpm@$want".

EOF
    pnpm_command=(npx --yes "pnpm@$want")
  fi
fi

# Chromium for the end-to-end tests and the benchmarks; its absence does not stop the install.
chromium_missing=''
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 && [[ -z "${CHROMIUM_PATH:-}" ]]; then
  if [[ $(id -u) == 0 ]]; then
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }; then
      chromium_missing='apt-get could not install chromium.'
    fi
  else
    chromium_missing='Chromium is not installed, and installing it needs root.'
  fi
fi

"${pnpm_command[@]}" install --frozen-lockfile

if [[ -n "$chromium_missing" ]]; then
  cat >&2 <<EOF

$chromium_missing
The dependencies are installed: building, type checks, lint and unit tests work
(pnpm build && pnpm unit). The real-browser tests (pnpm e2e, part of pnpm test)
and the benchmarks need Chromium. Get it with one of:
  sudo apt-get install chromium          # Debian or Ubuntu, then nothing else to do
  CHROMIUM_PATH=/path/to/chrome pnpm test  # any Chromium or Chrome you already have
EOF
fi
