#!/usr/bin/env bash
# Builds and tests the loopback server: the `Server` trait brings SwiftNIO and compiles the
# UnderstudyServer module; the `ClientTests` trait (which enables `Server`) adds AsyncHTTPClient
# to the server's tests. Its own scratch folder (.build-server, git-ignored), so the default
# build in .build never sees SwiftNIO.
#
#   bash .ci/server.sh          # build, then test
#   bash .ci/server.sh build    # only the graph check and the build (.ci/run starts this early,
#                               # beside the default build, to use the cores one build leaves idle)
#   bash .ci/server.sh test     # only the tests, on a finished build
set -euo pipefail
cd "$(dirname "$0")/.."
# Only the test targets the server's tests are in: the others run in the default build (see the
# end of Package.swift). Every command on .build-server sets it, or SwiftPM would plan again.
export UNDERSTUDY_SERVER_TESTS_ONLY=1
started=$(date +%s)
phase="${1:-all}"

if [ "$phase" != "test" ]; then
  # A user of the server enables `Server` alone, and must not fetch AsyncHTTPClient's graph.
  server_graph=$(swift package --scratch-path .build-server show-dependencies --traits Server \
    --format json)
  if printf '%s' "$server_graph" | grep -q "async-http-client"; then
    printf '%s\n' "$server_graph" >&2
    echo "FAIL: the Server trait alone resolves AsyncHTTPClient; only ClientTests may use it" >&2
    exit 1
  fi
  echo "Server trait graph: SwiftNIO only ($(printf '%s' "$server_graph" | grep -c '"identity"') packages)"

  swift build --traits ClientTests --scratch-path .build-server --build-tests 2>&1 \
    | tee .server-build-log.txt | tail -3
  # Dependencies' own warnings (their files are under .build-server/checkouts) are not ours.
  if grep -E "/Sources/.*(warning|error):" .server-build-log.txt | grep -v "/checkouts/"; then
    echo "FAIL: the lines above are compiler warnings or errors in Sources/ with the Server trait" >&2
    exit 1
  fi
  echo "server trait build (with AsyncHTTPClient): $(( $(date +%s) - started )) s"
fi
[ "$phase" = "build" ] && exit 0

# The WebSocket tests run Python's `websockets` client too; without it that one test is skipped,
# and says so.
python3 -m pip install --quiet --disable-pip-version-check websockets 2>&1 | grep -v "as the 'root' user" \
  || true
python3 -c "import websockets" 2>/dev/null \
  || echo "note: Python's websockets package is missing; its WebSocket client test will be skipped"

swift test --traits ClientTests --scratch-path .build-server --skip-build \
  --filter 'UnderstudyServerTests|ServeCommandTests|RecordCommandTests' 2>&1 | tee .server-test-log.txt \
  | grep -E "✘|error:|Executed [0-9]+ tests|Test run with" || true
if ! grep -qE "Test run with [0-9]+ tests? .*passed" .server-test-log.txt; then
  echo "FAIL: the loopback server tests did not pass" >&2
  exit 1
fi
if ! grep -q "Suite AsyncHTTPClientTests passed" .server-test-log.txt; then
  echo "FAIL: the AsyncHTTPClient tests did not run (built without the ClientTests trait?)" >&2
  exit 1
fi
if grep -qE "Executed [0-9]+ tests?, with [1-9][0-9]* failures?" .server-test-log.txt; then
  echo "FAIL: the loopback server's XCTest tests did not pass" >&2
  exit 1
fi
echo "server trait build and tests: $(( $(date +%s) - started )) s"
