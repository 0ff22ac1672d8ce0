#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium (playwright) and Firefox ESR (puppeteer-core over
# WebDriver BiDi); neither tool ever downloads a browser. Installs what is missing through apt
# when we are root (one `apt-get update` for both); otherwise says what to do.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
firefox="${FIREFOX_PATH:-/usr/bin/firefox-esr}"
missing=()
[ -x "$chromium" ] || missing+=(chromium)
[ -x "$firefox" ] || missing+=(firefox-esr)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "not found: ${missing[*]}: installing Debian's packages" >&2
  # Waits for another apt (a chroot being made alongside) rather than failing on its lock.
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}" >/dev/null
  [ -x "$chromium" ] && [ -x "$firefox" ] && exit 0
  echo "apt installed ${missing[*]}, but $chromium or $firefox is still missing" >&2
  exit 1
fi
echo "Not found: ${missing[*]}. Install them (sudo apt-get install -y ${missing[*]}) or set CHROMIUM_PATH and FIREFOX_PATH." >&2
exit 1
