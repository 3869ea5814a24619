#!/usr/bin/env bash
# Builds the libFuzzer targets in Tests/Fuzz/ and runs them, failing on any crash, broken invariant,
# timeout or out-of-memory.
#
#   bash .ci/fuzz.sh ci     # CI's pass: a fixed number of runs from a fixed seed, from the seeds
#                           # alone in a sorted list, so one commit gets the same verdict everywhere
#   bash .ci/fuzz.sh 600    # a search: 600 s per target, a new random seed each time, resuming
#                           # from the inputs earlier searches found
#   bash .ci/fuzz.sh build  # only the build (.ci/run starts it early, while the server builds)
#
# CI does not search. A time-boxed pass explores a different path on every run, so a gate built
# on it failed at random on bugs older than the change under test; the search is a job of its
# own (`bash .ci/fuzz.sh 600`), and what it finds becomes a seed once fixed.
#
# Seeds come from Fixtures/Fuzz/<target>/ and are never modified; the inputs a search finds
# accumulate in Tests/Fuzz/.build/corpus/<target>/, so later searches start where earlier ones stopped.
# A failing input is saved as Tests/Fuzz/.build/artifacts/<target>/crash-… (or timeout-…, oom-…);
# replay it with `Tests/Fuzz/.build/release/<Target> <file>` (`debug` after CI's pass), then copy it
# into the seed folder once the fix is in, so CI's pass guards against it from then on.
#
# FUZZ_JOBS=2 runs the two targets side by side; the default runs them one after the other,
# at lower priority, because the machine is shared.
set -euo pipefail

mode="${1:-ci}"
case "$mode" in
  ci | build) ;;
  '' | *[!0-9]*)
    echo "usage: bash .ci/fuzz.sh [ci | build | SECONDS]" >&2
    exit 2
    ;;
esac
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fuzz="$root/Tests/Fuzz"
# CI's pass, and the build .ci/run starts for it, use a debug build: it compiles in less than half
# the CPU time of a release build (34 s against 77 s on an idle 2-core machine), which CI's time
# budget needs more than its pass needs the release build's speed (29 s against 13 s). A search
# uses the release build, which tries twice as many inputs a second.
case "$mode" in
  ci | build) configuration=debug ;;
  *) configuration=release ;;
esac
build=(swift build --package-path "$fuzz" -c "$configuration" --sanitize=fuzzer
  -Xswiftc -parse-as-library)

# libFuzzer supplies main(), so the targets are built as libraries with no entry point of their
# own; `--product` keeps SwiftPM from building the root package's command-line tool this way.
for product in FuzzCassette FuzzPatterns; do
  "${build[@]}" --product "$product"
done
bin="$("${build[@]}" --show-bin-path)"
[ "$mode" = "build" ] && exit 0

run() {
  local target="$1" dict="$2" maxlen="$3" ci_runs="$4"
  shift 4
  # The remaining arguments are seed folders, read recursively and never written to.
  local corpus="$fuzz/.build/corpus/$target" artifacts="$fuzz/.build/artifacts/$target"
  local log="$fuzz/.build/$target.log" limits=(-max_total_time="$mode") seeds=("$@")
  if [ "$mode" = "ci" ]; then
    # A corpus and log of its own, the corpus emptied first: inputs an earlier search left
    # would change the path.
    corpus="$fuzz/.build/ci-corpus/$target"
    log="$fuzz/.build/ci-$target.log"
    rm -rf "$corpus"
    # The seeds as one sorted list, not as folders: libFuzzer takes a folder's files in the
    # order the file system lists them, which differs between machines, and that order steers
    # the whole pass (the same commit covered 5,500 edges from one order and 5,475 from another).
    local list="$fuzz/.build/ci-seeds-$target.txt"
    find "$@" -type f | LC_ALL=C sort | paste -s -d, - >"$list"
    # -use_cmp=0: libFuzzer mutates inputs towards the operands of the comparisons it traced,
    # and some of those are addresses, which move with the checkout's path and the environment;
    # with it on, the same commit's pass failed at run 25,225 from /check/work/main and passed
    # from /tmp/check.
    limits=(-seed=1 -runs="$ci_runs" -reload=0 -use_cmp=0 -seed_inputs=@"$list")
    seeds=()
  fi
  mkdir -p "$corpus" "$artifacts"
  # The Swift runtime's backtracer would take the crash signal before libFuzzer can save the
  # input that caused it.
  local status=0
  SWIFT_BACKTRACE=enable=no SWIFT_DETERMINISTIC_HASHING=1 nice -n 10 setarch -R "$bin/$target" \
    "${limits[@]}" -timeout=10 -rss_limit_mb=2048 -max_len="$maxlen" \
    -dict="$dict" -artifact_prefix="$artifacts/" -print_final_stats=1 \
    "$corpus" "${seeds[@]}" >"$log" 2>&1 || status=$?
  # -a: the log quotes inputs, which can be any bytes, and grep would then print only
  # "binary file matches" in place of the summary or the failure.
  grep -a -E '^(#[0-9]+[[:space:]]+DONE|Done|stat::)' "$log" | sed "s/^/$target: /"
  if [ "$status" -ne 0 ]; then
    echo "$target failed (exit $status); the end of $log:" >&2
    grep -a -v '^#[0-9]' "$log" | tail -n 40 >&2
  fi
  return "$status"
}

cassette() {
  run FuzzCassette "$fuzz/Dictionaries/cassette.dict" 16384 60000 \
    "$root/Fixtures/Fuzz/cassette" "$root/Fixtures/HAR" "$root/Fixtures/BadInput/cassettes"
}
patterns() {
  run FuzzPatterns "$fuzz/Dictionaries/patterns.dict" 4096 2500 "$root/Fixtures/Fuzz/patterns"
}

status=0
if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then
  cassette &
  cassette_job=$!
  patterns || status=1
  wait "$cassette_job" || status=1
else
  cassette || status=1
  patterns || status=1
fi
exit "$status"
