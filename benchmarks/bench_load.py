"""Load benchmark of the HTTP service: the served stacks against the stack before them, one run.

The stacks, each the real ``capsa serve`` on a free 127.0.0.1 port:

- ``before``: gunicorn directly on the port, 2 workers x 4 threads, expensive requests in the
  web threads (``--no-proxy --compute-workers 0 --threads 4``), as served before nginx;
- ``now``: nginx -> gunicorn (2 x 8 threads, a worker accepts only with a free thread) and a
  compute pool of 2 processes at nice +10 for Monte Carlo, batch and move listings, 5 s
  deadline (``capsa serve``'s defaults where nginx is installed);
- ``embedded``: the same with the embedded front (waitress) instead of nginx (the default
  where nginx is not installed);
- ``now-nice0``: the same with the pool at the web workers' priority (``--compute-nice 0``):
  on a machine shared with other busy programs a niced pool gets little CPU.

For each stack, two mixes at 20 and 50 keep-alive clients for ``--duration`` seconds: ``table``
(only table arranges of random hands) and ``mc10`` (10% 1,000-sample Monte Carlo arranges, the
issue's case). All stacks run at once and the rows alternate between them (``--rounds``
times), so they share the same background load. Reported per row: requests/s, p50/p99 per
request kind, Monte Carlo answered/refused, errors, then the ratios to ``before``. Absolute
figures are noisy on a shared machine; the ratios, measured in the same run, are the result.

``--slow`` adds the attack of ``tests/test_serve_slow_clients.py`` against each stack: 200
slow-header, 200 slow-body and 200 idle connections plus 8 of the costliest legal Monte Carlo
requests, while ``/healthz`` and a table arrange are probed (2 s timeout each).

    .venv/bin/python benchmarks/bench_load.py [--duration 5] [--rounds 2] [--clients 20 50] [--slow]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from solver.executors.pool import local_executor  # noqa: E402 - after the path is set

HOST = "127.0.0.1"  # traffic never leaves loopback
RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
STACKS = {
    "before": ["--no-proxy", "--compute-workers", "0", "--threads", "4"],
    "now": ["--front", "nginx"],
    "embedded": ["--front", "embedded"],
    "now-nice0": ["--compute-nice", "0"],  # the pool at the web workers' priority
}
MIXES = {"table": 0.0, "mc10": 0.10}
MC_SAMPLES = 1000


def random_hands(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.sample(DECK, 13)) for _ in range(n)]


def body_for(hand: str, kind: str, seed: int) -> bytes:
    if kind == "mc":
        return json.dumps({"hand": hand, "method": "montecarlo", "samples": MC_SAMPLES,
                           "seed": seed, "top": 1}).encode()
    return json.dumps({"hand": hand, "rules": "standard", "opponents": 3,
                       "method": "table", "top": 5}).encode()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def request(conn: http.client.HTTPConnection, method: str, path: str,
            body: bytes | None = None) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, body=body, headers=headers)
    resp = conn.getresponse()
    return resp.status, resp.read()


class Served:
    """``capsa serve`` with extra options, as a child process."""

    def __init__(self, extra: list[str], timeout: float):
        self.port = free_port()
        cmd = [sys.executable, "-m", "solver.cli", "serve", "--host", HOST, "--port",
               str(self.port), "--log-level", "warning", *extra]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        start = time.perf_counter()
        while time.perf_counter() - start < timeout:
            if self.proc.poll() is not None:
                raise SystemExit(f"capsa serve {' '.join(extra)} exited with {self.proc.returncode}")
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=5)
                status, _ = request(conn, "GET", "/healthz")
                conn.close()
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise SystemExit(f"server not healthy after {timeout:.0f} s")

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def client_loop(port: int, hands: list[str], offset: int, mc_share: float, stop_at: float,
                out: dict) -> None:
    """One keep-alive client sending requests back to back until ``stop_at``."""
    rng = random.Random(offset)
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    lat: dict[str, list[float]] = {"table": [], "mc": []}
    errors: dict[str, list[str]] = {"table": [], "mc": []}
    ok = {"table": 0, "mc": 0}
    i = offset
    while time.time() < stop_at:
        kind = "mc" if rng.random() < mc_share else "table"
        body = body_for(hands[i % len(hands)], kind, i)
        i += 1
        t0 = time.perf_counter()
        try:
            status, data = request(conn, "POST", "/v1/capsa/arrange", body)
        except (OSError, http.client.HTTPException) as exc:
            errors[kind].append(f"{type(exc).__name__}: {exc}")
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=60)
            continue
        lat[kind].append(time.perf_counter() - t0)
        ok[kind] += status == 200
        if status != 200:
            errors[kind].append(f"HTTP {status}: {data[:120]!r}")
    conn.close()
    with out["lock"]:
        for k in lat:
            out["lat"][k].extend(lat[k])
            out["err"][k].extend(errors[k])
            out["ok"][k] += ok[k]


def client_process(port: int, hands: list[str], offsets: list[int], mc_share: float,
                   stop_at: float) -> tuple[dict, dict]:
    """Several clients as threads of one process (one GIL would cap a single process)."""
    out = {"lock": threading.Lock(), "lat": {"table": [], "mc": []},
           "err": {"table": [], "mc": []}, "ok": {"table": 0, "mc": 0}}
    threads = [threading.Thread(target=client_loop,
                                args=(port, hands, k, mc_share, stop_at, out)) for k in offsets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out["lat"], out["err"], out["ok"]


def run_load(port: int, hands: list[str], clients: int, mc_share: float, duration: float,
             procs: int) -> dict:
    procs = max(1, min(procs, clients))
    offsets = [[k * 97 for k in range(clients) if k % procs == p] for p in range(procs)]
    lat: dict[str, list[float]] = {"table": [], "mc": []}
    err: dict[str, list[str]] = {"table": [], "mc": []}
    ok = {"table": 0, "mc": 0}
    # the client processes: the project's pool (started once, kept for the next row)
    with local_executor(procs) as pool:
        stop_at = time.time() + duration + 0.3
        start = time.time()
        futures = [pool.submit(client_process, port, hands, o, mc_share, stop_at) for o in offsets]
        for f in futures:
            part_lat, part_err, part_ok = f.result()
            for k in lat:
                lat[k].extend(part_lat[k])
                err[k].extend(part_err[k])
                ok[k] += part_ok[k]
        elapsed = max(time.time(), stop_at) - start
    return {"lat": lat, "err": err, "ok": ok, "elapsed": elapsed,
            "rps": sum(len(v) for v in lat.values()) / elapsed}


def merge(results: dict, key: tuple, r: dict) -> None:
    """Pool one more run of a row into its totals (latencies, errors, counts, time)."""
    if key not in results:
        results[key] = r
        return
    acc = results[key]
    for k in acc["lat"]:
        acc["lat"][k].extend(r["lat"][k])
        acc["err"][k].extend(r["err"][k])
        acc["ok"][k] += r["ok"][k]
    acc["elapsed"] += r["elapsed"]
    acc["rps"] = sum(len(v) for v in acc["lat"].values()) / acc["elapsed"]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def slow_attack(port: int, seconds: float) -> dict:
    """Probe /healthz and a table arrange under the slow-client attack with 8 costly requests."""
    from test_serve_slow_clients import HAND, SlowClients, worst_legal_request

    worst = json.dumps(worst_legal_request()).encode()
    stop = threading.Event()
    heavy_codes: list[int] = []

    def heavy() -> None:
        while not stop.is_set():
            try:
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
                status, data = request(conn, "POST", "/v1/capsa/arrange", worst)
                conn.close()
            except OSError:
                status, data = 0, b""
            heavy_codes.append(status)
            if b"compute_busy" in data:
                time.sleep(0.2)  # refused at once: come back, as the test's clients do

    probes: dict[str, list[float]] = {"healthz": [], "arrange": []}
    failed = {"healthz": 0, "arrange": 0}
    with SlowClients(port, 200, 200, 200):
        threads = [threading.Thread(target=heavy, daemon=True) for _ in range(8)]
        for t in threads:
            t.start()
        time.sleep(1.5)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for kind, (method, path, body) in {
                "healthz": ("GET", "/healthz", None),
                "arrange": ("POST", "/v1/capsa/arrange", body_for(HAND, "table", 0)),
            }.items():
                t0 = time.perf_counter()
                try:
                    conn = http.client.HTTPConnection(HOST, port, timeout=2)
                    status, _ = request(conn, method, path, body)
                    conn.close()
                except OSError:
                    status = 0
                if status == 200:
                    probes[kind].append((time.perf_counter() - t0) * 1000)
                else:
                    failed[kind] += 1
            time.sleep(0.02)
        stop.set()
    return {"probes": probes, "failed": failed,
            "heavy": {c: heavy_codes.count(c) for c in sorted(set(heavy_codes))}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duration", type=float, default=5.0, help="seconds of load per row and round")
    ap.add_argument("--rounds", type=int, default=2, help="times each row is measured, stacks alternating")
    ap.add_argument("--clients", type=int, nargs="+", default=[20, 50])
    ap.add_argument("--client-procs", type=int, default=4)
    ap.add_argument("--stacks", nargs="+", choices=list(STACKS), default=list(STACKS))
    ap.add_argument("--slow", action="store_true", help="also run the slow-client attack")
    ap.add_argument("--slow-seconds", type=float, default=8.0)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--startup-timeout", type=float, default=180.0)
    args = ap.parse_args(argv)

    hands = random_hands(4096, args.seed)
    results: dict[tuple[str, str, int], dict] = {}
    attacks: dict[str, dict] = {}
    # Every stack runs for the whole benchmark and the rows alternate between them, round
    # after round, so each stack sees the same background load of a shared machine.
    served = {stack: Served(STACKS[stack], args.startup_timeout) for stack in args.stacks}
    try:
        for _ in range(args.rounds):
            for mix, share in MIXES.items():
                for clients in args.clients:
                    for stack, srv in served.items():
                        r = run_load(srv.port, hands, clients, share, args.duration,
                                     args.client_procs)
                        merge(results, (stack, mix, clients), r)
        if args.slow:
            for stack, srv in served.items():
                attacks[stack] = slow_attack(srv.port, args.slow_seconds)
    finally:
        codes = {stack: srv.stop() for stack, srv in served.items()}
    for stack, code in codes.items():
        if code != 0:
            print(f"{stack}: capsa serve exited with status {code}")

    print(f"{os.cpu_count()} CPUs; {args.rounds} rounds x {args.duration:g} s per row, stacks "
          f"alternating; Monte Carlo = {MC_SAMPLES} samples")
    print("req/s counts answered requests (any status); Monte Carlo: ok = 200, busy = 503 "
          "compute_busy (refused at once), late = any other failure (503 past the deadline); ms")
    print(f"{'stack':11}{'mix':7}{'clients':>8}{'req/s':>8}{'table p50':>10}{'table p99':>10}"
          f"{'mc p50':>8}{'mc p99':>8}{'mc ok':>7}{'mc busy':>8}{'mc late':>8}{'tbl err':>8}")
    for (stack, mix, clients), r in results.items():
        t, m = [x * 1000 for x in r["lat"]["table"]], [x * 1000 for x in r["lat"]["mc"]]
        mc_err = len(r["err"]["mc"])
        busy = sum("compute_busy" in e for e in r["err"]["mc"])
        mc = f"{percentile(m, 50):8.0f}{percentile(m, 99):8.0f}" if m else f"{'-':>8}{'-':>8}"
        print(f"{stack:11}{mix:7}{clients:8d}{r['rps']:8.0f}{percentile(t, 50):10.1f}"
              f"{percentile(t, 99):10.1f}{mc}{r['ok']['mc']:7d}{busy:8d}{mc_err - busy:8d}"
              f"{len(r['err']['table']):8d}")
    for now in [s for s in args.stacks if s != "before"]:
        if "before" not in args.stacks:
            break
        print(f"ratios {now}/before:")
        for mix in MIXES:
            for clients in args.clients:
                a, b = results[now, mix, clients], results["before", mix, clients]
                p_a = percentile(a["lat"]["table"], 99)
                p_b = percentile(b["lat"]["table"], 99)
                print(f"  {mix:6} {clients:3d} clients: throughput {a['rps'] / b['rps']:.2f}x, "
                      f"table p50 {percentile(a['lat']['table'], 50) / percentile(b['lat']['table'], 50):.2f}x, "
                      f"table p99 {p_a / p_b:.2f}x")
    for stack, r in attacks.items():
        parts = []
        for kind, ms in r["probes"].items():
            ok = len(ms)
            p99 = f"p99 {percentile(ms, 99):.1f} ms" if ms else "no answer"
            parts.append(f"{kind} {ok}/{ok + r['failed'][kind]} answered, {p99}")
        print(f"slow-client attack, {stack}: " + "; ".join(parts) + f"; costly requests {r['heavy']}")
    for key, r in results.items():
        for err in sorted(set(r["err"]["table"] + r["err"]["mc"]))[:3]:
            print(f"  {key}: {err}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
