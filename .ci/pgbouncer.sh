#!/usr/bin/env bash
# Prints the path of a PgBouncer of at least 1.21 (prepared statements in transaction mode, ADR 0052):
# the one on PATH if new enough, else one built earlier into ~/.cache/broker-assistant/pgbouncer/<version>/
# (outside the clone: CI's fresh clone on the same machine finds it), else it builds one there from Debian
# trixie's source package. Debian bookworm's own pgbouncer is 1.18.
# Everything but the path goes to stderr, so `PGBOUNCER_BIN=$(.ci/pgbouncer.sh)` works.
set -euo pipefail
cd "$(dirname "$0")/.."
MIN_MINOR=21
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/broker-assistant/pgbouncer"

new_enough() {
  local version
  version=$("$1" --version 2>/dev/null | sed -n 's/^PgBouncer \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | head -1)
  [ -n "$version" ] || return 1
  set -- $version
  [ "$1" -gt 1 ] || { [ "$1" -eq 1 ] && [ "$2" -ge "$MIN_MINOR" ]; }
}

if command -v pgbouncer >/dev/null && new_enough "$(command -v pgbouncer)"; then
  command -v pgbouncer
  exit 0
fi
for built in $(ls -d "$CACHE"/*/bin/pgbouncer 2>/dev/null | sort -rV); do
  if new_enough "$built"; then
    echo "$built"
    exit 0
  fi
done

echo "--- building PgBouncer from Debian trixie's source package (bookworm's is too old)" >&2
missing=()
for package in libevent-dev libssl-dev libc-ares-dev pkg-config build-essential; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
# apt drops root to _apt for downloads: let it write there (else it warns and downloads as root).
chmod 755 "$work"
chown -R _apt "$work/lists/partial" "$work/cache/archives/partial" "$work/src" 2>/dev/null || true
# A private sources file, lists and cache: the machine's own apt sources stay as they are.
printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
  >"$work/trixie.sources"
apt_private=(-o "Dir::Etc::SourceList=$work/trixie.sources" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache")
apt-get "${apt_private[@]}" update -qq >&2
(cd "$work/src" && apt-get "${apt_private[@]}" source --download-only -qq pgbouncer >&2)
orig=$(ls "$work"/src/pgbouncer_*.orig.tar.gz | head -1)
version=$(basename "$orig" | sed 's/^pgbouncer_\(.*\)\.orig\.tar\.gz$/\1/')
tar -xzf "$orig" -C "$work/src"
prefix="$CACHE/$version"
(
  cd "$work/src/pgbouncer-$version"
  ./configure --prefix="$prefix" --without-systemd >&2
  make -j"$(nproc)" >&2
  make install >&2
)
new_enough "$prefix/bin/pgbouncer" || { echo "built $prefix/bin/pgbouncer but it is not 1.$MIN_MINOR or later" >&2; exit 1; }
echo "$prefix/bin/pgbouncer"
