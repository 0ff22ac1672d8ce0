#!/usr/bin/env bash
# The Firefox specs (test/e2e/firefox*.test.ts) drive Debian's Firefox ESR over WebDriver BiDi
# (puppeteer-core, which downloads no browser). Installs it through apt when it is missing and we
# are root; otherwise says what to do.
set -euo pipefail
browser="${FIREFOX_PATH:-/usr/bin/firefox-esr}"
[ -x "$browser" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Firefox not found at $browser: installing Debian's firefox-esr package" >&2
  # Waits for another apt (a chroot being made alongside) rather than failing on its lock.
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends firefox-esr >/dev/null
  [ -x "$browser" ] && exit 0
  echo "apt installed firefox-esr, but $browser is still missing" >&2
  exit 1
fi
echo "Firefox not found at $browser. Install it (sudo apt-get install -y firefox-esr) or set FIREFOX_PATH." >&2
exit 1
