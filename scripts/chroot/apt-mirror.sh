#!/usr/bin/env bash
# Prints the Debian archive this machine's apt uses, so the sid chroot comes from the same mirror
# apt itself reads: the first `deb` entry of /etc/apt/sources.list.d/*.sources (deb822 stanzas)
# or /etc/apt/sources.list (one-line entries) whose suite is not a security suite (those are a
# separate archive, without sid). DEBIAN_MIRROR, when set, wins. Exits 1 when there is none.
#   usage: scripts/chroot/apt-mirror.sh [APT_DIR]   (default /etc/apt; tests give their own)
set -euo pipefail
apt_dir="${1:-/etc/apt}"
if [ -n "${DEBIAN_MIRROR:-}" ]; then
  echo "$DEBIAN_MIRROR"
  exit 0
fi
shopt -s nullglob
# deb822: stanzas are separated by blank lines; a '#' line is a comment. Field names are
# case-insensitive; URIs and Suites may hold several values.
for file in "$apt_dir"/sources.list.d/*.sources; do
  found="$(awk '
    function flush() {
      if (!done && types ~ /(^| )deb( |$)/ && enabled != "no" && uri != "" && suites != "") {
        n = split(suites, s, " ")
        for (i = 1; i <= n; i++) if (s[i] !~ /-security$/) { print uri; done = 1; exit }
      }
      types = ""; uri = ""; suites = ""; enabled = ""
    }
    /^[ \t]*#/ { next }
    /^[ \t]*$/ { flush(); next }
    {
      key = tolower($1); sub(/:$/, "", key)
      $1 = ""; sub(/^[ \t]+/, "")
      if (key == "types") types = $0
      else if (key == "uris") { split($0, u, " "); uri = u[1] }
      else if (key == "suites") suites = $0
      else if (key == "enabled") enabled = tolower($0)
    }
    END { flush() }
  ' "$file")"
  if [ -n "$found" ]; then
    echo "${found%/}"
    exit 0
  fi
done
# One-line form: deb [options] URI SUITE COMPONENT...
for file in "$apt_dir"/sources.list "$apt_dir"/sources.list.d/*.list; do
  [ -f "$file" ] || continue
  found="$(awk '
    $1 != "deb" { next }
    { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ } }
    $(i + 1) !~ /-security$/ { print $i; exit }
  ' "$file")"
  if [ -n "$found" ]; then
    echo "${found%/}"
    exit 0
  fi
done
echo "apt-mirror: no Debian archive in $apt_dir's sources; set DEBIAN_MIRROR" >&2
exit 1
