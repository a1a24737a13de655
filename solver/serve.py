"""``capsa serve``: the HTTP API under gunicorn, kernels compiled once before the fork.

The app is built (and its numba kernels warmed by ``api.create_app``) in the gunicorn
master with ``preload_app=True``; each worker is a fork that inherits the compiled code, so
no request pays a compile. Workers use threads (``gthread``): kernels release the GIL
(``nogil``), and a slow client cannot hold a whole worker. Never use numba
``parallel=True`` here: its thread pool does not survive a fork.

>>> import argparse
>>> sub = argparse.ArgumentParser(prog="capsa").add_subparsers()
>>> p = add_serve_command(sub)
>>> args = p.parse_args(["--port", "9000", "--workers", "1"])
>>> gunicorn_options(args)["bind"], gunicorn_options(args)["workers"]
('127.0.0.1:9000', 1)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from solver.errors import InputError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 4
DEFAULT_KEEPALIVE = 5
MAX_WORKERS = 64


def _bounded_int(low: int, high: int, what: str):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be an integer, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be between {low} and {high}, got {value}")
        return value

    parse.__name__ = what
    return parse


def bind_address(host: str, port: int) -> str:
    """gunicorn's ``bind`` text; IPv6 literals need brackets.

    >>> bind_address("::1", 8000), bind_address("0.0.0.0", 80)
    ('[::1]:8000', '0.0.0.0:80')
    """
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


def gunicorn_options(args: argparse.Namespace) -> dict[str, Any]:
    """The gunicorn settings for parsed ``capsa serve`` arguments."""
    return {
        "bind": bind_address(args.host, args.port),
        "workers": args.workers,
        "worker_class": "gthread",
        "threads": args.threads,
        "preload_app": True,
        "timeout": 30,
        "graceful_timeout": 10,
        "keepalive": args.keepalive,
        "loglevel": args.log_level,
        "accesslog": "-" if args.access_log else None,
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
            return self.application

    return CapsaApplication


def run_server(options: dict[str, Any], app_factory=None) -> None:
    """Run gunicorn in this process until SIGINT/SIGTERM (gunicorn exits via SystemExit)."""
    _application_class()(options, app_factory).run()


def _cmd_serve(args: argparse.Namespace) -> int:
    run_server(gunicorn_options(args))
    return 0


def add_serve_command(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``serve [--host H] [--port P] [--workers N]`` to the ``capsa`` command."""
    p = subparsers.add_parser(
        "serve", help="run the HTTP API (gunicorn; kernels compiled before the workers fork)",
        description="Serve the JSON API, the web page at / and the docs at /docs.")
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"address to listen on (default {DEFAULT_HOST})")
    p.add_argument("--port", type=_bounded_int(0, 65535, "port"), default=DEFAULT_PORT,
                   help=f"TCP port (default {DEFAULT_PORT})")
    p.add_argument("--workers", type=_bounded_int(1, MAX_WORKERS, "workers"),
                   default=DEFAULT_WORKERS,
                   help=f"worker processes (default {DEFAULT_WORKERS})")
    p.add_argument("--threads", type=_bounded_int(1, 64, "threads"), default=DEFAULT_THREADS,
                   help=f"threads per worker (default {DEFAULT_THREADS})")
    p.add_argument("--keepalive", type=_bounded_int(0, 300, "keepalive"), default=DEFAULT_KEEPALIVE,
                   help="seconds an idle connection stays open; 0 closes after each response "
                        f"(default {DEFAULT_KEEPALIVE})")
    p.add_argument("--log-level", default="info",
                   choices=["debug", "info", "warning", "error", "critical"])
    p.add_argument("--access-log", action="store_true", help="log each request to stderr")
    p.set_defaults(func=_cmd_serve)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m solver.serve`` (same options as ``capsa serve``)."""
    parser = argparse.ArgumentParser(prog="capsa-serve")
    sub = parser.add_subparsers(dest="command")
    add_serve_command(sub)
    try:
        args = parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)])
        return int(args.func(args) or 0)
    except InputError as exc:
        print(f"capsa: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
