#!/usr/bin/env bash
# `npm run fuzz`: every case of the end-to-end fuzzer (e2e/fuzz.e2e.spec.ts), where `npm test` runs a seeded
# sample. Works on a fresh machine like `npm test`: dependencies, build, then jest, whose global setup brings
# up the infrastructure and the whole stack. `FUZZ_SEED=<n> npm run fuzz` replays a run's choices. The ~20k
# cases run in concurrent lanes (`FUZZ_LANES`, default 6), about 15 minutes on two cores; progress every 30 s,
# then one summary line (cases, operations, findings, duration, seed).
set -Eeuo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source tools/scripts/lib.sh
trap on_error ERR
started=$SECONDS

section dependencies
ensure_deps

section build
node tools/build/build.js

section "fuzz (every case)"
FUZZ_FULL=1 node_modules/.bin/jest --ci e2e/fuzz.e2e.spec.ts "$@"

section_done
printf '\nfuzz passed in %ss\n' "$((SECONDS - started))"
