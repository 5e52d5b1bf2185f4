#!/usr/bin/env bash
# The webview tests drive Debian's Chromium through playwright-core, which downloads no browser of its own.
# Checks that it (and the fonts screenshots need) are there; never installs anything: a missing package stops it
# with the command to run. CI installs them with .ci/system-packages.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=system-packages.sh
source "$here/system-packages.sh"

chromium="${AGENT_STREAM_CHROMIUM:-/usr/bin/chromium}"
require_debian_packages "the webview tests (Chromium and fonts)" "${CHROMIUM_PACKAGES[@]}"
if [[ ! -x "$chromium" ]]; then
  echo "Chromium is not at $chromium: install Chromium and point AGENT_STREAM_CHROMIUM at it." >&2
  exit 1
fi
echo "== chromium: $("$chromium" --version 2>/dev/null || echo "$chromium")"
