#!/usr/bin/python3
"""Loopback SFTP test server with one user (tests/tools/README.md).

Serves --root read-only over SFTP to the one user whose name and password
are the two lines of --credentials, and logs every connection, login and
file open as a JSON line, so a test can count them.  Paramiko (Debian's
python3-paramiko, hence /usr/bin/python3) does the SSH protocol: no SSH
server is installed or started as a system service.

    sftp_server.py --root DIR --credentials FILE --known-hosts FILE
                   [--port 0] [--lifetime SECONDS] [--log FILE] [--stall]

It makes a new RSA host key at every start and writes its known_hosts line
("[127.0.0.1]:PORT ssh-rsa ...") to --known-hosts.  The first line on
stdout is the port.  It stops by itself after --lifetime seconds (default
300), or on SIGTERM/SIGINT.  With --stall it accepts and logs connections
but never speaks (a server hung before its SSH banner).
"""

import argparse
import errno
import json
import os
import signal
import socket
import sys
import threading

import paramiko

LOOPBACK = {"127.0.0.1", "::1", "localhost"}


class Log:
    """One JSON line per event, appended under a lock."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()

    def write(self, **event):
        if not self.path:
            return
        with self.lock, open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(event) + "\n")


class Server(paramiko.ServerInterface):
    """Password logins of the one user; sessions for the sftp subsystem."""

    def __init__(self, user, password, log):
        self.user, self.password, self.log = user, password, log

    def get_allowed_auths(self, username):
        return "password"

    def check_auth_password(self, username, password):
        ok = username == self.user and password == self.password
        self.log.write(event="login", user=username, ok=ok)
        return paramiko.AUTH_SUCCESSFUL if ok else paramiko.AUTH_FAILED

    def check_channel_request(self, kind, chanid):
        if kind == "session":
            return paramiko.OPEN_SUCCEEDED
        return paramiko.OPEN_FAILED_ADMINISTRATIVELY_PROHIBITED


def make_sftp_interface(root, log):
    class ReadOnlyRoot(paramiko.SFTPServerInterface):
        """Paths are relative to root; reads only."""

        def _real(self, path):
            real = os.path.realpath(os.path.join(root, path.lstrip("/")))
            if real != root and not real.startswith(root + os.sep):
                raise PermissionError(errno.EACCES, "outside the root")
            return real

        def _stat(self, path, follow=True):
            try:
                real = self._real(path)
                st = os.stat(real) if follow else os.lstat(real)
            except OSError as e:
                return paramiko.SFTPServer.convert_errno(e.errno)
            return paramiko.SFTPAttributes.from_stat(st, os.path.basename(real))

        def stat(self, path):
            return self._stat(path)

        def lstat(self, path):
            return self._stat(path, follow=False)

        def canonicalize(self, path):
            # the root is "/": "." and "" are it, ".." stops there
            return os.path.normpath("/" + path).replace("//", "/")

        def open(self, path, flags, attr):
            wants_write = flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT
                                   | os.O_TRUNC | os.O_APPEND)
            if wants_write:
                log.write(event="open", path=path, ok=False, why="write")
                return paramiko.SFTP_PERMISSION_DENIED
            try:
                f = open(self._real(path), "rb")
            except OSError as e:
                log.write(event="open", path=path, ok=False, why=e.strerror)
                return paramiko.SFTPServer.convert_errno(e.errno)
            log.write(event="open", path=path, ok=True)
            handle = paramiko.SFTPHandle(flags)
            handle.readfile = f
            handle.filename = f.name
            return handle

        def list_folder(self, path):
            try:
                real = self._real(path)
                return [paramiko.SFTPAttributes.from_stat(
                            os.stat(os.path.join(real, n)), n)
                        for n in os.listdir(real)]
            except OSError as e:
                return paramiko.SFTPServer.convert_errno(e.errno)

    return ReadOnlyRoot


def serve_connection(conn, host_key, user, password, root, log):
    transport = paramiko.Transport(conn)
    try:
        transport.add_server_key(host_key)
        transport.set_subsystem_handler(
            "sftp", paramiko.SFTPServer, make_sftp_interface(root, log))
        transport.start_server(server=Server(user, password, log))
        while transport.is_active():
            transport.join(1)
    except (paramiko.SSHException, EOFError, OSError) as e:
        log.write(event="error", error=str(e))
    finally:
        transport.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--credentials", required=True,
                    help="a file: the user name, then the password")
    ap.add_argument("--known-hosts", required=True,
                    help="written: the host key's known_hosts line")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--lifetime", type=float, default=300)
    ap.add_argument("--log", help="append one JSON line per event")
    ap.add_argument("--stall", action="store_true",
                    help="accept connections and never answer")
    a = ap.parse_args()
    if a.host not in LOOPBACK:
        print(f"sftp_server: --host {a.host}: loopback only", file=sys.stderr)
        return 64
    with open(a.credentials, encoding="utf-8") as f:
        user, password = f.read().splitlines()[:2]
    root = os.path.realpath(a.root)
    log = Log(a.log)

    host_key = paramiko.RSAKey.generate(2048)
    family = socket.AF_INET6 if ":" in a.host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((a.host, a.port))
    listener.listen(8)
    port = listener.getsockname()[1]
    with open(a.known_hosts, "w", encoding="utf-8") as f:
        f.write(f"[{a.host}]:{port} {host_key.get_name()} "
                f"{host_key.get_base64()}\n")

    def stop(*_):
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    threading.Timer(a.lifetime, stop).start()
    print(port, flush=True)
    held = []
    while True:
        conn, peer = listener.accept()
        log.write(event="connect", peer=peer[0])
        if a.stall:
            held.append(conn)  # open and silent until the client gives up
            continue
        threading.Thread(target=serve_connection, daemon=True,
                         args=(conn, host_key, user, password, root,
                               log)).start()


if __name__ == "__main__":
    sys.exit(main())
