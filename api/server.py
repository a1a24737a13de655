"""``capsa serve``: a buffering front, gunicorn behind it, a compute pool beside it.

Three process groups under one supervisor (this process):

- **the front** owns the public port: it reads every request under header and body
  deadlines, caps connections, and passes only complete requests on. nginx where it is
  installed (see :mod:`api.proxy`), else the embedded front, waitress (see :mod:`api.front`);
  ``--front nginx|embedded`` chooses.
- **gunicorn** listens on a private unix socket. Its ``gthread`` workers accept a connection
  only while they have a free thread (``worker_connections = threads``), so a busy worker
  never queues work that an idle one could take. The app is built and its numba kernels warmed
  once, before any fork, so no request pays a compile. Never use numba ``parallel=True``
  here: its thread pool does not survive a fork.
- the **compute pool** (see :mod:`solver.executors.pool`) runs expensive requests (Monte Carlo, batch)
  at a lower CPU priority, each under a hard deadline.

``--front none`` (``--no-proxy``) serves gunicorn directly on the port (the stack before
nginx), and ``--compute-workers 0`` runs expensive requests inside the web workers without a
deadline.

Stopping (SIGTERM, or Ctrl-C, which reaches only the supervisor: each child has its own
process group) is graceful, front first: it stops accepting and finishes the requests in
flight, then gunicorn's workers finish theirs, then the pool stops.
"""

from __future__ import annotations

import math
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from api.logs import LOG_FORMATS, configure_logging
from api.metrics import MULTIPROC_ENV, mark_process_dead
from api.proxy import (
    ProxyLimits,
    ProxyUnavailable,
    allowed_methods,
    check_config,
    find_nginx,
    start_nginx,
    write_config,
)
from solver.errors import InputError
from solver.executors.pool import (
    StopSignal,
    fork_child,
    raise_stop,
    start_pool,
    stop_pool,
    terminate,
)
from solver.validation import check_choice

FRONTS = ("auto", "nginx", "embedded", "none")
__all__ = ["FRONTS", "LOG_FORMATS", "ProxyLimits", "ServeConfig", "gunicorn_options", "serve"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 8
DEFAULT_KEEPALIVE = 5
DEFAULT_COMPUTE_WORKERS = 2
DEFAULT_COMPUTE_NICE = 10
DEFAULT_DEADLINE_S = 5.0
MAX_WORKERS = 64
MIN_GRACE_S = 10  # seconds: the least a stop waits for the requests in flight


def stop_grace(deadline: float) -> int:
    """How long a stopping front and gunicorn's workers wait for the requests in flight: the
    request deadline and 5 s (at least :data:`MIN_GRACE_S`), so that every request that has
    started gets its answer, its result or its deadline's error, also on a busy machine.

    >>> stop_grace(5.0), stop_grace(29.5)
    (10, 35)
    """
    return max(MIN_GRACE_S, math.ceil(deadline + 5.0))


def bind_address(host: str, port: int) -> str:
    """gunicorn's ``bind`` text; IPv6 literals need brackets.

    >>> bind_address("::1", 8000), bind_address("0.0.0.0", 80)
    ('[::1]:8000', '0.0.0.0:80')
    """
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


def gunicorn_options(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                     workers: int = DEFAULT_WORKERS, threads: int = DEFAULT_THREADS,
                     keepalive: int = DEFAULT_KEEPALIVE, log_level: str = "info",
                     unix_socket: str | None = None, log_format: str = "text",
                     deadline: float = DEFAULT_DEADLINE_S) -> dict[str, Any]:
    """The gunicorn settings of ``capsa serve``; ``unix_socket`` binds behind the proxy. On a
    stop, workers wait for their requests in flight for the request ``deadline`` and some (at
    least 10 s): every request that has started gets its answer, its result or its
    deadline's error, also on a busy machine.

    >>> gunicorn_options(port=9000, workers=1)["bind"]
    '127.0.0.1:9000'
    >>> o = gunicorn_options(unix_socket="/run/app.sock", threads=8)
    >>> o["bind"], o["worker_connections"]
    ('unix:/run/app.sock', 8)
    """
    behind_proxy = unix_socket is not None
    return {
        "bind": f"unix:{unix_socket}" if behind_proxy else bind_address(host, port),
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        # Behind nginx, a worker takes a connection only when a thread is free for it.
        "worker_connections": threads if behind_proxy else 1000,
        "preload_app": True,
        # the fronts' byte limits on the head decide (api.proxy.ProxyLimits): gunicorn's own
        # cap of 100 fields would refuse a head they let through, in HTML
        "limit_request_fields": 32768,
        "timeout": 30,
        "graceful_timeout": stop_grace(deadline),
        "keepalive": 0 if behind_proxy else keepalive,
        "loglevel": log_level,
        # One access line per answer is written by the app (api.logs), with the request id.
        "accesslog": None,
        "errorlog": "-",
        "child_exit": _child_exit,
        "proc_name": "capsa-serve",
        # gunicorn >= 24 opens a control socket at one fixed per-user path: two servers
        # (a test beside a running one) would fight over it. Not needed here.
        "control_socket_disable": True,
        "logconfig_dict": _gunicorn_json_logging(log_level) if log_format == "json" else None,
    }


def _gunicorn_json_logging(level: str) -> dict[str, Any]:
    """gunicorn's own messages as JSON lines too (``--log-format json``)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "api.logs.JsonFormatter"}},
        "handlers": {"json": {"class": "logging.StreamHandler", "formatter": "json",
                              "stream": "ext://sys.stderr"}},
        "root": {"level": level.upper(), "handlers": ["json"]},
        "loggers": {"gunicorn.error": {"handlers": ["json"], "level": level.upper(),
                                       "propagate": False}},
    }


def _child_exit(server: Any, worker: Any) -> None:
    """gunicorn hook: a worker ended, so its live gauges no longer count."""
    mark_process_dead(worker.pid)


def _application_class():
    from gunicorn.app.base import BaseApplication

    class CapsaApplication(BaseApplication):
        """gunicorn driven from Python: settings from a dict, the app from ``create_app``."""

        def __init__(self, options: dict[str, Any], app_factory=None):
            self.options = options
            self.app_factory = app_factory
            self.application = None
            super().__init__()

        def load_config(self) -> None:
            for key, value in self.options.items():
                if value is not None and key in self.cfg.settings:
                    self.cfg.set(key, value)

        def load(self):
            # With preload_app this runs once, in the master, before any worker forks.
            if self.application is None:
                if self.app_factory is None:
                    from api import create_app

                    self.app_factory = create_app
                app = self.app_factory()
                os.makedirs(app.instance_path, exist_ok=True)  # sessions.sqlite3
                self.application = app
            return self.application

    return CapsaApplication


def run_server(options: dict[str, Any], app_factory=None) -> None:
    """Run gunicorn in this process until SIGINT/SIGTERM (gunicorn exits via SystemExit)."""
    _application_class()(options, app_factory).run()


@dataclass(frozen=True)
class ServeConfig:
    """Everything ``capsa serve`` takes from its command line."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    workers: int = DEFAULT_WORKERS
    threads: int = DEFAULT_THREADS
    keepalive: int = DEFAULT_KEEPALIVE
    log_level: str = "info"
    access_log: bool = False
    log_format: str = "text"
    front: str = "auto"  # auto (nginx if installed, else embedded), nginx, embedded, none
    nginx: str | None = None
    compute_workers: int = DEFAULT_COMPUTE_WORKERS
    compute_nice: int = DEFAULT_COMPUTE_NICE
    deadline: float = DEFAULT_DEADLINE_S
    limits: ProxyLimits = field(default_factory=ProxyLimits)
    sessions_db: str | None = None  # default: sessions.sqlite3 in the app's instance folder


def _fork_gunicorn(options: dict[str, Any], app: Any) -> int:
    return fork_child(lambda: run_server(options, lambda: app))


def _wait_for_path(path: Path, pid: int, timeout: float) -> None:
    end = time.monotonic() + timeout
    while not path.exists():
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            raise RuntimeError(f"gunicorn exited with status {os.waitstatus_to_exitcode(status)} "
                               "before it listened")
        if time.monotonic() > end:
            raise RuntimeError(f"gunicorn did not listen within {timeout:g} s")
        time.sleep(0.02)


def check_port_free(host: str, port: int) -> None:
    """Fail at once, in one line, when the address is taken (before any warm-up or child)."""
    _listening_socket(host, port).close()


@dataclass(frozen=True)
class Front:
    """The front ``capsa serve`` runs: ``kind`` nginx, embedded or none; why, for the log."""

    kind: str
    nginx: str | None = None
    note: str = ""


def choose_front(config: ServeConfig) -> Front:
    """nginx where installed (or asked for), else the embedded front; ``none`` on request.

    >>> choose_front(ServeConfig(front="embedded")).kind, choose_front(ServeConfig(front="none")).kind
    ('embedded', 'none')
    """
    check_choice("front", config.front, FRONTS)
    if config.front == "none":
        return Front("none")
    if config.front == "nginx" or config.nginx:
        return Front("nginx", find_nginx(config.nginx))
    if config.front == "embedded":
        return Front("embedded")
    try:
        return Front("nginx", find_nginx())
    except ProxyUnavailable:
        return Front("embedded", note="nginx not found")


def _listening_socket(host: str, port: int) -> socket.socket:
    """The public socket, bound here so a taken port fails at once in one line."""
    bare = host.strip("[]")
    family = socket.AF_INET6 if ":" in bare else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((bare, port))
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot listen on {bind_address(host, port)}: "
                         f"{exc.strerror or exc}") from None
    return sock


def _fork_front(config: ServeConfig, app_socket: str, sock: socket.socket) -> int:
    """The embedded front in a child of its own (its own process group, like gunicorn)."""
    from api.front import FrontConfig, create_front, run_front

    threads = max(16, 2 * config.workers * config.threads + 8)
    front_config = FrontConfig(config.host, config.port, app_socket, threads, config.limits)
    grace = stop_grace(config.deadline)
    return fork_child(lambda: run_front(create_front(front_config, sock), grace))


def _describe(front: Front, config: ServeConfig) -> str:
    app = f"gunicorn ({config.workers} workers x {config.threads} threads)"
    if front.kind == "nginx":
        return f"nginx -> {app}"
    if front.kind == "embedded":
        why = f", {front.note}" if front.note else ""
        return f"embedded front (waitress{why}) -> {app}"
    return f"gunicorn ({config.workers} workers x {config.threads} threads, no proxy)"


def serve(config: ServeConfig) -> int:
    """Run the whole stack until SIGTERM/SIGINT (exit 0) or until a part of it dies (exit 1)."""
    configure_logging(config.log_format, config.log_level)  # refuses an unknown format
    front = choose_front(config)
    check_port_free(config.host, config.port)
    public: socket.socket | None = None  # the embedded front's, bound after the other forks
    runtime = Path(tempfile.mkdtemp(prefix="capsa-serve-"))  # 0700: private sockets
    # Several processes answer: their metrics are added up from files (set before the app).
    metrics_dir = runtime / "metrics"
    metrics_dir.mkdir()
    os.environ[MULTIPROC_ENV] = str(metrics_dir)
    children: dict[int, str] = {}
    nginx_proc = None
    old = {s: signal.signal(s, raise_stop) for s in (signal.SIGTERM, signal.SIGINT)}
    code = 0
    try:
        app_socket = runtime / "app.sock"
        compute_socket = runtime / "compute.sock"
        from api import create_app

        app = create_app({
            "COMPUTE_SOCKET": str(compute_socket) if config.compute_workers else None,
            "REQUEST_DEADLINE_S": config.deadline,
            # Per web worker: all of them together keep about 2 jobs per pool process.
            "COMPUTE_QUEUE": max(1, -(-2 * config.compute_workers // config.workers)),
            "ACCESS_LOG": config.access_log or config.log_format == "json",
            **({"SESSIONS_DB": config.sessions_db} if config.sessions_db else {}),
        })
        os.makedirs(app.instance_path, exist_ok=True)  # where sessions.sqlite3 lives
        if front.kind == "nginx":
            assert front.nginx is not None
            conf = write_config(runtime / "nginx", config.host, config.port, str(app_socket),
                                config.limits, allowed_methods(app))
            check_config(front.nginx, runtime / "nginx", conf)
        if config.compute_workers:
            children[start_pool(str(compute_socket), config.compute_workers,
                                config.compute_nice)] = "compute pool"
        behind = front.kind != "none"
        options = gunicorn_options(config.host, config.port, config.workers, config.threads,
                                   config.keepalive, config.log_level,
                                   unix_socket=str(app_socket) if behind else None,
                                   log_format=config.log_format, deadline=config.deadline)
        gunicorn_pid = _fork_gunicorn(options, app)
        children[gunicorn_pid] = "gunicorn"
        if behind:
            _wait_for_path(app_socket, gunicorn_pid, 60)
        if front.kind == "nginx":
            assert front.nginx is not None
            nginx_proc = start_nginx(front.nginx, runtime / "nginx", conf)
            children[nginx_proc.pid] = "front"
        elif front.kind == "embedded":
            public = _listening_socket(config.host, config.port)
            children[_fork_front(config, str(app_socket), public)] = "front"
            public.close()
        pool = (f"compute pool of {config.compute_workers} at nice +{config.compute_nice}, "
                f"deadline {config.deadline:g} s"
                if config.compute_workers else "no compute pool")
        print(f"capsa serve: http://{bind_address(config.host, config.port)} "
              f"({_describe(front, config)}; {pool})", file=sys.stderr, flush=True)
        while True:
            pid, status = os.wait()
            if pid in children:
                name = children.pop(pid)
                print(f"capsa serve: {name} exited with status "
                      f"{os.waitstatus_to_exitcode(status)}; stopping", file=sys.stderr, flush=True)
                code = 1
                break
    except StopSignal:
        pass
    finally:
        for s in old:
            signal.signal(s, signal.SIG_IGN)
        if public is not None:
            public.close()
        # Front first, gracefully: nginx on SIGQUIT and the embedded front on SIGTERM stop
        # accepting and finish the requests in flight, which gunicorn is still there to answer.
        front_signal = signal.SIGQUIT if front.kind == "nginx" else signal.SIGTERM
        for pid, name in list(children.items()):
            if name == "front":
                terminate(pid, front_signal, stop_grace(config.deadline) + 5)
        for pid, name in list(children.items()):
            if name == "gunicorn":
                terminate(pid, signal.SIGTERM, stop_grace(config.deadline) + 5)
        for pid, name in list(children.items()):
            if name == "compute pool":
                stop_pool(pid)
        if nginx_proc is not None:
            nginx_proc.returncode = nginx_proc.returncode or 0  # reaped above, not by Popen
        os.environ.pop(MULTIPROC_ENV, None)
        shutil.rmtree(runtime, ignore_errors=True)
        for s, handler in old.items():
            signal.signal(s, handler)
    return code
