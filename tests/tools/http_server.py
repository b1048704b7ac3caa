#!/usr/bin/env python3
"""Loopback HTTP(S) test server that fails on command (tests/tools/README.md).

Serves --root over GET, accepts POSTs (webhook mode), follows a per-path
script of responses, and counts every request so a test can assert "one
request, not five".  Python 3 standard library only; the HTTPS certificates
come from openssl(1).

    http_server.py --root DIR [--port 0] [--tls --tls-dir DIR]
                   [--script JSON] [--lifetime SECONDS] [--log FILE]

The first line on stdout is the port.  It stops by itself after --lifetime
seconds (default 600), or on SIGTERM/SIGINT.
"""

import argparse
import email.utils
import hashlib
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOOPBACK = {"127.0.0.1", "::1", "localhost"}


class State:
    """Script, counters and records, shared by the handler threads."""

    def __init__(self, script, log_path):
        self.lock = threading.Lock()
        self.script = {p: list(a) for p, a in (script or {}).items()}
        self.counts = {}
        self.requests = []  # dicts: method, path, status, bytes, headers
        self.log_path = log_path

    def next_action(self, path):
        with self.lock:
            self.counts[path] = self.counts.get(path, 0) + 1
            actions = self.script.get(path)
            if actions:
                return actions.pop(0)
            return None

    def record(self, entry):
        with self.lock:
            self.requests.append(entry)
            if self.log_path:
                with open(self.log_path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(entry) + "\n")


def etag_of(path):
    """A strong ETag from the file's content (a rewrite with the same size
    and mtime still changes it), hashed in chunks by hashlib.file_digest: a
    120 MB file costs about 90 ms here, against 550 ms read whole and
    hashed at once."""
    with open(path, "rb") as f:
        return '"' + hashlib.file_digest(f, "sha256").hexdigest()[:16] + '"'


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "invoice-loader-test/1"

    def setup(self):
        super().setup()
        if isinstance(self.request, ssl.SSLSocket):
            self.request.settimeout(10)
            self.request.do_handshake()
            self.request.settimeout(None)

    def log_message(self, fmt, *args):  # quiet: tests read /_requests
        pass

    # ---- plumbing -------------------------------------------------------
    entry = None  # the request being answered, recorded by note()

    def note(self, status, nbytes):
        """Record the request with what it is about to get, before the
        first byte goes out: a client that has its answer then always
        finds it in /_requests."""
        if self.entry is not None and "status" not in self.entry:
            self.entry["status"] = status
            self.entry["bytes"] = nbytes
            self.server.state.record(self.entry)

    def head(self, status, length, headers=None, sent=None, close=False):
        """The status line and headers of a LENGTH-byte body; notes SENT
        body bytes (default: LENGTH, none for HEAD)."""
        if sent is None:
            sent = length if self.command != "HEAD" else 0
        self.note(status, sent)
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(length))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()

    def reply(self, status, body=b"", headers=None, close=False):
        self.head(status, len(body), headers, close=close)
        if body and self.command != "HEAD":
            self.wfile.write(body)
        return len(body)

    def json_reply(self, obj):
        return self.reply(200, (json.dumps(obj) + "\n").encode(),
                          {"Content-Type": "application/json"})

    def hard_close(self):
        self.wfile.flush()
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def split(self):
        u = urllib.parse.urlsplit(self.path)
        return urllib.parse.unquote(u.path), urllib.parse.parse_qs(u.query)

    def interesting_headers(self):
        keep = ("If-None-Match", "If-Modified-Since", "Idempotency-Key",
                "Content-Type", "Authorization", "webhook-id",
                "webhook-timestamp", "webhook-signature")
        out = {}
        for k in keep:
            v = self.headers.get(k)
            if v is not None:
                out[k] = "[present]" if k == "Authorization" else v
        return out

    # ---- control endpoints ------------------------------------------------
    def control(self, path, query):
        st = self.server.state
        if path == "/_count":
            p = query.get("path", [""])[0]
            with st.lock:
                n = st.counts.get(p, 0)
            return self.reply(200, f"{n}\n".encode(),
                              {"Content-Type": "text/plain"})
        if path == "/_counts":
            with st.lock:
                return self.json_reply(dict(st.counts))
        if path == "/_requests":
            p = query.get("path", [None])[0]
            with st.lock:
                rows = [r for r in st.requests if p is None or r["path"] == p]
            return self.json_reply(rows)
        if path == "/_script" and self.command == "POST":
            n = int(self.headers.get("Content-Length", "0"))
            new = json.loads(self.rfile.read(n) or b"{}")
            with st.lock:
                for p, actions in new.items():
                    st.script[p] = list(actions)
            return self.json_reply({"ok": True})
        if path == "/_reset" and self.command == "POST":
            with st.lock:
                st.counts.clear()
                st.requests.clear()
                st.script.clear()
            return self.json_reply({"ok": True})
        return self.reply(404, b"unknown control endpoint\n")

    # ---- scripted actions -------------------------------------------------
    def act(self, path, action, body_in):
        """Answer one request; returns (status, body bytes sent)."""
        name, _, arg = (action or "200").partition(":")
        root = self.server.root
        if name == "drop":  # close without any answer (curl 52)
            self.note(0, 0)
            self.hard_close()
            return 0, 0
        if name == "redirect":  # 302 to arg (a path or a whole URL)
            return 302, self.reply(302, b"moved\n", {"Location": arg})
        if name in ("endless", "trickle"):
            return self.stream_body(name, arg)
        if name == "declare":  # a Content-Length of arg bytes, no body
            self.head(200, int(arg), sent=0)
            self.wfile.flush()
            self.hard_close()
            return 200, 0
        if name == "stall":  # headers, then silence for arg seconds
            full = self.file_path(root, path)
            self.head(200, os.path.getsize(full) if full else 100, sent=0)
            self.wfile.flush()
            time.sleep(float(arg or 30))
            self.hard_close()
            return 200, 0
        if name in ("200", "plain", "as", "cut"):
            src = path if name != "as" else "/" + arg.lstrip("/")
            full = self.file_path(root, src)
            if full is None:
                if self.command == "POST":
                    return 200, self.reply(200, b'{"ok":true}\n')
                return 404, self.reply(404, b"not found\n")
            if self.command == "POST":
                return 200, self.reply(200, b'{"ok":true}\n')
            headers = {"Content-Type": "application/octet-stream"}
            if name != "plain":
                mtime = os.stat(full).st_mtime
                headers["ETag"] = etag_of(full)
                headers["Last-Modified"] = email.utils.formatdate(
                    mtime, usegmt=True)
                inm = self.headers.get("If-None-Match")
                ims = self.headers.get("If-Modified-Since")
                fresh = False
                if inm is not None:
                    fresh = headers["ETag"] in [t.strip() for t in
                                                inm.split(",")] or inm == "*"
                elif ims is not None:
                    try:
                        t = email.utils.parsedate_to_datetime(ims).timestamp()
                        fresh = int(mtime) <= int(t)
                    except (TypeError, ValueError):
                        fresh = False
                if fresh and name != "cut":
                    self.note(304, 0)
                    self.send_response(304)
                    for k in ("ETag", "Last-Modified"):
                        self.send_header(k, headers[k])
                    self.end_headers()
                    return 304, 0
            if name == "cut":  # half the body, then close (curl 18)
                half = self.send_file(full, headers, half=True)
                self.hard_close()
                return 200, half
            return 200, self.send_file(full, headers)
        # A bare status, optionally with a Retry-After: "503", "429:1".
        status = int(name)
        headers = {"Content-Type": "text/plain"}
        if arg:
            headers["Retry-After"] = arg
        elif status == 429:
            headers["Retry-After"] = "1"
        if status == 401:
            headers["WWW-Authenticate"] = 'Basic realm="test"'
        body = f"scripted {status}\n".encode()
        return status, self.reply(status, body, headers, close=status >= 500)

    @staticmethod
    def file_path(root, path):
        """The readable regular file PATH names under ROOT, or None."""
        full = os.path.realpath(os.path.join(root, path.lstrip("/")))
        if not full.startswith(os.path.realpath(root) + os.sep):
            return None
        ok = os.path.isfile(full) and os.access(full, os.R_OK)
        return full if ok else None

    def stream_body(self, name, arg):
        """A 200 without Content-Length whose body ends only when the
        connection does.  endless[:MiB]: zeros as fast as the client takes
        them, at most MiB (default 2048); trickle[:SECONDS]: one byte every
        0.2 s for at most SECONDS (default 60).  Bounded in bytes and time
        so a broken client cannot keep the server busy."""
        self.note(200, -1)
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        sent = 0
        try:
            if name == "endless":
                chunk = b"0" * (1 << 20)
                for _ in range(int(arg or 2048)):
                    self.wfile.write(chunk)
                    sent += len(chunk)
            else:
                until = time.monotonic() + float(arg or 60)
                while time.monotonic() < until:
                    self.wfile.write(b"0")
                    self.wfile.flush()
                    sent += 1
                    time.sleep(0.2)
        except OSError:
            pass
        self.hard_close()
        return 200, sent

    def send_file(self, full, headers, half=False):
        """200 with the file's bytes (with HALF, the first half of them under
        the whole Content-Length), streamed (socket.sendfile: the kernel's
        sendfile(2) on plain sockets, send() in a loop under TLS), so that a
        benchmark's large file costs the server no copy into memory.
        Returns the body bytes sent."""
        with open(full, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            count = size // 2 if half else size
            if self.command == "HEAD":
                count = 0
            self.head(200, size, headers, sent=count)
            if count:
                self.wfile.flush()
                self.request.sendfile(f, 0, count)
        return count

    def handle_any(self):
        path, query = self.split()
        if path.startswith("/_"):
            return self.control(path, query)
        body_in = b""
        if self.command == "POST":
            n = int(self.headers.get("Content-Length", "0"))
            body_in = self.rfile.read(n)
        action = self.server.state.next_action(path)
        entry = {"method": self.command, "path": path,
                 "action": action or "200",
                 "headers": self.interesting_headers()}
        if self.command == "POST":
            entry["body"] = body_in.decode("utf-8", "replace")
        self.entry = entry
        try:
            self.act(path, action, body_in)
        except (ConnectionError, OSError):
            pass
        self.note(0, 0)  # only if nothing was sent at all
        self.entry = None
        return None

    do_GET = handle_any
    do_HEAD = handle_any
    do_POST = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        pass  # a client that hung up or refused our certificate


def make_certs(tls_dir):
    """A CA, a server certificate for 127.0.0.1/localhost signed by it, and
    an unrelated CA (other-ca.pem) for "wrong CA" tests.  Kept if present."""
    os.makedirs(tls_dir, exist_ok=True)
    done = os.path.join(tls_dir, "server.pem")
    if os.path.exists(done):
        return
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
          "-nodes"]

    def run(*args):
        subprocess.run(["openssl", *args], cwd=tls_dir, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    for name, cn in (("ca", "invoice-loader test CA"),
                     ("other-ca", "some other test CA")):
        run("req", "-x509", *ec, "-keyout", f"{name}.key", "-out",
            f"{name}.pem", "-days", "2", "-subj", f"/CN={cn}",
            "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    with open(os.path.join(tls_dir, "server.ext"), "w") as f:
        f.write("basicConstraints=CA:FALSE\n"
                "keyUsage=digitalSignature,keyEncipherment\n"
                "extendedKeyUsage=serverAuth\n"
                "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\n")
    run("req", *ec, "-keyout", "server.key", "-out", "server.csr",
        "-subj", "/CN=127.0.0.1")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey",
        "ca.key", "-CAcreateserial", "-days", "2", "-extfile", "server.ext",
        "-out", "server.tmp")
    os.rename(os.path.join(tls_dir, "server.tmp"), done)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--tls", action="store_true")
    ap.add_argument("--tls-dir")
    ap.add_argument("--script", default="{}",
                    help='JSON: {"/path": ["503", "503", "200"], ...}')
    ap.add_argument("--lifetime", type=float, default=600)
    ap.add_argument("--log", help="append one JSON line per request")
    a = ap.parse_args()

    if a.host not in LOOPBACK:
        print(f"http_server: refusing to listen on {a.host}: loopback only",
              file=sys.stderr)
        return 64
    try:
        script = json.loads(a.script)
        assert isinstance(script, dict)
    except (ValueError, AssertionError):
        print("http_server: --script must be a JSON object", file=sys.stderr)
        return 64
    if a.tls and not a.tls_dir:
        print("http_server: --tls needs --tls-dir", file=sys.stderr)
        return 64

    host = "127.0.0.1" if a.host == "localhost" else a.host
    if ":" in host:
        Server.address_family = socket.AF_INET6
    httpd = Server((host, a.port), Handler)
    httpd.root = os.path.realpath(a.root)
    httpd.state = State(script, a.log)
    if a.tls:
        make_certs(a.tls_dir)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(os.path.join(a.tls_dir, "server.pem"),
                            os.path.join(a.tls_dir, "server.key"))
        httpd.socket = ctx.wrap_socket(httpd.socket, server_side=True,
                                       do_handshake_on_connect=False)

    def stop(*_):
        threading.Thread(target=httpd.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    timer = threading.Timer(a.lifetime, stop)
    timer.daemon = True
    timer.start()

    print(httpd.server_address[1], flush=True)
    httpd.serve_forever(poll_interval=0.1)
    httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
