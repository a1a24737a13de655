"""nginx in front of gunicorn: it reads whole requests before gunicorn sees a byte.

gunicorn's threads read headers and bodies with no deadline, so a few slow or idle
connections can hold every thread (its documentation asks for a buffering proxy in front).
nginx reads each request with an event loop under deadlines (header, body, send, keep-alive),
caps connections, and hands gunicorn only complete requests over a private unix socket.

nginx runs as the current user from a prefix directory that holds its config, pid, logs and
temp files (``nginx -p PREFIX -c nginx.conf -e stderr``), in the foreground (``daemon off``)
as a child that ``capsa serve`` supervises and stops.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from api.headers import FRONT_HEADERS
from solver.errors import InputError
from solver.executors.pool import die_with_parent

NGINX_CANDIDATES = ("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx")


class ProxyUnavailable(InputError):
    """nginx is not installed (or the path given is not an executable)."""

    code = "nginx_missing"


def app_body_limit() -> int:
    """The app's own body limit, read when limits are made: a front refuses exactly what the
    app would (one number), and api.endpoint (spectree, pydantic) loads only then, not with
    every command of the CLI."""
    from api.endpoint import MAX_BODY_BYTES

    return MAX_BODY_BYTES


@dataclass(frozen=True)
class ProxyLimits:
    """The limits both fronts enforce, nginx and the embedded one (seconds, counts, bytes).

    The request head is bounded as nginx reads it, and the embedded front replays nginx's
    rule (:func:`api.front.head_refusal`): its first ``header_buffer`` bytes, then lines that
    do not fit there each go whole into one of ``header_buffers`` buffers of
    ``max_header_line`` bytes (431 when a line is longer or the buffers run out). Line limits
    are gunicorn's, so that what a front lets through gunicorn never refuses (in HTML).
    """

    header_timeout: int = 5      # whole request line + headers
    body_timeout: int = 5        # between two reads of the body
    send_timeout: int = 10       # between two writes of the response
    keepalive_timeout: int = 5   # idle time between requests on one connection
    keepalive_requests: int = 1000
    max_connections: int = 8192  # all connections of the nginx worker, upstream ones included
    per_ip_connections: int = 2048
    max_body_bytes: int = field(default_factory=app_body_limit)  # de-chunked, as the app's
    upstream_timeout: int = 60   # gunicorn's answer; the app's own deadline is far shorter
    max_request_line: int = 4094  # without its CRLF (414): gunicorn's limit_request_line
    max_header_line: int = 8190   # with its CRLF (431): gunicorn's limit_request_field_size
    header_buffer: int = 1024     # nginx's client_header_buffer_size
    header_buffers: int = 4       # nginx's large_client_header_buffers count

    @property
    def max_head_bytes(self) -> int:
        """The most a request head can take in nginx's buffers (it is refused before)."""
        return self.header_buffer + self.header_buffers * self.max_header_line


def find_nginx(explicit: str | None = None) -> str:
    """The nginx binary: ``explicit``, else ``nginx`` on PATH, else the usual system paths."""
    if explicit:
        if os.path.isfile(explicit) and os.access(explicit, os.X_OK):
            return explicit
        raise ProxyUnavailable(f"--nginx {explicit!r} is not an executable file")
    found = shutil.which("nginx")
    if found:
        return found
    for path in NGINX_CANDIDATES:
        if os.access(path, os.X_OK):
            return path
    raise ProxyUnavailable(
        "nginx not found (looked on PATH and in " + ", ".join(NGINX_CANDIDATES) + "); install "
        "it (Debian: apt-get install nginx-light), give its path with --nginx, or pass "
        "--front embedded to serve through the embedded front (waitress)")


def _user_directive() -> str:
    """Started by root, nginx would switch its worker to ``nobody``, which cannot open the
    private socket directory: keep the worker on the current user instead."""
    if os.geteuid() != 0:
        return ""
    import grp
    import pwd

    return f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};\n"


def _listen(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


def _error_json(code: str, message: str) -> str:
    # nginx config strings in single quotes: escape backslashes and quotes.
    body = json.dumps({"error": {"code": code, "message": message}})
    return body.replace("\\", "\\\\").replace("'", "\\'")


# Compression, the same in both fronts (nginx's gzip module, the embedded front's
# :func:`api.front.gzip_answer`): text answers of at least GZIP_MIN_LENGTH bytes, to a client
# whose Accept-Encoding takes gzip, with ``Vary: Accept-Encoding``. HTML is always among
# nginx's types; the Swagger UI page (about 2 MB) goes down to about 0.55 MB at level 5.
GZIP_TYPES = ("text/html", "text/css", "text/plain", "text/javascript", "text/csv",
              "text/markdown", "application/javascript", "application/json",
              "application/x-ndjson", "image/svg+xml")
GZIP_MIN_LENGTH = 1024
GZIP_LEVEL = 5


def _gzip_lines() -> str:
    types = " ".join(t for t in GZIP_TYPES if t != "text/html")  # nginx's own, always on
    return (f"    gzip on;\n    gzip_comp_level {GZIP_LEVEL};\n"
            f"    gzip_min_length {GZIP_MIN_LENGTH};\n    gzip_http_version 1.1;\n"
            f"    gzip_proxied any;\n    gzip_vary on;\n    gzip_types {types};\n")


ERRORS = {
    400: ("bad_request", "malformed HTTP request"),
    408: ("request_timeout", "the request was not received in time"),
    413: ("body_too_large", "request body over {max_body_bytes} bytes"),
    414: ("uri_too_long", "request line too long"),
    429: ("too_many_connections", "too many connections from this address"),
    431: ("headers_too_large", "request headers too large"),
    494: ("headers_too_large", "request headers too large"),
    502: ("service_unavailable", "the application server is not answering"),
    503: ("service_unavailable", "the service is overloaded; retry later"),
    504: ("service_unavailable", "the application server did not answer in time"),
}


def _allow_map(allow: dict[str, str] | None) -> str:
    """``$capsa_allow``: the methods each path takes, for the ``Allow`` of nginx's own 405
    (it refuses TRACE itself, before the app could answer)."""
    lines = [f'        "{path}" "{methods}";' for path, methods in sorted((allow or {}).items())
             if '"' not in path and "\\" not in path]
    return ("    map $uri $capsa_allow {\n        default \"GET, HEAD, OPTIONS, POST\";\n"
            + "".join(line + "\n" for line in lines) + "    }")


def _header_var(name: str) -> str:
    return "$capsa_" + name.lower().replace("-", "_")


def _front_header_maps() -> str:
    """One variable per header of :data:`api.headers.FRONT_HEADERS`: its value where gunicorn's
    answer lacks the header (nginx's own answers above all), else empty, which ``add_header``
    skips, so the app's own value passes alone, never twice."""
    return "\n".join(
        f"    map $upstream_http_{name.lower().replace('-', '_')} {_header_var(name)} {{\n"
        f'        "" "{value}";\n        default "";\n    }}'
        for name, value in FRONT_HEADERS.items())


def _front_header_lines(indent: str) -> str:
    return "".join(f"{indent}add_header {name} {_header_var(name)} always;\n"
                   for name in FRONT_HEADERS)


def nginx_config(prefix: Path, host: str, port: int, upstream_socket: str,
                 limits: ProxyLimits | None = None, allow: dict[str, str] | None = None) -> str:
    """The whole nginx.conf: one worker, deadlines on every read, JSON error bodies with the
    service's security headers.

    ``allow`` maps each path to the methods it takes (``Allow`` of a 405 nginx answers).

    >>> conf = nginx_config(Path("/tmp/x"), "127.0.0.1", 8000, "/tmp/x/app.sock")
    >>> "listen 127.0.0.1:8000" in conf and "client_header_timeout 5s;" in conf
    True
    """
    limits = limits or ProxyLimits()
    p = prefix
    error_pages = []
    error_locations = []
    for status, (code, message) in ERRORS.items():
        text = _error_json(code, message.format(max_body_bytes=limits.max_body_bytes))
        # 494 is nginx's own code for oversized headers, sent as 400 unless the error page
        # names the status it answers with (``=431``); clients see 431.
        shown = "=431 " if status == 494 else ""
        error_pages.append(f"        error_page {status} {shown}/__capsa_error/{status};")
        error_locations.append(
            f"        location = /__capsa_error/{status} {{\n"
            f"            internal;\n"
            f"            default_type application/json;\n"
            f"            return {431 if status == 494 else status} '{text}';\n"
            f"        }}")
    # A named location keeps the request's method and URI for the message and the map.
    error_pages.append("        error_page 405 @capsa_405;")
    error_locations.append(
        "        location @capsa_405 {\n"
        "            default_type application/json;\n"
        "            add_header Allow $capsa_allow always;\n"
        "            add_header X-Request-Id $capsa_request_id always;\n"
        + _front_header_lines("            ") +
        "            return 405 '{\"error\": {\"code\": \"method_not_allowed\", \"message\": "
        "\"method $request_method is not allowed here; allowed: $capsa_allow\"}}';\n"
        "        }")
    pages = "\n".join(error_pages)
    return f"""# Written by `capsa serve`; regenerated at every start.
daemon off;
{_user_directive()}worker_processes 1;
pid {p}/nginx.pid;
worker_rlimit_nofile {limits.max_connections * 2 + 64};
events {{
    worker_connections {limits.max_connections};
}}
http {{
    access_log off;
    error_log {p}/error.log warn;
    server_tokens off;
    client_body_temp_path {p}/tmp/body;
    proxy_temp_path {p}/tmp/proxy;
    fastcgi_temp_path {p}/tmp/fastcgi;
    uwsgi_temp_path {p}/tmp/uwsgi;
    scgi_temp_path {p}/tmp/scgi;

    client_header_timeout {limits.header_timeout}s;
    client_body_timeout {limits.body_timeout}s;
    send_timeout {limits.send_timeout}s;
    keepalive_timeout {limits.keepalive_timeout}s;
    keepalive_requests {limits.keepalive_requests};
    reset_timedout_connection on;
    client_max_body_size {limits.max_body_bytes};
    client_body_buffer_size {limits.max_body_bytes};
    client_header_buffer_size {limits.header_buffer};
    large_client_header_buffers {limits.header_buffers} {limits.max_header_line};
    limit_conn_zone $binary_remote_addr zone=perip:4m;
    limit_conn_status 429;
{_gzip_lines()}{_allow_map(allow)}
    # A request line over gunicorn's limit fits nginx's buffers but would get gunicorn's
    # HTML 414: refuse it here, in JSON.
    map $request $capsa_line_too_long {{
        "~^.{{{limits.max_request_line + 1}}}" 1;
        default "";
    }}
{_front_header_maps()}
    # The client's request id when usable (as api.request_id), else nginx's own.
    map $http_x_request_id $capsa_request_id {{
        "~^[A-Za-z0-9._:-]{{1,128}}$" $http_x_request_id;
        default $request_id;
    }}

    upstream capsa_app {{
        server unix:{upstream_socket} max_fails=0;
    }}
    server {{
        listen {_listen(host, port)} backlog=4096;
        limit_conn perip {limits.per_ip_connections};
        add_header X-Request-Id $capsa_request_id always;
{_front_header_lines("        ")}{pages}
        location / {{
            if ($capsa_line_too_long) {{
                return 414;
            }}
            proxy_pass http://capsa_app;
            proxy_request_buffering on;
            proxy_buffering on;
            proxy_buffer_size 16k;
            proxy_buffers 64 16k;
            proxy_connect_timeout 5s;
            proxy_send_timeout {limits.upstream_timeout}s;
            proxy_read_timeout {limits.upstream_timeout}s;
            proxy_intercept_errors off;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Request-Id $capsa_request_id;
            proxy_hide_header X-Request-Id;
        }}
{chr(10).join(error_locations)}
    }}
}}
"""


def allowed_methods(app) -> dict[str, str]:
    """Each fixed path of a Flask app and the methods it takes (``OPTIONS, POST``)."""
    out: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if not rule.arguments:
            out.setdefault(rule.rule, set()).update(rule.methods or ())
    return {path: ", ".join(sorted(methods)) for path, methods in out.items()}


def write_config(prefix: Path, host: str, port: int, upstream_socket: str,
                 limits: ProxyLimits | None = None, allow: dict[str, str] | None = None) -> Path:
    """Create the prefix layout and write ``nginx.conf`` into it."""
    for sub in ("tmp/body", "tmp/proxy", "tmp/fastcgi", "tmp/uwsgi", "tmp/scgi", "logs"):
        (prefix / sub).mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_config(prefix, host, port, upstream_socket, limits, allow))
    return conf


def nginx_command(binary: str, prefix: Path, conf: Path) -> list[str]:
    return [binary, "-p", f"{prefix}/", "-c", str(conf), "-e", "stderr"]


def check_config(binary: str, prefix: Path, conf: Path) -> None:
    """``nginx -t``: a bad config or an unusable address fails here with nginx's message."""
    proc = subprocess.run([*nginx_command(binary, prefix, conf), "-t", "-q"],
                          capture_output=True, text=True, timeout=30)
    if proc.returncode != 0:
        lines = [ln for ln in proc.stderr.splitlines() if "[emerg]" in ln or "[alert]" in ln]
        raise InputError(f"nginx rejected its configuration: {(lines or [proc.stderr.strip()])[0]}")


def start_nginx(binary: str, prefix: Path, conf: Path) -> subprocess.Popen:
    """nginx in the foreground as our child; it gets SIGTERM if this process dies."""
    return subprocess.Popen(nginx_command(binary, prefix, conf), stdin=subprocess.DEVNULL,
                            process_group=0,  # Ctrl-C reaches the supervisor only
                            preexec_fn=lambda: die_with_parent(signal.SIGTERM))
