"""``capsa serve``: a buffering front, gunicorn and a compute pool (see :mod:`api.server`).

The front is nginx where it is installed, else the embedded one (waitress); the start line
says which. ``--front nginx`` without nginx refuses in one line (exit 2); ``--front none``
(or ``--no-proxy``) serves gunicorn alone, which slow clients can starve.
"""

from __future__ import annotations

import argparse

# The CLI reaches the service through one entry point, api.server.
from api.server import (
    DEFAULT_COMPUTE_NICE,
    DEFAULT_COMPUTE_WORKERS,
    DEFAULT_DEADLINE_S,
    DEFAULT_HOST,
    DEFAULT_KEEPALIVE,
    DEFAULT_PORT,
    DEFAULT_THREADS,
    DEFAULT_WORKERS,
    FRONTS,
    LOG_FORMATS,
    MAX_WORKERS,
    ProxyLimits,
    ServeConfig,
    gunicorn_options,
    serve,
)
from solver.cli.common import int_arg
from solver.errors import InputError
from solver.sessions.store import StorageUnavailable

MIN_DEADLINE_S, MAX_DEADLINE_S = 0.1, 600.0


def deadline_arg(text: str) -> float:
    """``--deadline`` seconds, from 0.1 to 600."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"deadline must be a number of seconds, got {text!r}") from None
    if not MIN_DEADLINE_S <= value <= MAX_DEADLINE_S:
        raise argparse.ArgumentTypeError(f"deadline must be between {MIN_DEADLINE_S:g} and {MAX_DEADLINE_S:g} "
                         f"seconds, got {text}")
    return value


def config_from_args(args: argparse.Namespace) -> ServeConfig:
    limits = ProxyLimits(max_connections=args.max_connections,
                         keepalive_timeout=args.keepalive)
    return ServeConfig(host=args.host, port=args.port, workers=args.workers,
                       threads=args.threads, keepalive=args.keepalive, log_level=args.log_level,
                       access_log=args.access_log, log_format=args.log_format,
                       front="none" if args.no_proxy else args.front, nginx=args.nginx,
                       compute_workers=args.compute_workers, compute_nice=args.compute_nice,
                       deadline=args.deadline, limits=limits,
                       sessions_db=args.sessions_db)


def options_from_args(args: argparse.Namespace) -> dict:
    """gunicorn's settings for ``--front none`` (the port is gunicorn's own)."""
    return gunicorn_options(host=args.host, port=args.port, workers=args.workers,
                            threads=args.threads, keepalive=args.keepalive,
                            log_level=args.log_level, deadline=args.deadline)


def run(args: argparse.Namespace) -> int:
    if args.tables is not None:
        from solver.games.capsa.strategy.tables import use_tables

        use_tables(args.tables)  # every process of the service inherits it (CAPSA_TABLES)
    try:
        return serve(config_from_args(args))
    except StorageUnavailable as exc:  # checked when the app is built: refuse in one line
        raise InputError(f"cannot start: {exc}") from None


def add(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``serve [--host H] [--port P] [--workers N] ...``.

    >>> from solver.cli import build_parser
    >>> args = build_parser().parse_args(["serve", "--port", "9000", "--workers", "1"])
    >>> options_from_args(args)["bind"], options_from_args(args)["workers"]
    ('127.0.0.1:9000', 1)
    >>> config_from_args(args).front, config_from_args(args).deadline
    ('auto', 5.0)
    >>> config_from_args(build_parser().parse_args(["serve", "--no-proxy"])).front
    'none'
    """
    p = sub.add_parser(
        "serve", help="run the HTTP API (a buffering front before gunicorn, and a compute pool)",
        description="Serve the JSON API, the web page at / and the docs at /docs. A front "
                    "(nginx where installed, else the embedded waitress) reads each request "
                    "under deadlines and hands complete ones to gunicorn; Monte Carlo and "
                    "batch requests run in a separate pool under --deadline.")
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"address to listen on (default {DEFAULT_HOST})")
    p.add_argument("--port", type=int_arg("port", 1, 65535), default=DEFAULT_PORT,
                   help=f"TCP port (default {DEFAULT_PORT})")
    p.add_argument("--workers", type=int_arg("workers", 1, MAX_WORKERS), default=DEFAULT_WORKERS,
                   help=f"gunicorn worker processes (default {DEFAULT_WORKERS})")
    p.add_argument("--threads", type=int_arg("threads", 1, 64), default=DEFAULT_THREADS,
                   help=f"threads per worker (default {DEFAULT_THREADS})")
    p.add_argument("--compute-workers", type=int_arg("compute-workers", 0, MAX_WORKERS),
                   default=DEFAULT_COMPUTE_WORKERS,
                   help="processes for Monte Carlo and batch requests; 0 runs them in the web "
                        f"workers with no deadline (default {DEFAULT_COMPUTE_WORKERS})")
    p.add_argument("--compute-nice", type=int_arg("compute-nice", 0, 19),
                   default=DEFAULT_COMPUTE_NICE,
                   help="how much lower the pool's CPU priority is than the web workers' "
                        f"(nice increment, default {DEFAULT_COMPUTE_NICE})")
    p.add_argument("--deadline", type=deadline_arg, default=DEFAULT_DEADLINE_S,
                   help="seconds a Monte Carlo or batch request may run before it is stopped "
                        f"and answered 503 (default {DEFAULT_DEADLINE_S:g})")
    p.add_argument("--keepalive", type=int_arg("keepalive", 0, 300), default=DEFAULT_KEEPALIVE,
                   help="seconds an idle client connection stays open "
                        f"(default {DEFAULT_KEEPALIVE})")
    p.add_argument("--max-connections", type=int_arg("max-connections", 64, 65536),
                   default=ProxyLimits.max_connections,
                   help="cap on the front's open connections (default "
                        f"{ProxyLimits.max_connections})")
    p.add_argument("--front", choices=FRONTS, default="auto",
                   help="what reads requests before gunicorn: nginx, embedded (waitress), "
                        "none, or auto: nginx where installed, else embedded (default auto)")
    p.add_argument("--nginx", metavar="PATH", default=None,
                   help="the nginx binary (implies --front nginx; default: nginx on PATH, "
                        "then /usr/sbin/nginx)")
    p.add_argument("--no-proxy", action="store_true",
                   help="the same as --front none: gunicorn directly on the port (slow clients "
                        "can then hold its threads)")
    p.add_argument("--log-level", default="info",
                   choices=["debug", "info", "warning", "error", "critical"])
    p.add_argument("--log-format", choices=LOG_FORMATS, default="text",
                   help="text, or json: one JSON object per line, access lines included, "
                        "each with its request id (default text)")
    p.add_argument("--tables", metavar="FILE", default=None,
                   help="the tables file every Capsa table decision plays (from capsa train; "
                        "default: the shipped one); answers name it")
    p.add_argument("--sessions-db", metavar="PATH",
                   help="SQLite file of the game sessions (default: sessions.sqlite3 in the "
                        "instance folder, created at start)")
    p.add_argument("--access-log", action="store_true",
                   help="log one line per request to stderr (on with --log-format json)")
    p.set_defaults(func=run)
    return p
