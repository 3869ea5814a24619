#!/usr/bin/env bash
# Builds and runs the loopback server guide's examples (Documentation/LoopbackServer.md, kept
# in Tests/UnderstudyServerTests/LoopbackServerExamples.swift) in a package of their own that
# depends on this one with the `Server` trait, as a user's package would: no helper of our test
# targets and no `package` declaration is visible there, so an example that needs one fails here.
# (.ci/check-examples.py proves each block of the guide is in that file, line for line.)
#
#   bash .ci/server-examples.sh
#
# Its own scratch folder (.build-server-examples, git-ignored): SwiftNIO is built once more, in one
# of the two lanes beside .ci/run's tests (.ci/load-lanes.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$(date +%s)
# SwiftPM names a path dependency after its folder, lower-cased.
identity=$(basename "$root" | tr '[:upper:]' '[:lower:]')
mkdir -p "$work/Tests/GuideExamples"
# The file is compiled only with the trait in our package; a user's file has no such condition.
sed -e '1{/^#if Server$/d}' -e '${/^#endif$/d}' Tests/UnderstudyServerTests/LoopbackServerExamples.swift \
  > "$work/Tests/GuideExamples/LoopbackServerExamples.swift"
cat > "$work/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "GuideExamples",
  dependencies: [.package(path: "$root", traits: ["Server"])],
  targets: [
    .testTarget(
      name: "GuideExamples",
      dependencies: [
        .product(name: "Understudy", package: "$identity"),
        .product(name: "UnderstudyServer", package: "$identity"),
      ])
  ]
)
MANIFEST
swift test --package-path "$work" --scratch-path "$root/.build-server-examples" 2>&1 | tail -5
echo "server guide examples in a package of their own: $(( $(date +%s) - started )) s"
