#!/usr/bin/env bash
# The default package graph (no trait enabled) has no dependency at all: SwiftNIO comes in only
# with the `Server` trait. Checked two ways: this package's graph lists no package, and a new
# package that depends on this one (as users do, without the trait) fetches nothing when it
# resolves. The second check runs in a temporary folder: this package's own Package.resolved
# (written by a build with the trait) pins SwiftNIO here, but a dependent never reads it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

graph=$(swift package show-dependencies --format json)
count=$(printf '%s' "$graph" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["dependencies"]))')
if [ "$count" != "0" ]; then
  printf '%s\n' "$graph" >&2
  echo "FAIL: the default graph has $count dependencies; Package.swift must keep every dependency behind a trait" >&2
  exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
ln -s "$root" "$scratch/Understudy"
mkdir -p "$scratch/Consumer/Sources/Consumer"
echo "import Understudy" >"$scratch/Consumer/Sources/Consumer/Consumer.swift"
cat >"$scratch/Consumer/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Consumer",
  dependencies: [.package(path: "../Understudy")],
  targets: [
    .target(name: "Consumer", dependencies: [.product(name: "Understudy", package: "Understudy")])
  ]
)
MANIFEST
(cd "$scratch/Consumer" && swift package resolve >/dev/null)
fetched=$(find "$scratch/Consumer/.build/checkouts" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
if [ "$fetched" != "0" ]; then
  ls "$scratch/Consumer/.build/checkouts" >&2
  echo "FAIL: a package depending on Understudy without the Server trait fetched $fetched package(s)" >&2
  exit 1
fi
echo "default graph: 0 dependencies; a dependent without the trait fetched 0 packages"
