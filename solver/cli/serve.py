"""``capsa serve``: the HTTP API under gunicorn (see :mod:`api.server`)."""

from __future__ import annotations

import argparse

from api.server import (
    DEFAULT_HOST,
    DEFAULT_KEEPALIVE,
    DEFAULT_PORT,
    DEFAULT_THREADS,
    DEFAULT_WORKERS,
    MAX_WORKERS,
    gunicorn_options,
    run_server,
)
from solver.cli.common import int_arg


def options_from_args(args: argparse.Namespace) -> dict:
    return gunicorn_options(host=args.host, port=args.port, workers=args.workers,
                            threads=args.threads, keepalive=args.keepalive,
                            log_level=args.log_level, access_log=args.access_log)


def run(args: argparse.Namespace) -> int:
    factory = None
    if args.sessions_db:
        from api import create_app

        def factory():
            return create_app({"SESSIONS_DB": args.sessions_db})
    run_server(options_from_args(args), factory)
    return 0


def add(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``serve [--host H] [--port P] [--workers N]``.

    >>> from solver.cli import build_parser
    >>> args = build_parser().parse_args(["serve", "--port", "9000", "--workers", "1"])
    >>> options_from_args(args)["bind"], options_from_args(args)["workers"]
    ('127.0.0.1:9000', 1)
    """
    p = sub.add_parser(
        "serve", help="run the HTTP API (gunicorn; kernels compiled before the workers fork)",
        description="Serve the JSON API, the web page at / and the docs at /docs.")
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"address to listen on (default {DEFAULT_HOST})")
    p.add_argument("--port", type=int_arg("port", 0, 65535), default=DEFAULT_PORT,
                   help=f"TCP port (default {DEFAULT_PORT})")
    p.add_argument("--workers", type=int_arg("workers", 1, MAX_WORKERS), default=DEFAULT_WORKERS,
                   help=f"worker processes (default {DEFAULT_WORKERS})")
    p.add_argument("--threads", type=int_arg("threads", 1, 64), default=DEFAULT_THREADS,
                   help=f"threads per worker (default {DEFAULT_THREADS})")
    p.add_argument("--keepalive", type=int_arg("keepalive", 0, 300), default=DEFAULT_KEEPALIVE,
                   help="seconds an idle connection stays open; 0 closes after each response "
                        f"(default {DEFAULT_KEEPALIVE})")
    p.add_argument("--log-level", default="info",
                   choices=["debug", "info", "warning", "error", "critical"])
    p.add_argument("--sessions-db", metavar="PATH",
                   help="SQLite file of the game sessions (default: sessions.sqlite3 in the "
                        "instance folder, created at start)")
    p.add_argument("--access-log", action="store_true", help="log each request to stderr")
    p.set_defaults(func=run)
    return p
