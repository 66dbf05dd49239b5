#!/usr/bin/env python3
"""A misbehaving HTTP server on 127.0.0.1 for Buoy's download tests.

Prints its port on the first line, then serves until stdin closes. With `--tls CERT KEY` after
the log file it speaks https with that certificate. Every request is logged
to the file named by argv[1] as 'METHOD PATH RANGE' lines so tests can check resumes.

Paths (N = size in bytes; the body is byte i = i*7 % 251):
  /file/N            Content-Length, honours Range
  /slow/N?rate=R     R bytes per second
  /drop/N?after=K    first request: sends K bytes of N then closes; later ones behave
  /norange/N         ignores Range (always 200, whole body)
  /stall/N?after=K   first request: K bytes then stalls 5 s; later ones behave
  /short/N           always closes after half the body
  /nolength/N        no Content-Length, closes at the end (?rate=R: R bytes per second)
  /status/C          HTTP status C
  /redirect/N        302 to /file/N
  /redirect-to?u=URL 302 to URL (any scheme: ftp://, file://, gopher://...)
  /busy/N?fails=K&after=S[&code=C][&date=1]
                     the first K requests answer C (default 503) with Retry-After: S seconds
                     (as an HTTP date with date=1), later ones serve the file
  /flaky/N?fails=K   the first K requests answer 404, later ones serve the file
  /norange-slow/N?rate=R  ignores Range, R bytes per second
  /files/NAME        the file NAME in the 'files' directory beside the log (404 when absent),
                     read at each request so a test can change what is served
"""
import os, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse, parse_qs

LOG = open(sys.argv[1], "a", buffering=1) if len(sys.argv) > 1 else None
SEEN = {}
LOCK = threading.Lock()


PERIOD = bytes((i * 7) % 251 for i in range(251))  # the body repeats every 251 bytes


def body(n):
    return (PERIOD * (n // 251 + 1))[:n]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlparse(self.path)
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        parts = url.path.strip("/").split("/")
        kind, arg = parts[0], int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        rng = self.headers.get("Range", "")
        if LOG:
            LOG.write(f"GET {url.path} {rng or '-'}\n")
        with LOCK:
            count = SEEN.get(url.path, 0)
            SEEN[url.path] = count + 1
        if kind == "files" and LOG:
            path = os.path.join(os.path.dirname(sys.argv[1]), "files", os.path.basename(url.path))
            try:
                with open(path, "rb") as f:
                    content = f.read()
            except OSError:
                content = None
            self.send_response(200 if content is not None else 404)
            self.send_header("Content-Length", str(len(content or b"")))
            self.end_headers()
            self.wfile.write(content or b"")
            return
        if kind == "status":
            self.send_response(arg)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if kind == "flaky" and count < int(q.get("fails", 1)):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if kind == "redirect-to":
            self.send_response(302)
            self.send_header("Location", q.get("u", "/"))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if kind == "busy" and count < int(q.get("fails", 1)):
            after = int(q.get("after", 1))
            self.send_response(int(q.get("code", 503)))
            if q.get("date"):
                from email.utils import formatdate
                self.send_header("Retry-After", formatdate(time.time() + after, usegmt=True))
            else:
                self.send_header("Retry-After", str(after))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if kind == "redirect":
            self.send_response(302)
            self.send_header("Location", f"/file/{arg}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        data = body(arg)
        start = 0
        if rng.startswith("bytes=") and kind not in ("norange", "norange-slow"):
            start = int(rng[6:].split("-")[0])
            if start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(data)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        part = data[start:]
        self.send_response(206 if start else 200)
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        if kind == "nolength":
            self.send_header("Connection", "close")
        else:
            self.send_header("Content-Length", str(len(part)))
        self.end_headers()
        if kind == "drop" and count == 0:
            self.wfile.write(part[:int(q.get("after", len(part) // 2))])
            self.wfile.flush()
            self.close_connection = True
            return
        if kind == "short":
            self.wfile.write(part[:len(part) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if kind == "stall" and count == 0:
            self.wfile.write(part[:int(q.get("after", 100))])
            self.wfile.flush()
            time.sleep(5)
            self.close_connection = True
            return
        if kind in ("slow", "norange-slow") or (kind == "nolength" and "rate" in q):
            rate = int(q.get("rate", 10000))
            chunk = max(1, rate // 20)
            for i in range(0, len(part), chunk):
                self.wfile.write(part[i:i + chunk])
                self.wfile.flush()
                time.sleep(chunk / rate)
            if kind == "nolength":
                self.close_connection = True
            return
        self.wfile.write(part)
        if kind == "nolength":
            self.close_connection = True


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
if "--tls" in sys.argv:
    import ssl
    i = sys.argv.index("--tls")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[i + 1], sys.argv[i + 2])
    server.socket = context.wrap_socket(server.socket, server_side=True)
server.daemon_threads = True
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()  # the test closes stdin to stop the server
server.shutdown()
