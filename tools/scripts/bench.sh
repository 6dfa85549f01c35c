#!/usr/bin/env bash
# `npm run bench [-- --scenario NAME ... --duration N --connections N --json]`: builds, then runs every
# scenario with a target on one stack and prints one table against the targets (see bench/src/bench-cli.ts).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
node tools/build/build.js
exec node --enable-source-maps dist/tools/bench.js "$@"
