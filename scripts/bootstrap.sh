#!/usr/bin/env bash
# Sets up a fresh machine of the project's kind: pnpm, optional Debian Chromium, dependencies.
# Usage: bash scripts/bootstrap.sh [--for-tests]   (--for-tests adds Chromium, PostgreSQL, sqlite3, nginx)
set -euo pipefail
cd "$(dirname "$0")/.."

for_tests=false
for arg in "$@"; do
  case "$arg" in
    --for-tests) for_tests=true ;;
    *) echo "bootstrap: unknown option $arg" >&2; exit 2 ;;
  esac
done

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "$pnpm_version" ]; then
  echo "bootstrap: installing pnpm $pnpm_version"
  npm install --global --no-fund --no-audit "pnpm@$pnpm_version"
fi

# Browser tests use Debian's Chromium headless shell, benchmarks and consumer apps the full browser
# (scripts/chromium.mjs); store tests also run against a real PostgreSQL server;
# the import benchmark compares with the sqlite3 shell's own .import; the cluster test puts nginx
# in front of two instances of the app.
if $for_tests; then
  missing=()
  # The two come from one source package and share chromium-common: installed together, at one version.
  { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ]; } || missing+=(chromium chromium-headless-shell)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
  command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
  [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing+=(nginx)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "bootstrap: installing ${missing[*]} from Debian"
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

# better-sqlite3 compiles from source offline; node-gyp must use the local Node headers.
if [ -z "${npm_config_nodedir:-}" ] && [ -f "$(dirname "$(dirname "$(command -v node)")")/include/node/node.h" ]; then
  export npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")"
fi

pnpm install --frozen-lockfile
