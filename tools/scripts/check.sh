#!/usr/bin/env bash
# Lint (ESLint with type information and Nx module boundaries), typecheck, format check.
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

step lint "$BIN/eslint" --max-warnings=0 .
# tsconfig.json is the typecheck program; e2e/ is added on the fly while tsconfig.json's include leaves it out.
typecheck() {
  local project=tsconfig.json
  if ! grep -q '"e2e/' tsconfig.json; then
    mkdir -p .cache
    project=.cache/tsconfig.check.json
    node -e '
      const base = require("./tsconfig.json");
      const include = [...(base.include ?? []), "e2e/**/*.ts"].map((glob) => "../" + glob);
      const exclude = (base.exclude ?? []).map((glob) => "../" + glob);
      process.stdout.write(JSON.stringify({ extends: "../tsconfig.json", include, exclude }, null, 2));
    ' >"$project"
  fi
  "$BIN/tsc" -p "$project" --noEmit
}
step typecheck typecheck
step format "$BIN/prettier" --check --log-level=warn .

if ((${#failed[@]})); then
  echo "check failed: ${failed[*]}" >&2
  [[ " ${failed[*]} " == *" format "* ]] && echo "  (npm run format fixes formatting)" >&2
  exit 1
fi
echo "check passed"
