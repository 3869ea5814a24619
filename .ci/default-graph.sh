#!/usr/bin/env bash
# The default package graph (no trait enabled) has no dependency at all: SwiftNIO comes in only
# with the `Server` trait. Checked two ways: the resolved graph lists no package, and resolving
# into an empty scratch folder fetches nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

graph=$(swift package show-dependencies --format json)
count=$(printf '%s' "$graph" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["dependencies"]))')
if [ "$count" != "0" ]; then
  printf '%s\n' "$graph" >&2
  echo "FAIL: the default graph has $count dependencies; Package.swift must keep every dependency behind a trait" >&2
  exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
swift package --scratch-path "$scratch" resolve >/dev/null
fetched=$(find "$scratch" -mindepth 2 -maxdepth 2 -path '*/checkouts/*' 2>/dev/null | wc -l)
if [ "$fetched" != "0" ]; then
  ls "$scratch/checkouts" >&2
  echo "FAIL: resolving the default graph fetched $fetched package(s)" >&2
  exit 1
fi
echo "default graph: 0 dependencies, 0 packages fetched"
