#!/usr/bin/env bash
# Builds and tests the loopback server: the `Server` trait brings SwiftNIO and compiles the
# UnderstudyServer module. Its own scratch folder (.build-server, git-ignored), so the default
# build in .build never sees SwiftNIO.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

swift build --traits Server --scratch-path .build-server --build-tests 2>&1 \
  | tee .server-build-log.txt | tail -3
if grep -E "/Sources/.*(warning|error):" .server-build-log.txt; then
  echo "FAIL: the lines above are compiler warnings or errors in Sources/ with the Server trait" >&2
  exit 1
fi
echo "server trait build: $(( $(date +%s) - started )) s"

# The WebSocket tests run Python's `websockets` client too; without it that one test is skipped,
# and says so.
python3 -m pip install --quiet --disable-pip-version-check websockets 2>&1 | grep -v "as the 'root' user" \
  || true
python3 -c "import websockets" 2>/dev/null \
  || echo "note: Python's websockets package is missing; its WebSocket client test will be skipped"

swift test --traits Server --scratch-path .build-server --skip-build \
  --filter 'UnderstudyServerTests|ServeCommandTests|RecordCommandTests' 2>&1 | tee .server-test-log.txt \
  | grep -E "✘|error:|Executed [0-9]+ tests|Test run with" || true
if ! grep -qE "Test run with [0-9]+ tests? .*passed" .server-test-log.txt; then
  echo "FAIL: the loopback server tests did not pass" >&2
  exit 1
fi
if grep -qE "Executed [0-9]+ tests?, with [1-9][0-9]* failures?" .server-test-log.txt; then
  echo "FAIL: the loopback server's XCTest tests did not pass" >&2
  exit 1
fi
echo "server trait build and tests: $(( $(date +%s) - started )) s"
