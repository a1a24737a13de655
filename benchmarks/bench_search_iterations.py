"""The search bots' default budget in worlds: what 40 ms of wall time ran, and what it plays like.

The searches of Big Two, Da San and Da Bai Fen once ran for 40 ms of wall time by default,
which made a seeded bot depend on the machine and its load. Their default is now a number of
worlds per decision (each game's ``DEFAULT_ITERATIONS``, and ``ROLLOUT_DEFAULT_ITERATIONS``
for the previous search, ``search-rollout``). This script measures what that number should be
and checks it:

- ``--measure``: decisions from self-play of the ``net`` bot (each decision with a choice is
  kept with probability 0.3, seeded, until ``--decisions`` per game), each searched with
  ``budget_ms=40``: the worlds it completed (median, quartiles, 10th/90th percentiles) with
  the search's clock reading CPU time (what a core of its own runs: the figure the defaults
  are fitted to) and reading wall time (what this machine ran, with its CPU time against
  its wall time: near 1 when the core was free); and right after, the same decision at the
  default number of worlds: wall and CPU milliseconds (median, p90, max). A default equal to
  the median of the worlds has about the old median decision time.
- ``--match GAME``: a duplicate match, the default search (its worlds) in one seat (Da Bai
  Fen: one team) against the search at ``budget_ms=40`` in the others, every deal once per
  seat (team) in turn: Big Two's win rate (parity 25%) and the hero's points minus the
  field seats' mean in the same hand (parity 0), Da San's points a hand (zero-sum, parity 0),
  Da Bai Fen's levels a hand (parity 0); means over deals with 95% intervals. The 40 ms
  side's clock reads CPU time, so it plays as on a core of its own whatever the machine's
  load. Finished deals go to a checkpoint in ``benchmarks/results`` at once; a stopped run
  continues from there.

BLAS is held to one thread (``OPENBLAS_NUM_THREADS=1``, set here before numpy loads): with
its threads on the other, shared core, a search waits on them and 40 ms runs far fewer worlds.

Run (the measurement on one core; a match on ``--workers`` processes)::

    nice -n 10 .venv/bin/python benchmarks/bench_search_iterations.py --measure
    nice -n 10 .venv/bin/python benchmarks/bench_search_iterations.py --match big-two --deals 100
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads (see above)
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import pin_one_core  # noqa: E402
from bench_advise_match import _play, da_bai_fen_match_hand, mean_ci, wilson  # noqa: E402

from solver.executors.pool import local_executor  # noqa: E402
from solver.games import get_game  # noqa: E402

GAMES = ("big-two", "da-san", "da-bai-fen")
OLD_BUDGET_MS = 40.0
KEEP = 0.3  # chance a decision with a choice is kept (spreads the sample over many hands)
CHECKPOINT_DIR = Path(__file__).resolve().parent / "results"


def _module(game: str) -> Any:
    if game == "big-two":
        from solver.games.big_two import advise
    elif game == "da-san":
        from solver.games.da_san import advise  # type: ignore[no-redef]
    else:
        from solver.games.da_bai_fen import advise  # type: ignore[no-redef]
    return advise


def decisions(game: str, count: int) -> list[dict[str, Any]]:
    """Observations of the seat to act in ``net`` self-play where the search has a choice
    (more than one candidate), a seeded sample spread over many hands."""
    info, mod = get_game(game), _module(game)
    bot = info.bot("net")
    keep = random.Random(f"keep:{game}")
    out: list[dict[str, Any]] = []
    seed = 0
    while len(out) < count:
        st = info.new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and len(out) < count:
            p = st.current_player
            moves, obs = st.legal_moves(p), st.observation(p)
            if len(moves) > 1 and keep.random() < KEEP \
                    and mod.rank(obs, iterations=1, seed=0).iterations > 0:
                out.append(obs)
            st.apply(bot(obs, moves, rng))
        seed += 1
    return out


def quantiles(xs: list[float]) -> str:
    q = statistics.quantiles(xs, n=20, method="inclusive")  # 5% steps
    return (f"median {statistics.median(xs):g}, quartiles {q[4]:g} to {q[14]:g}, "
            f"p10 {q[1]:g}, p90 {q[17]:g}, min {min(xs):g}, max {max(xs):g}")


@contextmanager
def cpu_clock() -> Iterator[None]:
    """The search's clock reads this thread's CPU time: a wall budget then runs what it would
    on a core of its own, whatever else the machine is doing."""
    from solver.games import search
    saved = search.time
    search.time = SimpleNamespace(perf_counter=time.thread_time)  # type: ignore[assignment]
    try:
        yield
    finally:
        search.time = saved


def measure(count: int) -> None:
    pin_one_core()
    print(f"load average at start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    for game in GAMES:
        mod = _module(game)
        obs = decisions(game, count)
        print(f"{game}: {len(obs)} decisions from net self-play")
        for label, rank, default in (("search", mod.rank, mod.DEFAULT_ITERATIONS),
                                     ("search-rollout", mod.rank_rollout,
                                      mod.ROLLOUT_DEFAULT_ITERATIONS)):
            worlds, free, ratio, wall, cpu = [], [], [], [], []
            for i, o in enumerate(obs):  # every budget on each decision: the same load
                c = time.process_time()
                ranked = rank(o, budget_ms=OLD_BUDGET_MS, seed=i)
                worlds.append(ranked.iterations)
                ratio.append(1000 * (time.process_time() - c) / ranked.elapsed_ms)
                with cpu_clock():
                    free.append(rank(o, budget_ms=OLD_BUDGET_MS, seed=i).iterations)
                t, c = time.perf_counter(), time.process_time()
                rank(o, seed=i)
                wall.append(1000 * (time.perf_counter() - t))
                cpu.append(1000 * (time.process_time() - c))
            print(f"  {label}, worlds in {OLD_BUDGET_MS:g} ms of CPU (a free core): "
                  f"{quantiles(free)}")
            print(f"  {label}, worlds in {OLD_BUDGET_MS:g} ms wall: {quantiles(worlds)}; "
                  f"CPU / wall median {statistics.median(ratio):.2f}")
            for what, ms in (("wall", wall), ("CPU", cpu)):
                q = statistics.quantiles(ms, n=10)
                print(f"  {label}, default {default} worlds, {what} ms a decision: median "
                      f"{statistics.median(ms):.1f}, p90 {q[8]:.1f}, max {max(ms):.1f}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


# ------------------------------------------------------------------ the match
class Counted:
    """A search bot that keeps the worlds of each of its searches."""

    def __init__(self, bot: Any):
        self.bot, self.worlds = bot, []
        inner = bot.rank

        def rank(*args: Any) -> Any:
            ranked = inner(*args)
            self.worlds.append(ranked.iterations)
            return ranked
        bot.rank = rank

    def __call__(self, observation: Any, legal_moves: Any, rng: random.Random) -> Any:
        return self.bot(observation, legal_moves, rng)


def match_deal(game: str, deal: int, iterations: int | None) -> dict[str, Any]:
    """One deal, the hero (``iterations`` worlds, default: the game's) in each seat (team)."""
    mod, info = _module(game), get_game(game)
    rows = []
    seats = 2 if game == "da-bai-fen" else info.new_game(seed=deal).num_players
    for seat in range(seats):
        hero = Counted(mod.SearchBot(iterations=iterations))
        field = Counted(mod.SearchBot(budget_ms=OLD_BUDGET_MS))
        if game == "da-bai-fen":
            state = da_bai_fen_match_hand(deal)
            bots = [hero if s % 2 == seat else field for s in range(4)]
        else:
            state = info.new_game(seed=deal)
            bots = [field] * seats
            bots[seat] = hero
        st = _play(state, bots, seed=deal * seats + seat)
        ret = st.returns()
        if game == "da-bai-fen":
            row = {"points": ret[seat]}
        else:
            others = [r for p, r in enumerate(ret) if p != seat]
            row = {"points": ret[seat], "minus_field": ret[seat] - sum(others) / len(others)}
        if game == "big-two":
            row["win"] = st.winner == seat
        row["hero_worlds"], row["field_worlds"] = hero.worlds, field.worlds
        rows.append(row)
    return {"deal": deal, "rows": rows}


def match_report(game: str, records: list[dict[str, Any]]) -> str:
    rows = [r for rec in records for r in rec["rows"]]
    hero = [w for r in rows for w in r["hero_worlds"]]
    field = [w for r in rows for w in r["field_worlds"]]
    lines = [f"{game}: {len(records)} deals, {len(rows)} hands; hero worlds a decision "
             f"{statistics.median(hero) if hero else 0:g}, field (40 ms) worlds a decision: "
             f"median {statistics.median(field) if field else 0:g}, "
             f"mean {statistics.fmean(field) if field else 0:.1f}"]

    def line(label: str, xs: list[float], scale: float = 1.0) -> None:
        m, h = mean_ci(xs)
        lines.append(f"  {label:<52} {m * scale:+.3f} +- {h * scale:.3f} (95%, n={len(xs)})")
    per = [len(rec["rows"]) for rec in records]
    if game == "big-two":
        line("hero win rate, % (parity 25)",
             [sum(r["win"] for r in rec["rows"]) / k for rec, k in zip(records, per)], 100)
        lo, hi = wilson(sum(r["win"] for r in rows), len(rows))
        lines.append(f"  Wilson interval over the {len(rows)} hands: {100 * lo:.1f}% to "
                     f"{100 * hi:.1f}%")
    label = {"big-two": "hero points minus the field seats' mean (parity 0)",
             "da-san": "hero points a hand (zero-sum, parity 0)",
             "da-bai-fen": "hero team levels a hand (parity 0)"}[game]
    key = "points" if game == "da-bai-fen" else "minus_field"
    line(label, [sum(r[key] for r in rec["rows"]) / k for rec, k in zip(records, per)])
    return "\n".join(lines)


def _deal_task(args: tuple[str, int, int | None]) -> dict[str, Any]:
    with cpu_clock():  # the 40 ms side runs what it would on a core of its own
        return match_deal(*args)


def match(game: str, deals: int, iterations: int | None, first: int, workers: int) -> None:
    tag = "default" if iterations is None else f"i{iterations}"
    path = CHECKPOINT_DIR / f"iterations_vs_40ms_{game}_{tag}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    records = [json.loads(line) for line in path.read_text().splitlines()
               if line.strip()] if path.exists() else []
    done = {r["deal"] for r in records}
    todo = [(game, d, iterations) for d in range(first, first + deals) if d not in done]
    start = time.perf_counter()
    with local_executor(workers) as pool, path.open("a") as out:
        for rec in pool.map(_deal_task, todo):
            out.write(json.dumps(rec) + "\n")
            out.flush()
            records.append(rec)
            if len(records) % 10 == 0:
                print(f"  {len(records)} deals, {time.perf_counter() - start:,.0f} s, load "
                      f"{os.getloadavg()[0]:.2f}", flush=True)
    print(match_report(game, records))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--measure", action="store_true")
    ap.add_argument("--decisions", type=int, default=300, help="decisions per game (--measure)")
    ap.add_argument("--match", choices=GAMES)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--first-deal", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2, help="processes playing deals (--match)")
    ap.add_argument("--iterations", type=int, default=None,
                    help="the hero's worlds (default: the game's DEFAULT_ITERATIONS)")
    a = ap.parse_args(argv)
    if a.measure:
        measure(a.decisions)
    if a.match:
        match(a.match, a.deals, a.iterations, a.first_deal, a.workers)
    if not (a.measure or a.match):
        ap.print_help()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
