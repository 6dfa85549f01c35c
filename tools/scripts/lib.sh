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

# npm ci on a fresh checkout; npm install when package-lock.json changed since the last install. Neither
# may write the tracked lock file (a fresh checkout would be dirty after its first start): `npm ci` never
# does, and `npm install --no-save` installs the locked versions without saving anything. The lock file
# lists every platform's optional packages (@swc/core-*, esbuild's…), as npm 11 writes them; a lock file
# with only one platform's would make `npm ci` refuse it and `npm install` add the rest.
ensure_deps() {
  if [[ ! -d node_modules || ! -f node_modules/.package-lock.json ]]; then
    echo "node_modules missing: npm ci (first time builds re2 from source, a few minutes)"
    if ! npm ci --no-audit --no-fund; then
      # CI installs exactly the committed lock file or fails: an out-of-date lock file is a bug to fix.
      if [[ "${CI:-}" == "true" ]]; then
        echo "npm ci refused package-lock.json: update it with \`npm install\` and commit it" >&2
        return 1
      fi
      echo "npm ci refused package-lock.json (out of date with package.json?): npm install --no-save," >&2
      echo "which leaves it as it is; run \`npm install\` and commit the lock file to fix it" >&2
      npm install --no-save --no-audit --no-fund
    fi
  elif [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
    echo "package-lock.json is newer than node_modules: npm install --no-save"
    npm install --no-save --no-audit --no-fund
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

# What `git status` says about the tree at the start of a run, to compare with at its end.
TREE_AT_START=''
record_tree() {
  TREE_AT_START=$(git status --porcelain --untracked-files=all 2>/dev/null || true)
}

# CI runs on a clean clone, so whatever a run leaves in `git status` (a rewritten lock file, a generated file
# that is not ignored) is a bug: with CI=true the run fails and lists it. Local runs only warn: the developer's
# own work is there too. Nothing is excluded; paths changed before the run started are named as such.
require_clean_tree() {
  git rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 0 # an unpacked archive: nothing to compare
  local now changed
  now=$(git status --porcelain --untracked-files=all)
  changed=$(comm -13 <(printf '%s\n' "$TREE_AT_START" | sort) <(printf '%s\n' "$now" | sort) | sed '/^$/d')
  if [[ -n "$TREE_AT_START" && "${CI:-}" == "true" ]]; then
    echo "note: the tree was not clean when the run started; only paths whose status changed are checked:" >&2
    printf '%s\n' "$TREE_AT_START" >&2
  fi
  [[ -z "$changed" ]] && return 0
  if [[ "${CI:-}" == "true" ]]; then
    printf 'the run changed the working tree (git status --porcelain):\n%s\n' "$changed" >&2
    git --no-pager diff --stat >&2 || true
    return 1
  fi
  printf 'warning: git status changed during the run:\n%s\n' "$changed" >&2
}
