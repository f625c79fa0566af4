"""Gunicorn, as ``gunicorn.conf.py`` sets it up, sends a small answer in one write: the
headers and the body in a single ``sendall`` (one segment, one wake-up of the client)."""

from __future__ import annotations

import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class _RecordingSocket:
    def __init__(self):
        self.writes = []

    def sendall(self, data):
        self.writes.append(bytes(data))


def _served(body: bytes):
    """What gunicorn's response, as ``gunicorn.conf.py`` makes it, writes for ``body``."""
    from types import SimpleNamespace

    from gunicorn.config import Config
    from gunicorn.http import wsgi

    settings = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    sock = _RecordingSocket()
    request = SimpleNamespace(version=(1, 1), method="POST", should_close=lambda: False)
    response = settings["one_write_response"](wsgi.Response)(request, sock, Config())
    response.start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    response.write(body)
    response.close()
    return sock.writes


def test_a_small_answer_goes_out_in_one_write_with_its_headers():
    body = b'{"version": 7}'
    writes = _served(body)
    assert len(writes) == 1
    head, _, sent = writes[0].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK\r\n")
    assert b"Content-Length: 14" in head and b"Connection: keep-alive" in head
    assert sent == body


def test_a_large_answer_is_written_as_gunicorn_writes_it():
    body = b"x" * (256 * 1024)
    writes = _served(body)
    assert len(writes) == 2
    assert writes[0].endswith(b"\r\n\r\n") and writes[1] == body


def test_the_date_header_is_formatted_once_a_second():
    from gunicorn import util

    settings = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    formatted = []

    def http_date(timestamp=None):
        formatted.append(timestamp)
        return util.http_date(timestamp)

    moments = iter([1_700_000_000.25, 1_700_000_000.75, 1_700_000_001.5])
    dated = settings["dated_once_a_second"](http_date, clock=lambda: next(moments))
    first, second, third = dated(), dated(), dated()
    assert first == second == "Tue, 14 Nov 2023 22:13:20 GMT"
    assert third == "Tue, 14 Nov 2023 22:13:21 GMT"
    assert formatted == [1_700_000_000, 1_700_000_001]
    assert dated(0) == "Thu, 01 Jan 1970 00:00:00 GMT"
