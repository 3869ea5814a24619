#!/usr/bin/env bash
# Lists every public declaration of the Understudy module, one a line, sorted, from its symbol
# graph, into .ci/public-api.txt; so every change to the public surface shows up in review.
#
#   bash .ci/api-surface.sh           # rewrites .ci/public-api.txt
#   bash .ci/api-surface.sh --check   # exits 1 and prints the difference if the file is stale
#
# A line is the declaration's path, a tab, and the declaration as the compiler prints it (with
# the `where` clause of a constrained extension). Members the compiler synthesises (`!=`,
# `hash(into:)` of an enum) and extension blocks are left out: they are not written in the
# source. `package` declarations, which the CLI and the server targets share, are not public and
# are not listed. The last line counts the declarations. The list is the Linux build's (what
# .ci/run checks); a declaration behind `#if` for another platform would not be in it.
#
# It builds the Understudy target (the default build, so it reuses .build/debug) and reads its
# module with swift symbolgraph-extract; no plugin, no other scratch folder.
set -euo pipefail
cd "$(dirname "$0")/.."

list=.ci/public-api.txt
graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT

swift build --target Understudy >"$graphs/build.log" 2>&1 || { cat "$graphs/build.log"; exit 1; }
bin=$(swift build --show-bin-path)
triple=$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')
sdk=()
if command -v xcrun >/dev/null; then sdk=(-sdk "$(xcrun --show-sdk-path)"); fi
swift symbolgraph-extract -module-name Understudy -I "$bin/Modules" -I "$bin" -target "$triple" "${sdk[@]}" \
  -minimum-access-level public -emit-extension-block-symbols -skip-inherited-docs \
  -output-dir "$graphs" >"$graphs/extract.log" 2>&1 || { cat "$graphs/extract.log"; exit 1; }

python3 - "$graphs" >"$graphs/public-api.txt" <<'PY'
import glob, json, sys

lines = set()
for path in glob.glob(f"{sys.argv[1]}/Understudy*.symbols.json"):
    for symbol in json.load(open(path, encoding="utf-8"))["symbols"]:
        if symbol["kind"]["identifier"] == "swift.extension":
            continue
        if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
            continue
        declaration = "".join(f["spelling"] for f in symbol["declarationFragments"])
        declaration = " ".join(declaration.split())
        constraints = symbol.get("swiftExtension", {}).get("constraints", [])
        if constraints:
            where = ", ".join(
                f'{c["lhs"]} {":" if c["kind"] == "conformance" else "=="} {c["rhs"]}'
                for c in constraints)
            declaration += f" where {where}"
        lines.add(".".join(symbol["pathComponents"]) + "\t" + declaration)
for line in sorted(lines):
    print(line)
print(f"# {len(lines)} public declarations")
PY

if [ "${1:-}" = "--check" ]; then
  if ! diff -u "$list" "$graphs/public-api.txt"; then
    echo "FAIL: the public API changed; if that is intended, run: bash .ci/api-surface.sh" >&2
    exit 1
  fi
  echo "api-surface: $(tail -n 1 "$list" | sed 's/^# //')"
else
  cp "$graphs/public-api.txt" "$list"
  echo "api-surface: wrote $list ($(tail -n 1 "$list" | sed 's/^# //'))"
fi
