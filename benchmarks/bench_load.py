"""Load benchmark of the HTTP service: ``capsa serve`` (gunicorn, 2 workers) on loopback.

Starts the real server on a free 127.0.0.1 port, waits for /healthz, times the FIRST
``POST /v1/capsa/arrange`` (no request may pay a numba compile), then drives
``/v1/capsa/arrange`` (method table, random hands) from N concurrent keep-alive clients
for a fixed time and reports requests/s, p50/p99 latency and errors. The baseline on the
same hands is the app called in-process, one request at a time (Flask test client, no
HTTP), so the ratio shows what the server and its workers add.

Issue targets: first arrange < 100 ms, p99 < 50 ms at 20 concurrent clients, zero errors.

    .venv/bin/python benchmarks/bench_load.py [--clients 20] [--duration 15] [--workers 2]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import http.client
import json
import multiprocessing
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"  # traffic never leaves loopback
RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
TARGET_FIRST_MS = 100.0
TARGET_P99_MS = 50.0


def random_hands(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.sample(DECK, 13)) for _ in range(n)]


def body_for(hand: str) -> bytes:
    return json.dumps({"hand": hand, "rules": "standard", "opponents": 3,
                       "method": "table", "top": 5}).encode()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def serve_command(port: int, workers: int, threads: int | None,
                  extra: list[str] | None = None) -> list[str]:
    """``capsa serve`` through solver.cli, or api.server itself until the CLI has it."""
    from solver import cli

    try:
        cli.build_parser().parse_args(["serve", "--port", "1"])
        module = ["-m", "solver.cli", "serve"]
    except Exception:  # noqa: BLE001 - the sub-command is not wired into the CLI yet
        module = ["-m", "api.server"]
    return [sys.executable, *module, "--host", HOST, "--port", str(port),
            "--workers", str(workers), "--log-level", "warning",
            *(["--threads", str(threads)] if threads else []), *(extra or [])]


def request(conn: http.client.HTTPConnection, method: str, path: str,
            body: bytes | None = None) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, body=body, headers=headers)
    resp = conn.getresponse()
    return resp.status, resp.read()


def wait_healthy(proc: subprocess.Popen, port: int, timeout: float) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with status {proc.returncode}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=5)
            status, _ = request(conn, "GET", "/healthz")
            conn.close()
            if status == 200:
                return time.perf_counter() - start
        except OSError:
            pass
        time.sleep(0.05)
    raise SystemExit(f"server not healthy after {timeout:.0f} s")


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.errors: list[str] = []


def client_loop(port: int, hands: list[str], offset: int, stop_at: float, stats: Stats) -> None:
    """One keep-alive client sending arrange requests back to back until ``stop_at``."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    local: list[float] = []
    errors: list[str] = []
    i = offset
    while time.time() < stop_at:
        body = body_for(hands[i % len(hands)])
        i += 1
        t0 = time.perf_counter()
        try:
            status, data = request(conn, "POST", "/v1/capsa/arrange", body)
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            continue
        local.append(time.perf_counter() - t0)
        if status != 200:
            errors.append(f"HTTP {status}: {data[:200]!r}")
    conn.close()
    with stats.lock:
        stats.latencies.extend(local)
        stats.errors.extend(errors)


def client_process(port: int, hands: list[str], offsets: list[int],
                   stop_at: float) -> tuple[list[float], list[str]]:
    """Several clients as threads of one process (spread over processes: one GIL is a
    bottleneck that would show up as server latency)."""
    stats = Stats()
    threads = [threading.Thread(target=client_loop, args=(port, hands, k, stop_at, stats))
               for k in offsets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return stats.latencies, stats.errors


def run_load(port: int, hands: list[str], clients: int, procs: int,
             duration: float) -> tuple[list[float], list[str], float]:
    """``clients`` concurrent clients spread over ``procs`` processes for ``duration`` s."""
    procs = max(1, min(procs, clients))
    offsets = [[k * 97 for k in range(clients) if k % procs == p] for p in range(procs)]
    ctx = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(procs, mp_context=ctx) as pool:
        stop_at = time.time() + duration + 0.2  # wall clock: shared by every process
        start = time.time()
        futures = [pool.submit(client_process, port, hands, o, stop_at) for o in offsets]
        latencies: list[float] = []
        errors: list[str] = []
        for f in futures:
            lat, err = f.result()
            latencies.extend(lat)
            errors.extend(err)
        elapsed = max(time.time(), stop_at) - start
    return latencies, errors, elapsed


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def in_process_baseline(hands: list[str], seconds: float) -> tuple[float, int]:
    """Mean seconds per arrange request through the Flask test client, sequentially."""
    from api import create_app

    client = create_app({"TESTING": True}).test_client()
    client.post("/v1/capsa/arrange", data=body_for(hands[0]), content_type="application/json")
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        resp = client.post("/v1/capsa/arrange", data=body_for(hands[n % len(hands)]),
                           content_type="application/json")
        if resp.status_code != 200:
            raise SystemExit(f"in-process arrange failed: {resp.status_code} {resp.data[:200]!r}")
        n += 1
    return (time.perf_counter() - start) / n, n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--duration", type=float, default=15.0, help="seconds of load")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=None,
                    help="threads per worker (default: capsa serve's default)")
    ap.add_argument("--serve-args", nargs=argparse.REMAINDER, default=[],
                    help="further `capsa serve` options, e.g. --serve-args --keepalive 0")
    ap.add_argument("--client-procs", type=int, default=4,
                    help="processes the clients are spread over (threads within each)")
    ap.add_argument("--baseline", type=float, default=3.0, help="seconds of in-process baseline")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--startup-timeout", type=float, default=180.0)
    args = ap.parse_args(argv)

    hands = random_hands(4096, args.seed)
    port = free_port()
    cmd = serve_command(port, args.workers, args.threads, args.serve_args)
    print(f"server: {' '.join(Path(c).name if c == sys.executable else c for c in cmd)}")
    t_launch = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        wait_healthy(proc, port, args.startup_timeout)
        startup = time.perf_counter() - t_launch
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        t0 = time.perf_counter()
        status, data = request(conn, "POST", "/v1/capsa/arrange", body_for(hands[-1]))
        first_ms = (time.perf_counter() - t0) * 1000
        conn.close()
        if status != 200:
            print(f"first arrange failed: HTTP {status} {data[:300]!r}")
            return 1
        # A fresh connection per request lands on each worker: the worst first hit of any.
        firsts = []
        for hand in hands[-9:-1]:
            c = http.client.HTTPConnection(HOST, port, timeout=30)
            t0 = time.perf_counter()
            request(c, "POST", "/v1/capsa/arrange", body_for(hand))
            firsts.append((time.perf_counter() - t0) * 1000)
            c.close()

        latencies, errors, elapsed = run_load(port, hands, args.clients, args.client_procs,
                                              args.duration)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()

    lat_ms = [x * 1000 for x in latencies]
    n = len(lat_ms)
    rps = n / elapsed
    p50, p99 = percentile(lat_ms, 50), percentile(lat_ms, 99)
    per_req_s, base_n = in_process_baseline(hands, args.baseline)
    base_rps = 1 / per_req_s

    print(f"startup to healthy: {startup:.1f} s; server exit status {code}")
    print(f"first arrange:        {first_ms:7.1f} ms   (target < {TARGET_FIRST_MS:.0f} ms)"
          f"   {'OK' if first_ms < TARGET_FIRST_MS else 'MISSED'}")
    print(f"next 8 cold conns:    max {max(firsts):.1f} ms, median {statistics.median(firsts):.1f} ms")
    print(f"load: {args.clients} clients x {elapsed:.1f} s, {args.workers} workers, "
          f"{os.cpu_count()} CPUs")
    print(f"{'':24}{'requests/s':>12}{'p50 ms':>10}{'p99 ms':>10}{'mean ms':>10}{'errors':>8}")
    print(f"{'server (HTTP, conc.)':24}{rps:12.1f}{p50:10.2f}{p99:10.2f}"
          f"{statistics.fmean(lat_ms):10.2f}{len(errors):8d}")
    print(f"{'in-process, sequential':24}{base_rps:12.1f}{per_req_s * 1000:10.2f}{'':10}"
          f"{per_req_s * 1000:10.2f}{0:8d}   ({base_n} requests)")
    print(f"ratio server/in-process throughput: {rps / base_rps:.2f}x")
    print(f"p99 target < {TARGET_P99_MS:.0f} ms: {'OK' if p99 < TARGET_P99_MS else 'MISSED'}; "
          f"errors: {'OK' if not errors else 'MISSED'}")
    for err in sorted(set(errors))[:5]:
        print(f"  error: {err}")
    return 0 if not errors and code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
