#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A hostile HTTP peer for end-to-end tests, on 127.0.0.1 only.

    hostile-http.py PORTFILE LOG [REDIRECT-BASE]

listens on 127.0.0.1 on a free port, writes the port to PORTFILE and
appends each request line to LOG.  The first path segment picks how it
answers (the rest of the path is whatever respin asks for):

    /html/...      200 text/html: a bot-check page, as some servers send
    /notmbox/...   200 text/plain that is not mail
    /redirect/...  302 to REDIRECT-BASE + the rest of the path
    /self/...      302 to /html/... on this same host and port
    /silent/...    reads the request, never answers, keeps the socket
    /bomb/N/...    200 application/gzip: a small gzip of an mbox that
                   inflates to N MiB
    /big/N/...     200 text/plain: N MiB of uncompressed mbox
"""
import http.server
import os
import signal
import socketserver
import sys
import threading
import zlib

port_file, log_file = sys.argv[1], sys.argv[2]
redirect_base = sys.argv[3] if len(sys.argv) > 3 else ""
bombs = {}
bomb_lock = threading.Lock()
stop = threading.Event()

HTML = (b"<!DOCTYPE html>\n<html><head><title>Just a moment...</title>"
        b"</head><body>Checking your browser before accessing the "
        b"archive.</body></html>\n")
MBOX_HEAD = (b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
             b"From: A U Thor <author@example.org>\n"
             b"Subject: [PATCH] big\n"
             b"Message-Id: <big@example.org>\n\n")


def bomb(mib):
    with bomb_lock:
        if mib not in bombs:
            z = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
            parts = [z.compress(MBOX_HEAD)]
            line = b"x" * 1023 + b"\n"
            chunk = line * 1024
            for _ in range(mib):
                parts.append(z.compress(chunk))
            parts.append(z.flush())
            bombs[mib] = b"".join(parts)
        return bombs[mib]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def send(self, code, ctype, body, extra=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up reading: what these tests want

    def do_GET(self):
        with open(log_file, "a") as log:
            log.write(self.requestline + "\n")
        parts = self.path.split("/")
        mode = parts[1] if len(parts) > 1 else ""
        rest = "/".join(parts[2:])
        if mode == "html":
            self.send(200, "text/html; charset=utf-8", HTML)
        elif mode == "notmbox":
            self.send(200, "text/plain", b"Nothing to see here.\n")
        elif mode == "redirect":
            self.send(302, "text/plain", b"moved\n",
                      [("Location", redirect_base + "/" + rest)])
        elif mode == "self":
            self.send(302, "text/plain", b"moved\n",
                      [("Location", "/html/" + rest)])
        elif mode == "silent":
            # hold the socket open, say nothing, until the test stops us
            stop.wait()
        elif mode == "bomb":
            self.send(200, "application/gzip", bomb(int(parts[2])))
        elif mode == "big":
            mib = int(parts[2])
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length",
                             str(len(MBOX_HEAD) + (mib << 20)))
            self.end_headers()
            self.wfile.write(MBOX_HEAD)
            chunk = (b"x" * 1023 + b"\n") * 1024
            try:
                for _ in range(mib):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
        else:
            self.send(404, "text/plain", b"no such mode\n")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


srv = Server(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write("%d\n" % srv.server_address[1])
os.rename(port_file + ".tmp", port_file)


def on_term(*_):
    stop.set()
    threading.Thread(target=srv.shutdown, daemon=True).start()


signal.signal(signal.SIGTERM, on_term)
srv.serve_forever()
sys.exit(0)
