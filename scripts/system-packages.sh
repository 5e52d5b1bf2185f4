# Sourced (not run) by the scripts that need Debian packages. One list per need, and one way to report what is
# missing: `npm start` and the tests never install system packages themselves (they do not change the system and
# do not assume root); they stop with the exact command to run. Only the CI script (.ci/system-packages) installs.

# Headers and tools code-server's native modules build against (kerberos needs libkrb5-dev, native-keymap
# libx11-dev and libxkbfile-dev, the keyring module libsecret-1-dev).
CODE_SERVER_BUILD_PACKAGES=(libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config)
# Debian's Chromium for playwright-core, and fonts so screenshots show emoji and CJK rather than empty boxes.
CHROMIUM_PACKAGES=(chromium fonts-noto-color-emoji fonts-noto-cjk)

# Prints the packages among "$@" that dpkg does not know as installed, one a line. Prints nothing where there is
# no dpkg (not Debian or Ubuntu): there the build or the launch names what is missing.
missing_debian_packages() {
  command -v dpkg >/dev/null 2>&1 || return 0
  local pkg
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || echo "$pkg"
  done
}

# Exits 3 with one message naming the command to run when any of the packages is missing. $1 says what needs them.
require_debian_packages() {
  local why="$1"
  shift
  local missing
  mapfile -t missing < <(missing_debian_packages "$@")
  (( ${#missing[@]} == 0 )) && return 0
  echo "" >&2
  echo "Missing system packages for $why: ${missing[*]}" >&2
  echo "Install them with:" >&2
  echo "" >&2
  local sudo="sudo "
  [[ "$(id -u)" == 0 ]] && sudo=""
  echo "  ${sudo}apt-get install ${missing[*]}" >&2
  echo "" >&2
  echo "then run the command again. (Nothing was installed or changed.)" >&2
  exit 3
}
