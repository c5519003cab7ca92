#!/usr/bin/env sh
# Installs the C library under PREFIX: include/extrack.h, lib/libextrack.so,
# lib/libextrack.a and lib/pkgconfig/extrack.pc (rendered from
# tools/extrack.pc.in). Run after `cargo build --release`.
#
# usage: tools/install-capi.sh PREFIX
set -eu
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$1
root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}/release
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
for f in libextrack.so libextrack.a; do
    [ -f "$target/$f" ] || { echo "$target/$f missing: run cargo build --release first" >&2; exit 1; }
done
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
cp "$root/include/extrack.h" "$prefix/include/"
cp "$target/libextrack.so" "$target/libextrack.a" "$prefix/lib/"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" "$root/tools/extrack.pc.in" >"$prefix/lib/pkgconfig/extrack.pc"
echo "installed extrack $version under $prefix"
