#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium (never a playwright-downloaded browser).
# Installs it through apt when it is missing and we are root; otherwise says what to do.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Chromium not found at $browser: installing Debian's chromium package" >&2
  # Waits for another apt (a chroot being made alongside) rather than failing on its lock.
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium >/dev/null
  [ -x "$browser" ] && exit 0
  echo "apt installed chromium, but $browser is still missing" >&2
  exit 1
fi
echo "Chromium not found at $browser. Install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH." >&2
exit 1
