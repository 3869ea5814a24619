#!/usr/bin/env bash
# The load beside .ci/run's test step (issue 41: the README's swift test must pass on a busy
# machine). Two lanes, each pinned to one core while the tests run, take CI jobs whose verdict no
# load changes from one queue, then spin until the tests are done, so the suite has about half
# the CPU from its first test to its last and the load is work CI needs anyway.
#
#   bash .ci/load-lanes.sh LANE DONE_FILE   # LANE 0 or 1; each job's output in .lane-<job>.txt
#
# The queue is in order of length, longest first, and a lane takes the next job no lane has taken
# (mkdir is atomic), so the two lanes end within a job of each other. When each lane had a fixed
# list (the thread sanitizer's build first, beside the tests, then the lanes), one lane ended five
# minutes before the other and the lanes started only when the tests ended. After the tests,
# .ci/run unpins both lanes and waits for them; a job's exit status is the last line of its file
# (`exit N`), which .ci/run checks.
set -uo pipefail
cd "$(dirname "$0")/.."
lane="$1" done_file="$2"
claims=.lane-claims

corpus() {
  # swift test runs a sample of it; the whole cross (GeneratedSecretCorpusTests lists the names,
  # spellings and placements) takes about 130 s of both cores of the debug build alone. The test
  # binary swift test built, so no second SwiftPM waits on the build folder's lock.
  UNDERSTUDY_FULL_CORPUS=1 timeout --kill-after=10 1200 \
    .build/debug/UnderstudyPackageTests.xctest --testing-library swift-testing \
    --filter GeneratedSecretCorpusTests
}

tsan_build() {
  # Its own scratch folder; a hang guard only, since a lane may get half a core for a while.
  # One compiler at a time: a lane is one busy process beside the tests, as a busy loop was
  # (with two on the lane's core the suite got a third of it, and took 571 s, not 420).
  timeout --kill-after=10 2400 \
    swift build -j 1 --build-tests --sanitize=thread --scratch-path .build-tsan
}

# Name, then command. Lengths on a CI machine, one core each: the thread sanitizer's build and
# the debug instruction counts (with the benchmark's debug build) about 6 minutes each, the
# release counts and the whole corpus about 3, the server guide's examples (SwiftNIO built once
# more) 3, Getting Started in a new package 2, the documentation and the fuzz pass about 1.
queue=(
  "tsan-build tsan_build"
  "counted-debug bash .ci/bench.sh --counted-debug"
  "counted-release bash .ci/bench.sh --counted-release"
  "corpus corpus"
  "server-examples bash .ci/server-examples.sh"
  "fresh-package python3 .ci/fresh-package.py"
  "docs bash .ci/docs.sh"
  "fuzz env FUZZ_JOBS=2 bash .ci/fuzz.sh ci"
)

case "$lane" in
  0 | 1) ;;
  *)
    echo "usage: bash .ci/load-lanes.sh 0|1 DONE_FILE" >&2
    exit 2
    ;;
esac
mkdir -p "$claims"
for entry in "${queue[@]}"; do
  read -r name command <<<"$entry"
  mkdir "$claims/$name" 2>/dev/null || continue
  status=0
  # shellcheck disable=SC2086  # the command is words, split as written above
  $command >".lane-$name.txt" 2>&1 </dev/null || status=$?
  echo "exit $status" >>".lane-$name.txt"
  echo "lane $lane: $name, exit $status" >>".lane-$lane.log"
done
# Spin until the tests are done: a loop of no-ops, with a look at the file between runs of it.
while [ ! -e "$done_file" ]; do
  i=0
  while [ "$i" -lt 100000 ]; do i=$((i + 1)); done
done
