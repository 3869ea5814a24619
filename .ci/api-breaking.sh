#!/usr/bin/env bash
# Compares the public API of the Understudy product with a baseline commit, with
# `swift package diagnose-api-breaking-changes`, and fails on a breaking change not listed as
# intended.
#
#   bash .ci/api-breaking.sh
#
# .ci/api-baseline holds the baseline: a commit of main. .ci/api-breakage-allowlist.txt lists the
# breaking changes made on purpose since then, one a line, exactly as the tool prints them
# ("API breakage: func StubRegistry.verifyNeverCalled(_:fileID:filePath:line:column:) has been
# removed"). To break the API on purpose, add the lines the failure prints to the allowlist in
# the same commit. Once that commit is on main, the baseline may move up to it: write its hash
# in .ci/api-baseline and empty the allowlist (a commit cannot name its own hash, so moving the
# baseline is a commit of its own).
#
# The tool reports removed declarations and changed signatures, but not a `public` declaration
# made `package`: of the more than 130 the issue-43 round made package it reported none. So
# .ci/public-api.txt (.ci/api-surface.sh) stays the list every change to the public surface shows
# in; this check says which changes break callers.
#
# It builds the baseline's Understudy module in a temporary checkout (about 1.5 minutes on two
# busy cores once the current package is built; 3.5 minutes cold) and needs the baseline commit
# in the clone's history.
set -euo pipefail
cd "$(dirname "$0")/.."

baseline=$(grep -v '^#' .ci/api-baseline | tr -d '[:space:]')
if ! git cat-file -e "$baseline^{commit}" 2>/dev/null; then
  echo "FAIL: the API baseline $baseline (.ci/api-baseline) is not in this clone's history;" \
    "fetch it, or move the baseline to a commit of main (see .ci/api-breaking.sh)" >&2
  exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swift package diagnose-api-breaking-changes "$baseline" --products Understudy \
  --breakage-allowlist-path .ci/api-breakage-allowlist.txt >"$log" 2>&1; then
  grep -vE '^\[[0-9]+/[0-9]+\]' "$log" >&2
  echo "FAIL: a breaking change to the public API against $baseline; if it is intended, add the" \
    "lines above to .ci/api-breakage-allowlist.txt (see .ci/api-breaking.sh)" >&2
  exit 1
fi
echo "api-breaking: $(grep -E 'breaking changes? detected' "$log" | tail -n 1 | sed 's/^ *//')" \
  "against ${baseline:0:7}"
