#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium (never a playwright-downloaded browser).
# Installs it through apt when it is missing and we are root; otherwise says what to do.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Chromium not found at $browser: installing Debian's chromium package" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "Chromium not found at $browser. Install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
exit 1
