#!/usr/bin/env bash
# Benchmark smoke test: builds the Benchmarks package (release) and runs its short CI mode, which
# compares Understudy with a trivial URLProtocol floor in the same process and exits non-zero only
# when a ratio is far past its bar (ratios, never absolute times; limits in
# Benchmarks/Sources/understudy-bench/Bar.swift). See Documentation/Performance.md.
# Extra arguments go to the benchmark, e.g. `.ci/bench.sh --json bench.json`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --package-path Benchmarks
Benchmarks/.build/release/understudy-bench --ci "$@"
