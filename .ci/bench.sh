#!/usr/bin/env bash
# Benchmark smoke test: builds the Benchmarks package (release) and runs its short CI mode, which
# compares Understudy with a trivial URLProtocol floor in the same process and exits non-zero only
# when a ratio is far past its bar (ratios, never absolute times; limits in
# Benchmarks/Sources/understudy-bench/Bar.swift). See Documentation/Performance.md.
# Extra arguments go to the benchmark, e.g. `.ci/bench.sh --json bench.json`.
# `.ci/bench.sh --only server` runs the loopback server's benchmark instead (understudy-server-bench,
# the full run: it needs SwiftNIO, which takes minutes to build, so CI's default run leaves it out).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--only" && "${2:-}" == "server" ]]; then
  swift build -c release --package-path Benchmarks/Server
  exec Benchmarks/Server/.build/release/understudy-server-bench "${@:3}"
fi
swift build -c release --package-path Benchmarks
Benchmarks/.build/release/understudy-bench --ci "$@"
# Instruction counts (valgrind's callgrind) judge the tight bars that wall-clock ratios on a
# shared machine cannot: see Benchmarks/Tools/instruction-ratios.py.
python3 Benchmarks/Tools/instruction-ratios.py Benchmarks/.build/release/understudy-bench
