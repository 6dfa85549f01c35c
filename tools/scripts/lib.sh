# Shared by test.sh and start.sh (sourced, not run).

export NX_DAEMON=false NX_NO_CLOUD=true
# re2 compiles from source with node-gyp; there is no internet for Node headers, Debian's are in /usr/include/node.
if [[ -z "${npm_config_nodedir:-}" && -d /usr/include/node ]]; then export npm_config_nodedir=/usr; fi
# The local infrastructure (FerretDB, nats-server) is built with Go.
if ! command -v go >/dev/null 2>&1 && [[ -x /usr/local/go/bin/go ]]; then export PATH="$PATH:/usr/local/go/bin"; fi

SECTION_NAME=''
SECTION_START=0
section() {
  section_done
  SECTION_NAME=$1
  SECTION_START=$SECONDS
  printf '\n======== %s ========\n' "$SECTION_NAME"
}
section_done() {
  [[ -n "$SECTION_NAME" ]] && printf -- '-------- %s done (%ss)\n' "$SECTION_NAME" "$((SECONDS - SECTION_START))"
  SECTION_NAME=''
}
on_error() {
  local rc=$?
  printf '\n######## FAILED: %s (exit %s) ########\n' "${SECTION_NAME:-setup}" "$rc" >&2
  exit "$rc"
}

# npm ci on a fresh checkout; npm install when package-lock.json changed since the last install.
ensure_deps() {
  if [[ ! -d node_modules || ! -f node_modules/.package-lock.json ]]; then
    echo "node_modules missing: npm ci (first time builds re2 from source, a few minutes)"
    # npm 11 writes only this platform's optional packages (@swc/core-*, …) into the lock file and then
    # `npm ci` may call its own lock file out of sync; `npm install` keeps the locked versions and proceeds.
    if ! npm ci --no-audit --no-fund; then
      echo "npm ci refused the lock file; installing the locked versions with npm install"
      npm install --no-audit --no-fund
    fi
  elif [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
    echo "package-lock.json is newer than node_modules: npm install"
    npm install --no-audit --no-fund
  else
    echo "node_modules up to date"
  fi
  # An interrupted install can leave re2 without its native module.
  if ! node -e "require('re2')" >/dev/null 2>&1; then
    echo "re2 native module missing: npm rebuild re2"
    npm rebuild re2
  fi
}

# The end-to-end suites drive the stack with python-gitlab as well (Debian's python3-gitlab, run by
# /usr/bin/python3). Installed here when missing so `npm test` works on a fresh machine.
ensure_test_clients() {
  if /usr/bin/python3 -c 'import gitlab' >/dev/null 2>&1 && command -v docker-registry >/dev/null && command -v skopeo >/dev/null; then
    echo "python-gitlab present"
    return
  fi
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "installing python3-gitlab (apt)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-gitlab docker-registry skopeo >/dev/null ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-gitlab docker-registry skopeo >/dev/null; }
  else
    echo "python-gitlab is missing: install Debian's python3-gitlab (sudo apt-get install python3-gitlab)" >&2
    return 1
  fi
}
