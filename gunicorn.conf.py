"""Gunicorn settings of Capua's ``web`` process (read by gunicorn from the working folder,
and named in the Procfile).

It refuses to start a server that others can reach with the developer pages on
(``/dev/outbox`` shows every mail, sign-in links included), unless the operator says so
with ``CAPUA_DEV_PAGES_PUBLIC=1``.
"""

import gc
import itertools
import sys
import time

from service.plumbing import after_answer
from service.plumbing.config import bind_host, dev_pages_bind_problem, load_config

#: An answer's first piece at most this long goes out in the same write as the headers.
ONE_WRITE_BYTES = 64 * 1024


def on_starting(server):
    try:
        config = load_config()
    except ValueError as err:
        sys.exit(f"capua: {err}")
    problem = dev_pages_bind_problem(config, [bind_host(b) for b in server.cfg.bind])
    if problem:
        sys.exit(f"capua: {problem}")


#: CPython's own thresholds (700, 10, 10) start a collection once 700 more container
#: objects are alive than at the last one, and a request makes and frees far more than
#: that: measured with ``bench.command_tail``, one command in 11 (PostgreSQL; in 40 on
#: SQLite) paid a collection of the youngest objects (0.3 ms), one in 130 of the middle
#: ones (0.6-0.9 ms) and one in 1,500 a full one (5-31 ms).  What a request leaves behind
#: is a few dozen objects, so the worker runs the collections after the answer is sent
#: instead (:func:`post_request`), once that residue passes these counts; CPython's own
#: trigger stays only as a net for a request that keeps a great many objects alive.  Not
#: 700 here: with requests in flight on the other threads their live objects count too,
#: and at 700 nearly every request ended with a collection walking them (50 clients:
#: 50 commands/s against 67 without; at 10,000, 285 against 237 over five turns).
BETWEEN_REQUESTS = (10_000, 10, 100)
NET = (100_000, 10, 10)

#: The youngest generation is also collected after every this many requests, however few
#: objects they left behind.  CPython's count is what was allocated less what was freed,
#: and a command frees as many old objects as it makes new ones (the game state it caches
#: replaces the one before, whose objects are older), so the count grew by ~80 a command
#: while the youngest generation's list grew by every object the new state holds: when
#: the count passed 10,000, the collection walked ~125 commands' states, 3.0 ms (p50)
#: before the next request, one command in 125 (``bench.command_tail --database
#: postgresql``: 12 such passes in 1,500 commands, and one of the middle generation of
#: 8.4 ms).  Every 16 requests it walks 16 commands' states: 0.38 ms (max 0.65), the same
#: collector's time in all (0.03 ms a command), and the command's p99 6.83 -> 6.51 ms.
#: The middle generation is then collected every ~180 requests (0.7 ms); the oldest, a
#: full collection, after 100 of those (:data:`BETWEEN_REQUESTS`' last count, 10 when
#: the youngest was collected 8 times less often), so about as seldom as before: once in
#: ~18,000 requests, not in ~2,000.
EVERY_REQUESTS = 16
_served = itertools.count(1)


def post_worker_init(worker):
    """Once the app is loaded, move what start-up built (modules, schemas, compiled
    statements: most of the worker's objects) out of the garbage collector's reach, so a
    full collection walks only what requests made; then leave collections to
    :func:`post_request` (see :data:`BETWEEN_REQUESTS`); and send each small answer in one
    write (:func:`_answer_in_one_write`)."""
    _answer_in_one_write()
    gc.freeze()
    gc.set_threshold(*NET)


def pre_request(worker, req):
    """Before the app sees the request: what it leaves until its answer is out (telling
    the workers what it committed, its connection back to the pool, its session closed)
    waits for :func:`post_request`
    (:mod:`service.plumbing.after_answer`); and the line gunicorn's own hook logs."""
    worker.log.debug("%s %s", req.method, req.path)
    after_answer.begin()


def post_request(worker, req, environ, resp):
    """After the answer is sent (gunicorn calls this once the response is written and
    closed, whatever happened in the app): first the work the request left until its
    answer was out (:func:`service.plumbing.after_answer.run`: telling the workers what
    it committed, its connection back to the pool, its session closed); then the
    collection CPython would have started by now, if any: as its own collector picks,
    the oldest generation whose count is past its threshold (the middle one's count is
    the collections of the youngest since its last, and so on); and at least the
    youngest after every :data:`EVERY_REQUESTS` requests."""
    after_answer.run()
    young, collections_of_young, collections_of_middle = gc.get_count()
    if young <= BETWEEN_REQUESTS[0] and next(_served) % EVERY_REQUESTS:
        return
    if collections_of_middle > BETWEEN_REQUESTS[2]:
        gc.collect(2)
    elif collections_of_young > BETWEEN_REQUESTS[1]:
        gc.collect(1)
    else:
        gc.collect(0)


class _Held:
    """Stands in for the socket while gunicorn writes an answer's first piece: keeps what
    it is given, to be sent in one ``sendall``."""

    def __init__(self):
        self.parts = []

    def sendall(self, data):
        self.parts.append(data)


def _answer_in_one_write():
    """Make gunicorn's HTTP/1 responses :func:`one_write_response` ones, dated by
    :func:`dated_once_a_second`."""
    from gunicorn import util
    from gunicorn.http import wsgi

    wsgi.Response = one_write_response(wsgi.Response)
    util.http_date = dated_once_a_second(util.http_date)


def dated_once_a_second(http_date, clock=time.time):
    """``http_date`` (gunicorn's ``Date`` header), formatted once a second: the header
    counts whole seconds, and formatting it (``email.utils.formatdate``) took a dozen
    calls for every answer."""
    held = (None, "")

    def dated(timestamp=None):
        nonlocal held
        if timestamp is not None:
            return http_date(timestamp)
        second = int(clock())
        known, text = held
        if known != second:
            text = http_date(second)
            held = (second, text)
        return text

    return dated


def one_write_response(base):
    """``base`` (gunicorn's ``Response``), sending an answer's headers together with its
    first piece of body.

    Gunicorn writes the status line and headers with one ``sendall`` and the body with
    another; on a socket with ``TCP_NODELAY`` (gunicorn sets it) that is two segments,
    two system calls and two wake-ups of the client for one small JSON answer (7 % of a
    served command's profiled time on loopback, 0.55 ms of 7.7).  The first write of a response whose
    headers are not out yet, when its piece is at most :data:`ONE_WRITE_BYTES`, is
    written by gunicorn's own code into :class:`_Held` and sent at once; everything
    else (larger bodies, later pieces, files) is left to gunicorn as it is.
    """

    class OneWriteResponse(base):
        def write(self, arg):
            if self.headers_sent or not isinstance(arg, bytes) or len(arg) > ONE_WRITE_BYTES:
                return super().write(arg)
            sock, held = self.sock, _Held()
            self.sock = held
            try:
                super().write(arg)
            finally:
                self.sock = sock
            if held.parts:
                sock.sendall(b"".join(held.parts))

    return OneWriteResponse
