#!/usr/bin/env bash
# The load beside .ci/run's test step (issue 41: the README's swift test must pass on a busy
# machine). Each lane is pinned to one core and runs CI work whose verdict no load changes, then
# spins until the tests are done, so the suite has about half the CPU from its first test to its
# last and the CPU that two busy loops burned does work CI needs anyway.
#
#   bash .ci/load-lanes.sh LANE DONE_FILE   # LANE 0 or 1; each job's output in .lane-<job>.txt
#
# Lane 0: the whole generated secret corpus (the test binary swift test built, so no second
# SwiftPM holds the build folder's lock), then the loopback server guide's examples in a package
# of their own, then Getting Started, word for word, in a new package (a build of the library of
# its own, and a stub test). Lane 1: the benchmark's instruction counts (callgrind counts
# instructions, not time, on one thread: about 9 minutes of one core, as long as lane 0's three
# jobs), after the debug build of the benchmark that its CPU-ratio run needs too.
# A job's exit status is the last line of its file (`exit N`); .ci/run checks them after the tests.
set -uo pipefail
cd "$(dirname "$0")/.."
lane="$1" done_file="$2"

job() {
  local name="$1"
  shift
  local status=0
  "$@" >".lane-$name.txt" 2>&1 || status=$?
  echo "exit $status" >>".lane-$name.txt"
}

corpus() {
  # swift test runs a sample of it; the whole cross (GeneratedSecretCorpusTests lists the names,
  # spellings and placements) takes about 130 s of both cores of the debug build alone.
  UNDERSTUDY_FULL_CORPUS=1 timeout --kill-after=10 1200 \
    .build/debug/UnderstudyPackageTests.xctest --testing-library swift-testing \
    --filter GeneratedSecretCorpusTests
}

case "$lane" in
  0)
    job corpus corpus
    job server-examples bash .ci/server-examples.sh
    job fresh-package python3 .ci/fresh-package.py
    ;;
  1)
    job counted bash .ci/bench.sh --counted
    ;;
  *)
    echo "usage: bash .ci/load-lanes.sh 0|1 DONE_FILE" >&2
    exit 2
    ;;
esac
# Spin until the tests are done: a loop of no-ops, with a look at the file between runs of it.
while [ ! -e "$done_file" ]; do
  i=0
  while [ "$i" -lt 100000 ]; do i=$((i + 1)); done
done
