#!/usr/bin/env bash
# Benchmark smoke test: builds the Benchmarks package (release, then debug) and runs its short CI mode, which
# compares Understudy with a trivial URLProtocol floor in the same process and exits non-zero only
# when a ratio is far past its bar (ratios, never absolute times; limits in
# Benchmarks/Sources/understudy-bench/Bar.swift). See Documentation/Performance.md (its history: Benchmarks/NOTES.md).
# Extra arguments go to the benchmark, e.g. `.ci/bench.sh --json bench.json`.
# `.ci/bench.sh --only server` runs the loopback server's benchmark instead (understudy-server-bench,
# the full run: it needs SwiftNIO, which takes minutes to build, so CI's default run leaves it out).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--only" && "${2:-}" == "server" ]]; then
  swift build -c release --package-path Benchmarks/Server
  exec Benchmarks/Server/.build/release/understudy-server-bench "${@:3}"
fi
# `--timed` runs the rows judged by CPU time and `--counted` those judged by instruction counts
# (callgrind), which no other load changes: CI runs them beside its tests. Both by default.
# `--counted-release` and `--counted-debug` count one build's rows: CI's two lanes take them apart.
part=both
case "${1:-}" in
  --timed | --counted | --counted-release | --counted-debug) part="${1#--}"; shift ;;
esac
if [[ "$part" == both || "$part" == timed ]]; then
  swift build -c release --package-path Benchmarks
  Benchmarks/.build/release/understudy-bench --ci "$@"
  # The debug build, which swift test compiles and users run (issue 41): the same floor in the
  # same run, the debug bars (Bar.swift picks them with #if DEBUG). The rows that matter there,
  # not the whole run: about a minute, plus the debug build of Understudy (a minute of CPU).
  swift build -c debug --package-path Benchmarks
  Benchmarks/.build/debug/understudy-bench --ci --only "one exact stub" --only "one responder" \
    --only "10,000 exact stubs" --only "mixed predicates" --only "test scopes" --only replay \
    --only reports
fi
# Instruction counts (valgrind's callgrind) judge the tight bars that wall-clock ratios on a
# shared machine cannot: see Benchmarks/Tools/instruction-ratios.py.
if [[ "$part" == both || "$part" == counted || "$part" == counted-release ]]; then
  swift build -c release --package-path Benchmarks
  python3 Benchmarks/Tools/instruction-ratios.py Benchmarks/.build/release/understudy-bench
fi
if [[ "$part" == both || "$part" == counted || "$part" == counted-debug ]]; then
  swift build -c debug --package-path Benchmarks
  # Only the debug rows it gates (DEBUG_GATED, BYTE_ROWS): the CPU-ratio run above gates the
  # others in the debug build, and counting them under callgrind took minutes of CI's 25. `--only`
  # a row to count it. The finish() rows are gated here alone: their CPU time moves too much
  # between hours.
  python3 Benchmarks/Tools/instruction-ratios.py Benchmarks/.build/debug/understudy-bench --debug \
    --only "exact stub" --only "mixed predicates" --only ".stubs trait" --only "scopes, withStubs" \
    --only "finish()" --only "2,000 secrets"
fi
