#!/usr/bin/env bash
# The webview tests drive Debian's Chromium through playwright-core, which downloads no browser of its own.
# Installs it with apt-get when it is missing (CI runs as root, without standard input).
set -euo pipefail

chromium="${AGENT_STREAM_CHROMIUM:-/usr/bin/chromium}"
# Emoji and CJK fonts, so screenshots show what users see rather than empty boxes.
fonts=(fonts-noto-color-emoji fonts-noto-cjk)
missing_fonts=()
if command -v dpkg >/dev/null 2>&1; then
  for font in "${fonts[@]}"; do dpkg -s "$font" >/dev/null 2>&1 || missing_fonts+=("$font"); done
fi
if [ -x "$chromium" ] && [ "${#missing_fonts[@]}" -eq 0 ]; then
  echo "== chromium: $("$chromium" --version 2>/dev/null || echo "$chromium")"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is not at $chromium and there is no apt-get here: install Chromium and point AGENT_STREAM_CHROMIUM at it." >&2
  exit 1
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo -n); fi

echo "== installing chromium and fonts with apt-get"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium "${fonts[@]}"
echo "== chromium: $("$chromium" --version)"
