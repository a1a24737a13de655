"""The embedded front: waitress in front of gunicorn where nginx is not installed.

gunicorn's threads read headers and bodies with no deadline, so slow or idle clients can
hold every thread; it needs a buffering front. nginx is the default one (:mod:`api.proxy`).
Where it is not installed, this front does the same job with a pip-installed server:

- **waitress** reads every request in one event loop (``poll``: thousands of connections
  cost no thread), de-chunks and buffers the body, and only then hands the whole request to
  one of its threads. Its limits: connections (``connection_limit``), idle time between reads
  (``channel_timeout``: a body stalled for that long, or an idle keep-alive connection, is
  closed).
- **What this module adds**: nginx's limits, applied the same way (:class:`FrontParser`): the
  body limit on the de-chunked size (waitress counts chunk framing), the request line and
  header limits as nginx's buffers apply them (:func:`head_refusal`); a deadline for the whole
  request line and headers (a client that drips one header a second is closed after
  ``header_timeout``, as nginx's ``client_header_timeout``), a cap on connections per client
  address (429), JSON error bodies in the service's shape with its security headers
  (:data:`api.headers.FRONT_HEADERS`), a request id on every answer, and a graceful stop
  (SIGTERM: stop accepting, finish the requests in flight, close).
- The WSGI application of the front forwards each complete request to gunicorn's private
  unix socket and relays the answer: gunicorn sees only complete requests, as behind nginx.
- It compresses text answers as nginx's gzip module does with the config ``capsa serve``
  writes (:func:`gzip_answer`, the types and sizes of :mod:`api.proxy`), so both fronts send
  the same pages in the same bytes' worth.

The front runs in its own process, forked by ``capsa serve`` and supervised like nginx.
"""

from __future__ import annotations

import gzip
import http.client
import json
import logging
import re
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher
from waitress.utilities import (
    BadRequest,
    RequestEntityTooLarge,
    RequestHeaderFieldsTooLarge,
    find_double_newline,
)

from api.headers import FRONT_HEADERS
from api.proxy import ERRORS, GZIP_LEVEL, GZIP_MIN_LENGTH, GZIP_TYPES, ProxyLimits
from api.request_id import REQUEST_ID_HEADER, request_id_from

log = logging.getLogger("capsa.front")

# Hop-by-hop headers (RFC 9110 7.6.1) are not forwarded either way.
HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-authenticate", "proxy-authorization",
                        "te", "trailer", "transfer-encoding", "upgrade", "proxy-connection"})
_REPLACED = frozenset({"x-request-id", "server"})  # the front's own, not gunicorn's
GRACE_S = 10.0  # how long a graceful stop waits for requests in flight
# waitress's refusals that nginx's table (api.proxy.ERRORS) does not hold
OWN_ERRORS = {500: ("internal_error", "internal error"),
              501: ("not_implemented", "transfer encoding not implemented")}


def error_body(status: int, message: str) -> bytes:
    """The service's error shape for an answer the front gives itself.

    >>> json.loads(error_body(413, "request body over 10 bytes"))["error"]["code"]
    'body_too_large'
    """
    code = {**ERRORS, **OWN_ERRORS}.get(status, ERRORS[400])[0]
    return json.dumps({"error": {"code": code, "message": message}}).encode()


def _message(status: int, waitress_body: str, limits: ProxyLimits) -> str:
    """nginx's wording for the same refusal (one table), with waitress's detail on a 400."""
    if status != 400:
        text = {**ERRORS, **OWN_ERRORS}.get(status, ERRORS[400])[1]
        return text.format(max_body_bytes=limits.max_body_bytes)
    detail = waitress_body.strip().splitlines()[0] if waitress_body.strip() else ""
    return f"{ERRORS[400][1]}: {detail}" if detail else ERRORS[400][1]


class RequestLineTooLong(BadRequest):
    """The request line is over the limit: 414, as nginx answers it."""

    code = 414
    reason = "Request-URI Too Large"


def head_refusal(head: bytes, limits: ProxyLimits) -> BadRequest | None:
    r"""nginx's verdict on a request head, complete or still arriving: None (so far so good),
    414 (request line over ``max_request_line``) or 431 (headers over nginx's buffers).

    nginx reads the head into a buffer of ``header_buffer`` bytes; a line that does not fit
    the rest of the current buffer moves whole to one of ``header_buffers`` large buffers of
    ``max_header_line`` bytes. A longer line, or one more buffer needed, is refused.

    >>> limits = ProxyLimits()
    >>> head_refusal(b"GET / HTTP/1.1\r\nX-A: " + b"a" * 8183 + b"\r\n\r\n", limits)
    >>> head_refusal(b"GET / HTTP/1.1\r\nX-A: " + b"a" * 8184 + b"\r\n\r\n", limits).code
    431
    >>> head_refusal(b"GET /" + b"a" * 4090, limits).code
    414
    >>> lines = b"".join(b"X-%d: %s\r\n" % (i, b"a" * 4200) for i in range(5))
    >>> head_refusal(b"GET / HTTP/1.1\r\n" + lines, limits).code  # 5 lines, 4 buffers
    431
    """
    end = find_double_newline(head)
    lines = (head[:end] if end >= 0 else head).lstrip(b"\r\n").split(b"\r\n")
    if len(lines[0].rstrip(b"\r")) > limits.max_request_line:  # its CR may be in, not its LF
        return RequestLineTooLong(f"request line over {limits.max_request_line} bytes")
    # each complete line with its CRLF; the last, unfinished one as it is so far
    sizes = [len(line) + 2 for line in lines[:-1]] + ([len(lines[-1])] if lines[-1] else [])
    room, used, spare = limits.header_buffer, 0, limits.header_buffers
    for size in sizes:
        if used + size <= room:
            used += size
            continue
        if size > limits.max_header_line or spare == 0:
            return RequestHeaderFieldsTooLarge("request headers too large")
        room, used, spare = limits.max_header_line, size, spare - 1
    return None


class FrontParser(HTTPRequestParser):
    """waitress's request parser, with nginx's limits applied nginx's way: the head by
    :func:`head_refusal`, a chunked body by its de-chunked size (waitress counts the chunk
    sizes and CRLFs too, so a body under the limit could be refused)."""

    completed: bool  # waitress's attributes, which this class sets too
    error: BadRequest | None

    def __init__(self, adj: Adjustments, limits: ProxyLimits):
        super().__init__(adj)
        self.limits = limits

    def received(self, data: bytes) -> int:
        if self.completed:
            return 0
        if self.body_rcv is None:  # the head
            head = self.header_plus + data
            consumed = super().received(data)
            if self.error is None or isinstance(self.error, RequestHeaderFieldsTooLarge):
                refusal = head_refusal(head, self.limits)
                if refusal is not None:
                    self.error, self.completed = refusal, True
            return consumed
        if not self.chunked:
            return super().received(data)
        body = self.body_rcv
        consumed = body.received(data)
        if len(body) > self.limits.max_body_bytes:
            self.error = RequestEntityTooLarge(f"over {self.limits.max_body_bytes} bytes")
            self.completed = True
        elif body.error:
            self.error, self.completed = body.error, True
        elif body.completed:
            self.completed = True
            self.headers["CONTENT_LENGTH"] = str(len(body))  # no longer chunked (waitress's)
        return consumed


class JsonErrorTask(ErrorTask):
    """waitress's own refusals (400, 413, 414, 431, 501) as JSON, with a request id and the
    service's security headers."""

    def execute(self) -> None:
        error = self.request.error
        limits: ProxyLimits = self.channel.server.limits
        body = error_body(error.code, _message(error.code, str(error.body), limits))
        self.status = f"{error.code} {error.reason}"
        self.response_headers.extend([
            ("Content-Type", "application/json"),
            (REQUEST_ID_HEADER, request_id_from(self.request.headers.get("X_REQUEST_ID"))),
            *FRONT_HEADERS.items(),
        ])
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class FrontChannel(HTTPChannel):
    """One client connection: remembers when its current request began (header deadline)
    and counts itself against its address (per-client cap)."""

    error_task_class = JsonErrorTask

    def __init__(self, server: FrontServer, sock: socket.socket, addr: Any, adj: Adjustments,
                 map: dict | None = None):
        super().__init__(server, sock, addr, adj, map=map)
        self.parser_class = partial(FrontParser, limits=server.limits)
        self.request_started: float | None = None
        self.client = addr[0] if isinstance(addr, tuple) else str(addr)
        count = server.per_client.get(self.client, 0) + 1
        server.per_client[self.client] = count
        if count > server.limits.per_ip_connections:
            body = error_body(429, "too many connections from this address")
            extra = "".join(f"{k}: {v}\r\n" for k, v in FRONT_HEADERS.items()).encode()
            self.write_soon(b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json"
                            b"\r\nConnection: close\r\nContent-Length: %d\r\n%s\r\n%s"
                            % (len(body), extra, body))
            self.close_when_flushed = True

    def received(self, data: bytes) -> bool:
        if self.request is None and data:
            self.request_started = time.monotonic()
        done = super().received(data)
        if self.request is None:  # every request in ``data`` was complete
            self.request_started = None
        return done

    def del_channel(self, map: dict | None = None) -> None:
        if self._fileno is not None and self._fileno in self.server.active_channels:
            left = self.server.per_client.get(self.client, 1) - 1
            if left > 0:
                self.server.per_client[self.client] = left
            else:
                self.server.per_client.pop(self.client, None)
        super().del_channel(map)


class FrontServer(TcpWSGIServer):
    """waitress's TCP server with the front's channel and a header deadline."""

    channel_class = FrontChannel

    def __init__(self, *args: Any, limits: ProxyLimits, **kwargs: Any):
        self.limits = limits
        self.per_client: dict[str, int] = {}
        self.stopping = False
        super().__init__(*args, **kwargs)

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # idle connections and stalled bodies
        started_before = time.monotonic() - self.limits.header_timeout
        for channel in list(self.active_channels.values()):
            request = channel.request
            if (request is not None and not request.headers_finished
                    and channel.request_started is not None
                    and channel.request_started < started_before):
                channel.will_close = True  # headers not complete in time, as nginx
            elif self.stopping and not channel.requests and request is None:
                channel.will_close = True  # idle keep-alive: nothing in flight to finish

    def busy(self) -> bool:
        """Whether any connection still has a request running or an answer being sent."""
        return any(ch.requests or ch.total_outbufs_len for ch in self.active_channels.values())


class UnixHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to gunicorn's private unix socket."""

    def __init__(self, path: str, timeout: float):
        super().__init__("localhost", timeout=timeout)
        self.path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        sock.connect(self.path)
        self.sock = sock


def _request_headers(environ: dict[str, Any], request_id: str) -> dict[str, str]:
    headers: dict[str, str] = {}
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            name = key[5:].replace("_", "-").title()
            if name.lower() not in HOP_BY_HOP:
                headers[name] = value
    for key, name in (("CONTENT_TYPE", "Content-Type"), ("CONTENT_LENGTH", "Content-Length")):
        if environ.get(key):
            headers[name] = environ[key]
    forwarded = headers.get("X-Forwarded-For")
    peer = environ.get("REMOTE_ADDR", "")
    headers["X-Forwarded-For"] = f"{forwarded}, {peer}" if forwarded else peer
    headers["X-Forwarded-Proto"] = environ.get("wsgi.url_scheme", "http")
    headers[REQUEST_ID_HEADER] = request_id
    headers["Connection"] = "close"
    return headers


GZIP_STATUSES = frozenset({200, 403, 404})  # the answers nginx's gzip module compresses
_GZIP_TOKEN = re.compile(r"(?:^|,)\s*gzip\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*(?:,|$)", re.I)


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` takes gzip (named, with a q above 0), as nginx reads it.

    >>> [accepts_gzip(v) for v in ("gzip, deflate, br", "br;q=1, gzip;q=0", "*", None)]
    [True, False, False, False]
    """
    m = _GZIP_TOKEN.search(accept_encoding or "")
    if m is None:
        return False
    try:
        return m.group(1) is None or float(m.group(1)) > 0
    except ValueError:
        return False


def gzip_answer(environ: dict[str, Any], status: int, headers: list[tuple[str, str]],
                data: bytes) -> tuple[list[tuple[str, str]], bytes]:
    """The answer compressed as nginx compresses it (``gzip on`` with :mod:`api.proxy`'s
    types, minimum length and level): a 200, 403 or 404 to any request but HEAD, of a text type, at
    least ``GZIP_MIN_LENGTH`` bytes, not already encoded, gets ``Vary: Accept-Encoding``, and
    its body is gzipped (its ETag made weak) when the request is HTTP/1.1 and takes gzip."""
    names = {k.lower(): v for k, v in headers}
    media = names.get("content-type", "").split(";")[0].strip().lower()
    if (status not in GZIP_STATUSES or environ.get("REQUEST_METHOD") == "HEAD"
            or names.get("content-encoding") or media not in GZIP_TYPES
            or len(data) < GZIP_MIN_LENGTH):
        return headers, data
    out = [(k, v) for k, v in headers if k.lower() != "vary"]
    vary = [v for k, v in headers if k.lower() == "vary"]
    out.append(("Vary", ", ".join([*vary, "Accept-Encoding"])))
    if (environ.get("SERVER_PROTOCOL") != "HTTP/1.1"
            or not accepts_gzip(environ.get("HTTP_ACCEPT_ENCODING"))):
        return out, data
    body = gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)
    out = [(k, "W/" + v if k.lower() == "etag" and not v.startswith("W/") else v)
           for k, v in out if k.lower() != "content-length"]
    out += [("Content-Encoding", "gzip"), ("Content-Length", str(len(body)))]
    return out, body


def proxy_app(upstream_socket: str, upstream_timeout: float) -> Callable:
    """The front's WSGI application: one complete request in, gunicorn's answer out."""

    def app(environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        request_id = request_id_from(environ.get("HTTP_X_REQUEST_ID"))
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        uri = environ.get("REQUEST_URI") or environ.get("PATH_INFO", "/")
        conn = UnixHTTPConnection(upstream_socket, upstream_timeout)
        try:
            conn.request(environ["REQUEST_METHOD"], uri, body=body or None,
                         headers=_request_headers(environ, request_id))
            resp = conn.getresponse()
            data = resp.read()
            status, reason = resp.status, resp.reason
            headers = [(k, v) for k, v in resp.getheaders()
                       if k.lower() not in HOP_BY_HOP and k.lower() not in _REPLACED]
            given = {k.lower() for k, _ in headers}
            # as nginx: the security headers an answer lacks (gunicorn's own), never twice
            headers += [(k, v) for k, v in FRONT_HEADERS.items() if k.lower() not in given]
            headers, data = gzip_answer(environ, status, headers, data)
        except (OSError, http.client.HTTPException) as exc:
            timed_out = isinstance(exc, TimeoutError | socket.timeout)
            status = 504 if timed_out else 502
            reason = "Gateway Timeout" if timed_out else "Bad Gateway"
            data = error_body(status, ERRORS[status][1])
            headers = [("Content-Type", "application/json"), *FRONT_HEADERS.items()]
            log.warning("upstream %s for %s %s: %s", status, environ["REQUEST_METHOD"], uri, exc)
        finally:
            conn.close()
        headers.append((REQUEST_ID_HEADER, request_id))
        start_response(f"{status} {reason}", headers)
        return [data]

    return app


@dataclass(frozen=True)
class FrontConfig:
    """Where the front listens, where it forwards, and with how many threads."""

    host: str
    port: int
    upstream_socket: str
    threads: int = 32
    limits: ProxyLimits = field(default_factory=ProxyLimits)


def create_front(config: FrontConfig, sock: socket.socket | None = None) -> FrontServer:
    """A listening front (``sock``: an already bound socket, else bind ``host:port``)."""
    limits = config.limits
    adj = Adjustments(
        host=config.host, port=config.port, threads=config.threads, ident="capsa",
        connection_limit=limits.max_connections, backlog=4096,
        channel_timeout=max(limits.keepalive_timeout, limits.body_timeout),
        cleanup_interval=1, asyncore_use_poll=True, asyncore_loop_timeout=1,
        # FrontParser refuses a head or a chunked body over nginx's limits before these
        max_request_header_size=limits.max_head_bytes + 1,
        max_request_body_size=limits.max_body_bytes + 1,  # waitress refuses at >=
        expose_tracebacks=False, clear_untrusted_proxy_headers=False,
    )
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    host = config.host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sockinfo = (family, socket.SOCK_STREAM, None, (host, config.port))
    app = proxy_app(config.upstream_socket, limits.upstream_timeout)
    return FrontServer(app, {}, True, sock, dispatcher=dispatcher, adj=adj,
                       sockinfo=sockinfo, bind_socket=sock is None, limits=limits)


def run_front(server: FrontServer, grace: float = GRACE_S) -> None:
    """Serve until SIGTERM/SIGINT, then stop gracefully: no new connections, the requests
    in flight answered (for at most ``grace`` seconds), every connection closed."""
    stop = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        stop.set()

    for s in (signal.SIGTERM, signal.SIGINT):
        signal.signal(s, on_signal)
    channel_map = server._map
    while not stop.is_set():
        wasyncore.loop(timeout=0.5, use_poll=True, map=channel_map, count=1)
    server.stopping = True
    server.accepting = False
    server.del_channel()  # out of the map: no more accepts
    server.socket.close()
    end = time.monotonic() + grace
    while server.busy() and time.monotonic() < end:
        server.maintenance(time.time())
        wasyncore.loop(timeout=0.05, use_poll=True, map=channel_map, count=1)
    server.task_dispatcher.shutdown(cancel_pending=True, timeout=1)
    wasyncore.close_all(channel_map)
