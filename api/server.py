"""``capsa serve``: the HTTP API under gunicorn, kernels compiled once before the fork.

The app is built (and its numba kernels warmed by ``api.create_app``) in the gunicorn
master with ``preload_app=True``; each worker is a fork that inherits the compiled code, so
no request pays a compile. Workers use threads (``gthread``): kernels release the GIL
(``nogil``), and a slow client cannot hold a whole worker. Never use numba
``parallel=True`` here: its thread pool does not survive a fork.
"""

from __future__ import annotations

import os
from typing import Any

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 4
DEFAULT_KEEPALIVE = 5
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
                     access_log: bool = False) -> dict[str, Any]:
    """The gunicorn settings of ``capsa serve``.

    >>> gunicorn_options(port=9000, workers=1)["bind"]
    '127.0.0.1:9000'
    """
    return {
        "bind": bind_address(host, port),
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "preload_app": True,
        "timeout": 30,
        "graceful_timeout": 10,
        "keepalive": keepalive,
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
