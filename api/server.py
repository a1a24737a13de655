"""``capsa serve``: nginx in front, gunicorn behind it, a compute pool beside it.

Three process groups under one supervisor (this process):

- **nginx** (see :mod:`api.proxy`) owns the public port: it reads every request under header
  and body deadlines, caps connections, and passes only complete requests on.
- **gunicorn** listens on a private unix socket. Its ``gthread`` workers accept a connection
  only while they have a free thread (``worker_connections = threads``), so a busy worker
  never queues work that an idle one could take. The app is built and its numba kernels warmed
  once, before any fork, so no request pays a compile. Never use numba ``parallel=True``
  here: its thread pool does not survive a fork.
- the **compute pool** (see :mod:`api.compute`) runs expensive requests (Monte Carlo, batch)
  at a lower CPU priority, each under a hard deadline.

``--no-proxy`` serves gunicorn directly on the port (the stack before nginx), and
``--compute-workers 0`` runs expensive requests inside the web workers without a deadline.
"""

from __future__ import annotations

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

from api.compute import die_with_parent, start_pool, stop_pool, terminate
from api.proxy import (
    ProxyLimits,
    allowed_methods,
    check_config,
    find_nginx,
    start_nginx,
    write_config,
)
from solver.errors import InputError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 8
DEFAULT_KEEPALIVE = 5
DEFAULT_COMPUTE_WORKERS = 2
DEFAULT_COMPUTE_NICE = 10
DEFAULT_DEADLINE_S = 5.0
MAX_WORKERS = 64


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
                     access_log: bool = False, unix_socket: str | None = None) -> dict[str, Any]:
    """The gunicorn settings of ``capsa serve``; ``unix_socket`` binds behind the proxy.

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
        "timeout": 30,
        "graceful_timeout": 10,
        "keepalive": 0 if behind_proxy else keepalive,
        "loglevel": log_level,
        "accesslog": "-" if access_log else None,
        "errorlog": "-",
        "proc_name": "capsa-serve",
        # gunicorn >= 24 opens a control socket at one fixed per-user path: two servers
        # (a test beside a running one) would fight over it. Not needed here.
        "control_socket_disable": True,
    }


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
                self.application = self.app_factory()
                os.makedirs(self.application.instance_path, exist_ok=True)  # sessions.sqlite3
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
    proxy: bool = True
    nginx: str | None = None
    compute_workers: int = DEFAULT_COMPUTE_WORKERS
    compute_nice: int = DEFAULT_COMPUTE_NICE
    deadline: float = DEFAULT_DEADLINE_S
    limits: ProxyLimits = field(default_factory=ProxyLimits)
    sessions_db: str | None = None  # default: sessions.sqlite3 in the app's instance folder


class _Stop(Exception):
    pass


def _raise_stop(signum: int, frame: Any) -> None:
    raise _Stop


def _fork_gunicorn(options: dict[str, Any], app: Any) -> int:
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            die_with_parent(signal.SIGTERM)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            run_server(options, lambda: app)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # noqa: BLE001 - reported, then the child ends
            import traceback

            traceback.print_exc()
            code = 1
        finally:
            os._exit(code)
    return pid


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
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host.strip("[]"), port))
        except OSError as exc:
            raise InputError(f"cannot listen on {bind_address(host, port)}: "
                             f"{exc.strerror or exc}") from None


def serve(config: ServeConfig) -> int:
    """Run the whole stack until SIGTERM/SIGINT (exit 0) or until a part of it dies (exit 1)."""
    nginx_bin = find_nginx(config.nginx) if config.proxy else None
    check_port_free(config.host, config.port)
    runtime = Path(tempfile.mkdtemp(prefix="capsa-serve-"))  # 0700: private sockets
    children: dict[int, str] = {}
    nginx_proc = None
    old = {s: signal.signal(s, _raise_stop) for s in (signal.SIGTERM, signal.SIGINT)}
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
            **({"SESSIONS_DB": config.sessions_db} if config.sessions_db else {}),
        })
        os.makedirs(app.instance_path, exist_ok=True)  # where sessions.sqlite3 lives
        if nginx_bin:
            conf = write_config(runtime / "nginx", config.host, config.port, str(app_socket),
                                config.limits, allowed_methods(app))
            check_config(nginx_bin, runtime / "nginx", conf)
        if config.compute_workers:
            children[start_pool(str(compute_socket), config.compute_workers,
                                config.compute_nice)] = "compute pool"
        options = gunicorn_options(config.host, config.port, config.workers, config.threads,
                                   config.keepalive, config.log_level, config.access_log,
                                   unix_socket=str(app_socket) if nginx_bin else None)
        gunicorn_pid = _fork_gunicorn(options, app)
        children[gunicorn_pid] = "gunicorn"
        if nginx_bin:
            _wait_for_path(app_socket, gunicorn_pid, 60)
            nginx_proc = start_nginx(nginx_bin, runtime / "nginx", conf)
            children[nginx_proc.pid] = "nginx"
        stack = (f"nginx -> gunicorn ({config.workers} workers x {config.threads} threads)"
                 if nginx_bin else f"gunicorn ({config.workers} workers x {config.threads} "
                                   "threads, no proxy)")
        pool = (f"compute pool of {config.compute_workers} at nice +{config.compute_nice}, "
                f"deadline {config.deadline:g} s"
                if config.compute_workers else "no compute pool")
        print(f"capsa serve: http://{bind_address(config.host, config.port)} ({stack}; {pool})",
              file=sys.stderr, flush=True)
        while True:
            pid, status = os.wait()
            if pid in children:
                name = children.pop(pid)
                print(f"capsa serve: {name} exited with status "
                      f"{os.waitstatus_to_exitcode(status)}; stopping", file=sys.stderr, flush=True)
                code = 1
                break
    except _Stop:
        pass
    finally:
        for s in old:
            signal.signal(s, signal.SIG_IGN)
        for pid, name in list(children.items()):
            if name == "nginx":
                terminate(pid, signal.SIGTERM, 5)
        for pid, name in list(children.items()):
            if name == "gunicorn":
                terminate(pid, signal.SIGTERM, 15)
        for pid, name in list(children.items()):
            if name == "compute pool":
                stop_pool(pid)
        if nginx_proc is not None:
            nginx_proc.returncode = nginx_proc.returncode or 0  # reaped above, not by Popen
        shutil.rmtree(runtime, ignore_errors=True)
        for s, handler in old.items():
            signal.signal(s, handler)
    return code
