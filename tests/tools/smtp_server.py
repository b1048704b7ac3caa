#!/usr/bin/env python3
"""Loopback SMTP test server that fails on command (tests/tools/README.md).

Written by hand on asyncio streams: the stdlib smtpd module is deprecated
(removed in Python 3.12) and aiosmtpd is not in the standard library.

    smtp_server.py --record-dir DIR [--port 0] [--script JSON]
                   [--tls-dir DIR] [--auth USER:PASS] [--lifetime SECONDS]

The first line on stdout is the port.  Each transaction (MAIL FROM ... end
of DATA) takes the next action of --script, a JSON list, then "accept":

  accept            250 after DATA; the message is recorded
  drop_after_data   the whole message is received (and recorded, as a
                    real server may have delivered it), then the connection
                    is closed before the 250
  reject_data:CODE  CODE (e.g. 554) after DATA; recorded as rejected
  reject_rcpt:CODE  CODE (e.g. 550) to every RCPT TO
  reject_mail:CODE  CODE to MAIL FROM
  drop_before_data  close the connection on DATA, before the 354

Every transaction is one JSON line in DIR/log.jsonl (action, outcome,
mail_from, rcpt, message_id, file); accepted and dropped messages are in
DIR/NNNN.eml.  With --tls-dir (ca.pem, server.pem, server.key as
http_server.py makes them) STARTTLS is offered.  With --auth, AUTH PLAIN
and LOGIN are offered and that user and password are required.
"""

import argparse
import asyncio
import base64
import email
import json
import os
import signal
import ssl
import sys

LOOPBACK = {"127.0.0.1", "::1", "localhost"}


class Server:
    def __init__(self, args):
        self.record_dir = args.record_dir
        self.script = list(json.loads(args.script))
        self.auth = args.auth
        self.tls = None
        if args.tls_dir:
            self.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.tls.load_cert_chain(
                os.path.join(args.tls_dir, "server.pem"),
                os.path.join(args.tls_dir, "server.key"))
        self.n = 0
        os.makedirs(self.record_dir, exist_ok=True)

    def next_action(self):
        return self.script.pop(0) if self.script else "accept"

    def record(self, entry, data):
        self.n += 1
        if data is not None:
            name = f"{self.n:04d}.eml"
            with open(os.path.join(self.record_dir, name), "wb") as f:
                f.write(data)
            entry["file"] = name
            msg = email.message_from_bytes(data)
            entry["message_id"] = msg.get("Message-ID")
        with open(os.path.join(self.record_dir, "log.jsonl"), "a") as f:
            f.write(json.dumps(entry) + "\n")

    async def session(self, reader, writer):
        try:
            await self.dialogue(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError):
            pass
        finally:
            try:
                writer.close()
            except Exception:  # noqa: BLE001 - already gone
                pass

    async def dialogue(self, reader, writer):
        def send(line):
            writer.write((line + "\r\n").encode())

        tls_on = False
        authed = self.auth is None
        send("220 localhost invoice-loader test SMTP")
        await writer.drain()
        mail_from, rcpt, action = None, [], None
        while True:
            raw = await reader.readline()
            if not raw:
                return
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            verb = line.split(" ", 1)[0].upper()
            if verb in ("EHLO", "HELO"):
                ext = ["250-localhost"]
                if self.tls and not tls_on:
                    ext.append("250-STARTTLS")
                if self.auth and (tls_on or not self.tls):
                    ext.append("250-AUTH PLAIN LOGIN")
                ext.append("250 8BITMIME")
                for e in ext if verb == "EHLO" else ["250 localhost"]:
                    send(e)
            elif verb == "STARTTLS" and self.tls and not tls_on:
                send("220 go ahead")
                await writer.drain()
                await writer.start_tls(self.tls)
                tls_on = True
                mail_from, rcpt = None, []
                continue
            elif verb == "AUTH" and self.auth:
                parts = line.split(" ")
                mech = parts[1].upper() if len(parts) > 1 else ""
                if mech == "PLAIN":
                    if len(parts) > 2:
                        blob = parts[2]
                    else:
                        send("334 ")
                        await writer.drain()
                        blob = (await reader.readline()).decode().strip()
                    try:
                        _, user, pw = base64.b64decode(blob).decode().split(
                            "\0")
                    except ValueError:
                        user, pw = "", ""
                elif mech == "LOGIN":
                    send("334 VXNlcm5hbWU6")
                    await writer.drain()
                    user = base64.b64decode(
                        (await reader.readline()).strip()).decode()
                    send("334 UGFzc3dvcmQ6")
                    await writer.drain()
                    pw = base64.b64decode(
                        (await reader.readline()).strip()).decode()
                else:
                    send("504 unknown mechanism")
                    await writer.drain()
                    continue
                if f"{user}:{pw}" == self.auth:
                    authed = True
                    send("235 authenticated")
                else:
                    send("535 authentication failed")
            elif verb == "MAIL":
                if not authed:
                    send("530 authentication required")
                else:
                    action = self.next_action()
                    mail_from, rcpt = line[10:].strip(), []
                    if action.startswith("reject_mail:"):
                        code = action.split(":", 1)[1]
                        send(f"{code} sender refused")
                        self.record({"action": action, "outcome": "rejected",
                                     "mail_from": mail_from, "rcpt": []},
                                    None)
                        mail_from = None
                    else:
                        send("250 ok")
            elif verb == "RCPT":
                if mail_from is None:
                    send("503 need MAIL first")
                elif action.startswith("reject_rcpt:"):
                    send(f"{action.split(':', 1)[1]} recipient refused")
                    self.record({"action": action, "outcome": "rejected",
                                 "mail_from": mail_from,
                                 "rcpt": [line[8:].strip()]}, None)
                    mail_from = None
                else:
                    rcpt.append(line[8:].strip())
                    send("250 ok")
            elif verb == "DATA":
                if mail_from is None or not rcpt:
                    send("503 need RCPT first")
                elif action == "drop_before_data":
                    self.record({"action": action, "outcome": "dropped",
                                 "mail_from": mail_from, "rcpt": rcpt}, None)
                    return
                else:
                    send("354 end with <CRLF>.<CRLF>")
                    await writer.drain()
                    chunks = []
                    while True:
                        d = await reader.readline()
                        if not d:
                            return  # client gone mid-message: nothing kept
                        if d in (b".\r\n", b".\n"):
                            break
                        if d.startswith(b".."):
                            d = d[1:]
                        chunks.append(d)
                    data = b"".join(chunks)
                    entry = {"action": action, "mail_from": mail_from,
                             "rcpt": rcpt}
                    if action == "drop_after_data":
                        entry["outcome"] = "dropped"
                        self.record(entry, data)
                        return
                    if action.startswith("reject_data:"):
                        entry["outcome"] = "rejected"
                        self.record(entry, None)
                        send(f"{action.split(':', 1)[1]} message refused")
                    else:
                        entry["outcome"] = "accepted"
                        self.record(entry, data)
                        send("250 ok queued")
                    mail_from, rcpt = None, []
            elif verb == "RSET":
                mail_from, rcpt = None, []
                send("250 ok")
            elif verb == "NOOP":
                send("250 ok")
            elif verb == "QUIT":
                send("221 bye")
                await writer.drain()
                return
            else:
                send("502 command not implemented")
            await writer.drain()


async def amain(args):
    srv = Server(args)
    host = "127.0.0.1" if args.host == "localhost" else args.host
    server = await asyncio.start_server(srv.session, host, args.port)
    print(server.sockets[0].getsockname()[1], flush=True)
    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    for s in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(s, lambda: stop.done() or stop.set_result(0))
    loop.call_later(args.lifetime,
                    lambda: stop.done() or stop.set_result(0))
    await stop
    server.close()
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record-dir", required=True)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--script", default="[]")
    ap.add_argument("--tls-dir")
    ap.add_argument("--auth", help="USER:PASS required for MAIL")
    ap.add_argument("--lifetime", type=float, default=600)
    a = ap.parse_args()
    if a.host not in LOOPBACK:
        print(f"smtp_server: refusing to listen on {a.host}: loopback only",
              file=sys.stderr)
        return 64
    try:
        assert isinstance(json.loads(a.script), list)
    except (ValueError, AssertionError):
        print("smtp_server: --script must be a JSON list", file=sys.stderr)
        return 64
    return asyncio.run(amain(a))


if __name__ == "__main__":
    sys.exit(main())
