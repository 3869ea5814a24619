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
  cp .ci/public-api.txt "$(dirname "$baseline")/public-api.txt"
  echo "api-breaking: $baseline written from $revision"
  exit 0
fi

mkdir -p "$scratch/$revision"
cp "$baseline" "$scratch/$revision/Understudy.json"
allowing=()
if [ -s "$allowlist" ]; then allowing=(--breakage-allowlist-path "$allowlist"); fi
status=0
swift package diagnose-api-breaking-changes HEAD --products Understudy \
  --baseline-dir "$scratch" "${allowing[@]}" >"$scratch/log.txt" 2>&1 || status=$?
# The digester also lists `package` declarations (the CLI's and the server's), which no user
# can name: a break counts when its type (or a top-level function) is public in the settled
# surface or in this build's (.ci/api-baseline/public-api.txt, .ci/public-api.txt).
breaks=$(python3 - "$scratch/log.txt" .ci/api-baseline/public-api.txt .ci/public-api.txt <<'PY'
import re, sys
public = set()
for path in sys.argv[2:]:
    for line in open(path, encoding="utf-8"):
        if "\t" in line:
            public.add(line.split("\t", 1)[0].split(".", 1)[0].split("(", 1)[0])
for line in open(sys.argv[1], encoding="utf-8"):
    found = re.search(r"API breakage: \S+ (\S+)", line)
    if found and found.group(1).split(".", 1)[0].split("(", 1)[0] in public:
        print(line.strip())
PY
)
if [ -n "$breaks" ]; then
  echo "$breaks" >&2
  echo "FAIL: the public API breaks code written against $baseline. Restore what it names, or" \
    "add its line to $allowlist, or settle a new baseline (bash .ci/api-breaking.sh --settle)" \
    "and say why in the commit." >&2
  exit 1
elif [ "$status" != 0 ] && ! grep -q "API breakage" "$scratch/log.txt"; then
  cat "$scratch/log.txt" >&2
  echo "FAIL: swift package diagnose-api-breaking-changes did not run" >&2
  exit 1
fi
echo "api-breaking: no public declaration of $baseline removed or changed" \
  "($(grep -c "API breakage" "$scratch/log.txt" || true) change(s) to package declarations)"
