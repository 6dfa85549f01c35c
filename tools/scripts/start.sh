#!/usr/bin/env bash
# `npm start`: installs dependencies if needed, builds, then starts the local infrastructure, the six services
# and the gateway (tools/launcher/src/start-cli.ts). Ctrl-C stops everything.
set -Eeuo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source tools/scripts/lib.sh
trap on_error ERR
record_tree

section dependencies
ensure_deps

section build
node tools/build/build.js
# Installing and building must leave the checkout as it was (the stack itself writes only under DATA_DIR).
require_clean_tree
section_done

exec node --enable-source-maps dist/tools/start.js "$@"
