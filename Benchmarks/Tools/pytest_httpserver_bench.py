#!/usr/bin/env python3
"""pytest-httpserver answering GET /bench with the benchmark's canned 1 KiB JSON body.

Started by understudy-server-bench; prints ``PORT <n>`` once it listens and stops when its
standard input closes. Needs ``python3 -m pip install pytest-httpserver``.
"""

import sys

from pytest_httpserver import HTTPServer

HEAD = '{"tag":"canned","padding":"'
TAIL = '"}'
BODY = (HEAD + "x" * (1024 - len(HEAD) - len(TAIL)) + TAIL).encode()

server = HTTPServer(host="127.0.0.1", port=0)
server.expect_request("/bench").respond_with_data(BODY, content_type="application/json")
server.start()
print("PORT", server.port, flush=True)
sys.stdin.read()
server.stop()
