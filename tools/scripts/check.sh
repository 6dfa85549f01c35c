#!/usr/bin/env bash
# Lint (ESLint with type information, Nx module boundaries and the app layers; knip for dead code), typecheck,
# format check.
# Runs every step even after a failure so one run shows all problems; exits non-zero if any failed.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
export NX_DAEMON=false NX_NO_CLOUD=true NX_SKIP_NX_CACHE=true
BIN=node_modules/.bin

failed=()
step() {
  local name=$1
  shift
  local started=$SECONDS
  echo "==> check: $name"
  if "$@"; then
    echo "    $name ok ($((SECONDS - started))s)"
  else
    echo "    $name FAILED ($((SECONDS - started))s)"
    failed+=("$name")
  fi
}

# One type-aware ESLint over the whole repository peaks at about 5 GB, past Node's default heap (~4 GB):
# it died out of memory once the tree grew. The machines have 24 GiB.
step lint node --max-old-space-size=8192 "$BIN/eslint" --max-warnings=0 .
# Unused files, exports, types and dependencies (knip.json lists the entry points); any finding fails.
step knip "$BIN/knip"
step typecheck "$BIN/tsc" -p tsconfig.json --noEmit
step format "$BIN/prettier" --check --log-level=warn .

if ((${#failed[@]})); then
  echo "check failed: ${failed[*]}" >&2
  [[ " ${failed[*]} " == *" format "* ]] && echo "  (npm run format fixes formatting)" >&2
  exit 1
fi
echo "check passed"
