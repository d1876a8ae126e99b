#!/usr/bin/env bash
# Builds Herald's self-contained release: `herald` in release with the Swift standard library and
# Foundation linked statically, packed as herald-<version>-linux-<arch>.tar.gz with the README,
# the LICENSE, an example configuration file and the systemd unit. The binary needs no Swift
# toolchain (Scripts/release-check.sh proves it in a bare Debian root).
#
#   Scripts/release.sh [output folder]     # default: ./dist; build products in .build-release
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-dist}
SCRATCH=${HERALD_RELEASE_SCRATCH:-.build-release}
VERSION=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/HeraldServer/Application/HeraldVersion.swift)
COMMIT=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if ! git diff --quiet 2>/dev/null; then COMMIT="$COMMIT-modified"; fi
ARCH=$(uname -m)
NAME=herald-$VERSION-linux-$ARCH

# The commit goes into the binary for this build only; the file is put back afterwards.
BUILD_COMMIT=Sources/HeraldServer/Application/BuildCommit.swift
cp "$BUILD_COMMIT" "$BUILD_COMMIT.orig"
trap 'mv "$BUILD_COMMIT.orig" "$BUILD_COMMIT"' EXIT
sed -i "s/static let value: String? = nil/static let value: String? = \"$COMMIT\"/" "$BUILD_COMMIT"

echo "building herald $VERSION ($COMMIT) for linux-$ARCH in release (about 20 minutes on 2 cores)…"
swift build -c release --product herald --static-swift-stdlib --scratch-path "$SCRATCH"
BIN="$SCRATCH/release/herald"

STAGE=$(mktemp -d)
mkdir -p "$STAGE/$NAME"
cp "$BIN" "$STAGE/$NAME/herald"
strip "$STAGE/$NAME/herald" 2>/dev/null || true
cp README.md LICENSE CHANGELOG.md "$STAGE/$NAME/"
cp deploy/herald.example.yaml deploy/systemd/herald.service "$STAGE/$NAME/"
mkdir -p "$OUT"
tar -C "$STAGE" -czf "$OUT/$NAME.tar.gz" "$NAME"
rm -rf "$STAGE"
echo "$OUT/$NAME.tar.gz"
"$BIN" --version
ldd "$BIN" | sed 's/^/  needs: /' || true
