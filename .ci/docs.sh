#!/usr/bin/env bash
# Builds the DocC documentation of the Understudy module with warnings treated as errors, and
# checks that the landing page curates every public top-level symbol.
#
#   bash .ci/docs.sh            # writes .build/docs (a DocC archive)
#
# Dumping symbol graphs builds with every trait, whatever --traits says (SwiftPM 6.3.1), so it
# uses the scratch folder .ci/server.sh builds with every trait (.build-server) instead of
# building SwiftNIO and AsyncHTTPClient a second time in .build; no release build, no plugin.
set -euo pipefail
cd "$(dirname "$0")/.."

catalog=Sources/Understudy/Understudy.docc
graphs=.build/symbol-graphs
output=.build/docs

# 1. Symbol graphs: the module's own, plus its extensions to Swift, Testing and XCTest
#    (extension blocks keep `Trait.stubs` and `XCTestCase.withStubs` in the documentation).
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! UNDERSTUDY_SERVER_TESTS_ONLY=1 swift package --scratch-path .build-server dump-symbol-graph --skip-inherited-docs --emit-extension-block-symbols \
  >"$log" 2>&1; then
  cat "$log"
  exit 1
fi
written=$(sed -n 's/^Files written to //p' "$log" | tail -n 1)
if [ -z "$written" ] || [ ! -f "$written/Understudy.symbols.json" ]; then
  cat "$log"
  echo "docs.sh: no Understudy symbol graph was written" >&2
  exit 1
fi
rm -rf "$graphs"
mkdir -p "$graphs"
cp "$written"/Understudy.symbols.json "$graphs"/
cp "$written"/Understudy@*.symbols.json "$graphs"/ 2>/dev/null || true

# 2. Every public top-level symbol is curated on the landing page.
python3 - "$graphs/Understudy.symbols.json" "$catalog/Understudy.md" <<'PY'
import json, re, sys
graph, landing = sys.argv[1], sys.argv[2]
symbols = json.load(open(graph, encoding="utf-8"))["symbols"]
top = sorted({s["pathComponents"][0] for s in symbols if len(s["pathComponents"]) == 1})
text = open(landing, encoding="utf-8").read()
missing = [name for name in top if not re.search(r"``%s``" % re.escape(name), text)]
for name in missing:
    print(f"error: {landing}: public symbol {name} is not curated in a Topics group")
print(f"docs.sh: {len(top)} public top-level symbols, {len(missing)} not curated")
sys.exit(1 if missing else 0)
PY

# 3. The catalog, with warnings as errors.
if command -v docc >/dev/null 2>&1; then
  docc=(docc)
elif command -v xcrun >/dev/null 2>&1; then
  docc=(xcrun docc)
else
  echo "docs.sh: docc not found; it ships with the Swift toolchain" >&2
  exit 1
fi
rm -rf "$output"
"${docc[@]}" convert "$catalog" \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name Understudy \
  --fallback-bundle-identifier org.understudy.Understudy \
  --warnings-as-errors \
  --output-path "$output"
echo "docs.sh: documentation built in $output"
