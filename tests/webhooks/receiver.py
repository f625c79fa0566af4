"""A real HTTP server on loopback that records what it is sent: the webhook receiver of
the tests.  Each request is answered from a script of ``(status, headers)`` answers,
then ``200``."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    server: ThreadingHTTPServer
    requests: list[Received] = field(default_factory=list)
    script: list[tuple[int, dict]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def answer(self, *answers: tuple[int, dict]) -> None:
        with self.lock:
            self.script.extend(answers)

    def next_answer(self) -> tuple[int, dict]:
        with self.lock:
            return self.script.pop(0) if self.script else (200, {})

    def bodies(self, path: Optional[str] = None) -> list[bytes]:
        return [r.body for r in self.requests if path is None or r.path == path]


def start_receiver() -> Receiver:
    holder: dict[str, Receiver] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            receiver = holder["r"]
            with receiver.lock:
                receiver.requests.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            status, headers = receiver.next_answer()
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *_args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    receiver = Receiver(server=server)
    holder["r"] = receiver
    threading.Thread(target=server.serve_forever, name="webhook-receiver", daemon=True).start()
    return receiver
