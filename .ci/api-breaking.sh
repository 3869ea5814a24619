#!/usr/bin/env bash
# Says which changes to the public API break a user's code (issue 43): swift package
# diagnose-api-breaking-changes compares the Understudy module the build declares with the
# surface settled at .ci/api-baseline/Understudy.json (the API digester's dump). Every change to
# the surface shows up in review through .ci/public-api.txt; this step fails on the breaking ones.
#
#   bash .ci/api-breaking.sh              # exits 1 and prints each break
#   bash .ci/api-breaking.sh --settle     # rewrites the baseline from this tree (a deliberate
#                                         # break: say why in the commit)
#
# The baseline is a file, not a commit, so the check needs no history (a shallow clone, a
# rebased branch): the tool looks for a baseline of the revision it is given in --baseline-dir,
# and finds the checked-in one under this tree's own revision, so it builds no second tree. A
# single break may be accepted instead by adding the line the tool prints, from "API breakage:"
# on, to .ci/api-breakage-allowlist.txt: one a line, nothing else in the file (the tool reads
# no comments).
set -euo pipefail
cd "$(dirname "$0")/.."

baseline=.ci/api-baseline/Understudy.json
allowlist=.ci/api-breakage-allowlist.txt
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
revision=$(git rev-parse HEAD)

if [[ "${1:-}" == "--settle" ]]; then
  swift package diagnose-api-breaking-changes HEAD --products Understudy \
    --baseline-dir "$scratch" --regenerate-baseline >"$scratch/log.txt" 2>&1 \
    || { cat "$scratch/log.txt"; exit 1; }
  mkdir -p "$(dirname "$baseline")"
  cp "$scratch/$revision/Understudy.json" "$baseline"
  echo "api-breaking: $baseline written from $revision"
  exit 0
fi

mkdir -p "$scratch/$revision"
cp "$baseline" "$scratch/$revision/Understudy.json"
allowing=()
if [ -s "$allowlist" ]; then allowing=(--breakage-allowlist-path "$allowlist"); fi
if swift package diagnose-api-breaking-changes HEAD --products Understudy \
  --baseline-dir "$scratch" "${allowing[@]}" >"$scratch/log.txt" 2>&1; then
  grep -E "breaking changes|API breakage" "$scratch/log.txt" || tail -n 3 "$scratch/log.txt"
else
  grep -vE "^\[[0-9]+/[0-9]+\]|^Building|^Compiling" "$scratch/log.txt" >&2
  echo "FAIL: the public API breaks code written against $baseline. Restore what it names, or" \
    "add its line to $allowlist, or settle a new baseline (bash .ci/api-breaking.sh --settle)" \
    "and say why in the commit." >&2
  exit 1
fi
