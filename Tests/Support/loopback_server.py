#!/usr/bin/env python3
"""Loopback HTTP server for Understudy's tests (Python 3 standard library only).

Binds 127.0.0.1 on a free port, prints exactly ``PORT <n>`` on stdout once
listening and logs nothing else. Exits by itself when its parent process dies
or when its stdin reaches EOF, so a crashed test run never leaves it behind.
Driven by Tests/UnderstudyTests/Support/LoopbackServer.swift. By hand:
``python3 Tests/Support/loopback_server.py`` (Ctrl-D or Ctrl-C stops it; with stdin
redirected from /dev/null it exits at once).

Endpoints (any method unless noted):
  /echo...                 JSON echo of the request
  /status/<code>           that status (no body for 204/304)
  /bytes/<n>               n bytes, byte i = i % 251
  /json                    a fixed small JSON document
  /set-cookie?a=1&b=2      one Set-Cookie header per query item
  /session                 Set-Cookie: sid=sunrise.marmalade.42, a value no request carried
  /redirect/<n>            302 chain down to /redirect/0 -> 200 "done"
  /redirect-to?url=..&status=30x
  /reply?type=..&status=N   the request body back, typed; X-Reply-Header: "Name: v" -> header
  /gzip?text=..            text/plain, gzip-compressed, with Content-Encoding: gzip
  /slow?ms=N               waits N ms, then 200
  /stream?chunks=N&interval_ms=M   chunked text/event-stream
  /auth                    401 + WWW-Authenticate unless Authorization is sent
  /__hits /__log /__reset  counters (requests to /__* are not counted)
"""

import base64
import gzip
import json
import os
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

BYTE_PATTERN = bytes(range(251))
MAX_SLEEP_MS = 60_000
# Shaped as words, so only the echo of the Set-Cookie the answer carried can mask it.
SESSION = "sunrise.marmalade.42"
MAX_STREAM_CHUNKS = 10_000
FIXED_JSON = {
    "name": "understudy",
    "version": 1,
    "tags": ["http", "stub", "replay"],
    "nested": {"ok": True, "count": 3, "nothing": None},
}


class Recorder:
    """Thread-safe record of every request not aimed at a /__ endpoint."""

    def __init__(self):
        self._lock = threading.Lock()
        self._log = []

    def record(self, echo):
        with self._lock:
            self._log.append(echo)

    def count(self):
        with self._lock:
            return len(self._log)

    def entries(self):
        with self._lock:
            return list(self._log)

    def reset(self):
        with self._lock:
            self._log.clear()


RECORDER = Recorder()


class BadRequest(Exception):
    pass


def int_param(params, name, default, low, high):
    raw = params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(f"{name} must be an integer") from None
    if not low <= value <= high:
        raise BadRequest(f"{name} must be within {low}...{high}")
    return value


class Handler(BaseHTTPRequestHandler):
    # HTTP/1.1, but one request per connection: a client that reuses a pooled connection just as
    # the server closes it sees "connection lost" (-1005), which made tests flaky. Tests gain
    # nothing from keep-alive on loopback.
    protocol_version = "HTTP/1.1"
    server_version = "UnderstudyLoopback/1"
    timeout = 120  # idle keep-alive connections give their thread back eventually

    # --- plumbing -------------------------------------------------------

    def version_string(self):
        return self.server_version

    def log_message(self, format, *args):  # noqa: A002 - signature from the base class
        pass  # stdout carries only the PORT line; stderr stays quiet

    def __getattr__(self, name):
        # BaseHTTPRequestHandler looks up do_<METHOD>; accept any method.
        if name.startswith("do_"):
            return self.handle_any
        raise AttributeError(name)

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self.read_chunked_body()
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        try:
            length = int(length)
        except ValueError:
            raise BadRequest("invalid Content-Length") from None
        if length < 0:
            raise BadRequest("invalid Content-Length")
        body = self.rfile.read(length)
        if len(body) != length:
            raise ConnectionError("body ended early")
        return body

    def read_chunked_body(self):
        parts = []
        while True:
            line = self.rfile.readline(65537)
            if not line:
                raise ConnectionError("chunked body ended early")
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise BadRequest("invalid chunk size") from None
            if size < 0:
                raise BadRequest("invalid chunk size")
            if size == 0:
                while True:  # trailers, up to the empty line
                    trailer = self.rfile.readline(65537)
                    if trailer in (b"\r\n", b"\n", b""):
                        return b"".join(parts)
            chunk = self.rfile.read(size)
            if len(chunk) != size:
                raise ConnectionError("chunked body ended early")
            parts.append(chunk)
            self.rfile.readline(65537)  # CRLF after the chunk

    def echo_object(self, target, body):
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        return {
            "method": self.command,
            "path": target.path,
            "query": target.query,
            "headers": [[name, value] for name, value in self.headers.items()],
            "body_base64": base64.b64encode(body).decode("ascii"),
            "body_text": text,
        }

    def send(self, status, body=b"", content_type="text/plain; charset=utf-8", headers=()):
        if isinstance(body, str):
            body = body.encode("utf-8")
        bodiless = status in (204, 304) or status < 200
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if not bodiless:
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
        self.close_connection = True
        self.send_header("Connection", "close")
        self.end_headers()
        if not bodiless and self.command != "HEAD":
            self.wfile.write(body)
        self.wfile.flush()

    def send_json(self, value, status=200, headers=()):
        self.send(status, json.dumps(value).encode("utf-8"), "application/json", headers)

    def handle_any(self):
        responding = False
        try:
            target = urlsplit(self.path)
            path = target.path or "/"
            try:
                body = self.read_body()
            except BadRequest as error:
                self.close_connection = True  # the rest of the stream cannot be trusted
                self.send(400, f"{error}\n")
                return
            params = dict(parse_qsl(target.query, keep_blank_values=True))
            if not path.startswith("/__"):
                RECORDER.record(self.echo_object(target, body))
            responding = True  # from here on a failure may be mid-response
            try:
                self.route(path, target, params, body)
            except BadRequest as error:
                self.send(400, f"{error}\n")
        except (ConnectionError, TimeoutError, OSError):
            self.close_connection = True
        except Exception as error:  # never let odd input kill the connection thread noisily
            self.close_connection = True
            if not responding:
                try:
                    self.send(500, f"internal error: {type(error).__name__}\n")
                except Exception:
                    pass

    # --- endpoints --------------------------------------------------------

    def route(self, path, target, params, body):
        parts = path.split("/")
        if path.startswith("/echo"):
            self.send_json(self.echo_object(target, body))
        elif len(parts) == 3 and parts[1] == "status":
            self.status_endpoint(parts[2])
        elif len(parts) == 3 and parts[1] == "bytes":
            self.bytes_endpoint(parts[2])
        elif path == "/json":
            self.send_json(FIXED_JSON)
        elif path == "/set-cookie":
            pairs = parse_qsl(target.query, keep_blank_values=True)
            cookies = [("Set-Cookie", f"{name}={value}; Path=/") for name, value in pairs]
            self.send(200, "cookies set\n", headers=cookies)
        elif path == "/session":
            self.send(200, "signed in\n", headers=[("Set-Cookie", f"sid={SESSION}; Path=/")])
        elif len(parts) == 3 and parts[1] == "redirect":
            self.redirect_endpoint(parts[2])
        elif path == "/redirect-to":
            self.redirect_to_endpoint(params)
        elif path == "/reply":
            self.reply_endpoint(params, body)
        elif path == "/gzip":
            text = params.get("text", "")
            self.send(200, gzip.compress(text.encode("utf-8")),
                      headers=[("Content-Encoding", "gzip")])
        elif path == "/slow":
            ms = int_param(params, "ms", 0, 0, MAX_SLEEP_MS)
            time.sleep(ms / 1000)
            self.send(200, f"slept {ms} ms\n")
        elif path == "/stream":
            self.stream_endpoint(params)
        elif path == "/auth":
            self.auth_endpoint()
        elif path == "/__hits":
            self.send_json({"count": RECORDER.count()})
        elif path == "/__log":
            self.send_json(RECORDER.entries())
        elif path == "/__reset":
            RECORDER.reset()
            self.send_json({"count": 0})
        else:
            self.send(404, f"no endpoint at {path}\n")

    def status_endpoint(self, raw):
        if not raw.isdigit() or not 200 <= int(raw) <= 599:
            raise BadRequest("status must be a number within 200...599")
        code = int(raw)
        try:
            phrase = HTTPStatus(code).phrase
        except ValueError:
            phrase = "Status"
        self.send(code, f"{code} {phrase}\n")

    def bytes_endpoint(self, raw):
        if not raw.isdigit():
            raise BadRequest("byte count must be a non-negative integer")
        count = int(raw)
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(count))
        self.end_headers()
        if self.command != "HEAD":
            block = BYTE_PATTERN * 261  # 65_511 bytes, a multiple of 251 so blocks line up
            remaining = count
            while remaining > 0:
                piece = block[: min(remaining, len(block))]
                self.wfile.write(piece)
                remaining -= len(piece)
        self.wfile.flush()

    def redirect_endpoint(self, raw):
        if not raw.isdigit():
            raise BadRequest("redirect count must be a non-negative integer")
        count = int(raw)
        if count == 0:
            self.send(200, "done")
        else:
            location = f"/redirect/{count - 1}"
            self.send(302, f"redirecting to {location}\n", headers=[("Location", location)])

    def redirect_to_endpoint(self, params):
        url = params.get("url")
        if not url:
            raise BadRequest("url is required")
        status = int_param(params, "status", 302, 300, 399)
        self.send(status, f"redirecting to {url}\n", headers=[("Location", url)])

    def reply_endpoint(self, params, body):
        """Answers with the request's own body, typed `type`, carrying each
        `X-Reply-Header: Name: value` request header as a response header."""
        status = int_param(params, "status", 200, 200, 599)
        content_type = params.get("type", "application/octet-stream")
        headers = []
        for spec in self.headers.get_all("X-Reply-Header") or []:
            name, _, value = spec.partition(":")
            headers.append((name.strip(), value.strip()))
        self.send(status, body, content_type, headers)

    def stream_endpoint(self, params):
        chunks = int_param(params, "chunks", 3, 0, MAX_STREAM_CHUNKS)
        interval_ms = int_param(params, "interval_ms", 0, 0, MAX_SLEEP_MS)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if self.command == "HEAD":
            self.wfile.flush()
            return
        for index in range(chunks):
            if index > 0 and interval_ms:
                time.sleep(interval_ms / 1000)
            data = f"data: {index}\n\n".encode("utf-8")
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def auth_endpoint(self):
        authorization = self.headers.get("Authorization")
        if authorization is None:
            self.send(
                401,
                "authorization required\n",
                headers=[("WWW-Authenticate", 'Basic realm="test"')],
            )
        else:
            self.send_json({"authenticated": True, "authorization": authorization})


class Server(ThreadingHTTPServer):
    daemon_threads = True  # open connections never delay exit
    # socketserver's default backlog of 5 resets connections when parallel tests burst, which
    # URLSession reports as "connection lost" (-1005).
    request_queue_size = 256
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        pass  # a connection failed; nothing to log, the server carries on


def exit_when_orphaned(original_parent):
    while True:
        time.sleep(0.3)
        if os.getppid() != original_parent:
            os._exit(0)


def exit_on_stdin_eof():
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except Exception:
        pass
    os._exit(0)


def main():
    parent = os.getppid()
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=exit_when_orphaned, args=(parent,), daemon=True).start()
    threading.Thread(target=exit_on_stdin_eof, daemon=True).start()
    sys.stdout.write(f"PORT {server.server_address[1]}\n")
    sys.stdout.flush()
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        os._exit(0)


if __name__ == "__main__":
    main()
