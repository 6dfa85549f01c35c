#!/usr/bin/env bash
# `npm run bench [-- --duration N --connections N --json]`: builds, then measures the same small GET on a
# bare Express server, the boards service directly and through the gateway (see bench/src/bench-cli.ts).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
node tools/build/build.js
exec node --enable-source-maps dist/tools/bench.js "$@"
