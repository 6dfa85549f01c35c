#!/usr/bin/env bash
# `npm test`: dependencies, lint + typecheck + format, build, then one jest run for unit, component and
# end-to-end tests (jest's global setup brings up the infrastructure and the whole stack).
# Extra arguments go to jest: `npm test -- libs/service-kit`.
set -Eeuo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source tools/scripts/lib.sh
trap on_error ERR
started=$SECONDS
record_tree

section dependencies
ensure_deps
ensure_test_clients

section "check (lint, knip, typecheck, format)"
bash tools/scripts/check.sh

section build
node tools/build/build.js

section "tests (jest)"
mkdir -p .cache
results=.cache/jest-results.json
rm -f "$results"
status=0
node_modules/.bin/jest --ci --json --outputFile="$results" "$@" || status=$?
# One plain closing line with the counts, whatever the runner printed above it.
if [[ -f $results ]]; then
  node -e 'const r=require(process.argv[1]); console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`)' "$(pwd)/$results"
fi
if ((status != 0)); then exit "$status"; fi

section "clean tree"
require_clean_tree

section_done
printf '\nall passed in %ss\n' "$((SECONDS - started))"
