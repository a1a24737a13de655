"""Duplicate matches of the search bots: Big Two, Da San and Da Bai Fen.

Every deal is played once per seat rotation (the same cards, the search bot in each seat in
turn; Da Bai Fen: the same game seed with the teams swapped), so the luck of the deal cancels
out of the comparison. Figures are means over deals with 95% confidence intervals (1.96
standard errors of the per-deal means). Work runs on both cores (the project's process pool,
``--workers``) and every finished deal is appended to a checkpoint file at once, so a
stopped run continues where it left off when started again with the same arguments.

Matches (``--match``):

- ``big-two``: one search bot against three baseline bots (4 players): win rate (parity 25%)
  and points per hand.
- ``da-san``: one search bot against two greedy bots, auction included: points per hand and
  how often the search bot makes its bid (beside the greedy bidders' rate in the same deals).
- ``da-bai-fen``: search team (two seats) against greedy team over whole games to past A:
  game win rate (parity 50%) and levels per hand (``da-bai-fen`` and ``da-bai-fen-4x`` play
  the previous search, ``search-rollout``).
- ``<game>-4x``: the search bot at 4x the iterations against itself at 1x (one 4x seat; in Da
  Bai Fen one 4x team, over single hands: levels and points per hand).
- ``big-two-vs``: any Big Two lineup, ``--hero`` in one seat (each seat in turn) against three
  ``--field`` bots, under ``--rules`` (``default``; ``cards-left``: cards-left scoring with
  no bomb on a 2; or a JSON object): win rate, points per hand, and the hero's points minus a
  field seat's in all-field play of the same deals. Bots: ``baseline``, ``rollout[:N]`` (the
  previous search), ``search[:N[:FILE[:DEPTH[:WIDTH]]]]``, ``net[:FILE]`` (the self-play
  network alone, the yardstick), ``infer[:N[:K[:TAU[:LAST]]]]`` (the search with worlds drawn
  by inference from the others' plays and passes), ``belief[:N[:PROPOSALS[:POWER[:FILE]]]]``
  (worlds dealt from the belief network's odds) and ``oracle[:WIDTH]``, the bound described under
  ``da-bai-fen-vs`` (one playout of each of the network's best moves in the true deal).
- ``da-san-vs``: any Da San lineup, ``--hero`` in one seat (each seat in turn) against two
  ``--field`` bots, auction included: points per hand (zero-sum, so a field seat in
  all-field play scores 0) and bidding figures. Bots: ``greedy``, ``rollout[:N]`` (the
  previous search, greedy rollouts, 20 worlds), ``search[:N[:FILE[:WIDTH]]]`` (the
  network-guided search), ``net[:FILE]``.
- ``da-bai-fen-vs``: any Da Bai Fen lineup, a ``--hero`` team against a ``--field`` team over
  single hands, each deal played twice with the teams swapped (the same cards, the same
  dealer): levels per hand (zero-sum, parity 0), the defenders' points on the hero's side,
  and the hero's CPU milliseconds per decision (mean, median, 90th percentile). Deal ``d``
  is a game's first hand when ``d`` is odd (both teams at 2, whoever shows leads), else a
  later hand with each team's level drawn from 2..A and a random leader. Bots: ``greedy``,
  ``rollout[:N]`` (the previous search, heuristic rollouts, 12 worlds),
  ``search[:N[:FILE[:WIDTH[:DEPTH]]]]`` (the network-guided search), ``net[:FILE]``, and
  ``oracle[:WIDTH]``: a bound, not a player (it reads the true deal, which no bot may): the
  network's ``WIDTH`` best moves (default 6) each played out once in the true deal with the
  network in every seat, so it shows what perfect inference of the hidden cards could give
  this family of bots.

Budgets are in iterations (sampled worlds per decision), so a run is a function of its
arguments; the mean milliseconds per searched decision are reported beside it.

Run (background, resumable)::

    nice -n 10 .venv/bin/python benchmarks/bench_advise_match.py --match big-two --deals 500
    nice -n 10 .venv/bin/python benchmarks/bench_advise_match.py --match big-two --report
    .venv/bin/python benchmarks/bench_advise_match.py --match big-two-vs --hero search \
        --field net --rules cards-left --deals 200
    .venv/bin/python benchmarks/bench_advise_match.py     # every checkpoint's figures
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import math
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

MATCHES = ("big-two", "da-san", "da-bai-fen", "big-two-4x", "da-san-4x", "da-bai-fen-4x",
           "big-two-vs", "da-san-vs", "da-bai-fen-vs")
#: ``--rules`` shorthands for ``big-two-vs`` (any JSON object of Big Two options also works).
RULE_SETS = {"default": {},
             "cards-left": {"scoring": "cards-left", "bomb_on_two": False}}
DEFAULT_ITERATIONS = {"big-two": 12, "da-san": 20, "da-bai-fen": 12}
ROLLOUT_ITERATIONS = 30  # the previous Big Two search's match budget
DA_SAN_ROLLOUT_ITERATIONS = 20  # the previous Da San search's match budget
DA_BAI_FEN_ROLLOUT_ITERATIONS = 12  # the previous Da Bai Fen search's match budget
STYLE_NAMES = ("shed-most", "high", "passive")  # solver.games.big_two.population.STYLES
CHECKPOINT_DIR = Path(__file__).resolve().parent / "results"


class TimedBot:
    """Wraps a search bot to count its decisions and the time they take."""

    def __init__(self, bot: Any):
        self.bot, self.calls, self.seconds, self.cpu = bot, 0, 0.0, 0.0

    def __call__(self, observation, legal_moves, rng):
        if len(legal_moves) == 1:
            return legal_moves[0]
        t, c = time.perf_counter(), time.process_time()
        move = self.bot(observation, legal_moves, rng)
        self.seconds += time.perf_counter() - t
        self.cpu += time.process_time() - c
        self.calls += 1
        return move


class TimedListBot(TimedBot):
    """A :class:`TimedBot` that also keeps each decision's CPU milliseconds."""

    def __init__(self, bot: Any):
        super().__init__(bot)
        self.times: list[float] = []

    def __call__(self, observation, legal_moves, rng):
        if len(legal_moves) == 1:
            return legal_moves[0]
        c = time.process_time()
        move = super().__call__(observation, legal_moves, rng)
        self.times.append(round(1000 * (time.process_time() - c), 2))
        return move


def _play(state, bots, seed: int):
    from solver.games import play_hand
    return play_hand(state, bots, seed=seed)


# ------------------------------------------------------------------ one deal per task
def big_two_deal(deal: int, iters: int, strong: int | None) -> dict[str, Any]:
    from solver.games.big_two.advise import SearchBot
    from solver.games.big_two.bots import BaselineBot
    from solver.games.big_two.engine import new_game
    rows = []
    for seat in range(4):
        timed = TimedBot(SearchBot(iterations=strong or iters))
        others = SearchBot(iterations=iters) if strong else BaselineBot()
        bots = [others] * 4
        bots[seat] = timed
        st = _play(new_game(seed=deal), bots, seed=deal * 4 + seat)
        rows.append({"seat": seat, "win": st.winner == seat, "points": st.returns()[seat],
                     "calls": timed.calls, "seconds": timed.seconds, "cpu": timed.cpu})
    return {"deal": deal, "rows": rows}


def da_san_deal(deal: int, iters: int, strong: int | None) -> dict[str, Any]:
    from solver.games.da_san.advise import SearchBot
    from solver.games.da_san.bots import greedy_bot
    from solver.games.da_san.engine import new_game
    rows = []
    for seat in range(3):
        timed = TimedBot(SearchBot(iterations=strong or iters))
        others = SearchBot(iterations=iters) if strong else greedy_bot
        bots = [others] * 3
        bots[seat] = timed
        st = _play(new_game(seed=deal), bots, seed=deal * 3 + seat)
        rows.append({"seat": seat, "points": st.returns()[seat], "bidder": st.bidder,
                     "bid": st.high_bid, "made": st.winner == st.bidder,
                     "calls": timed.calls, "seconds": timed.seconds, "cpu": timed.cpu})
    return {"deal": deal, "rows": rows}


def _dbf_game(seed: int, bots: list[Any], max_hands: int = 200) -> dict[str, Any]:
    """A whole game with the deals drawn from their own stream (bots draw from another), so
    that the two seatings of a duplicate pair see the same first deal."""
    from solver.games.da_bai_fen.bots import Match
    deal_rng, bot_rng = random.Random(seed), random.Random(seed ^ 0xB07)
    match = Match()
    while match.winner is None and len(match.results) < max_hands:
        st = match.new_hand(deal_rng)
        while not st.is_terminal():
            p = st.current_player
            st.apply(bots[p](st.observation(p), st.legal_moves(), bot_rng))
        match.record(st)
    return {"winner": match.winner, "hands": len(match.results), "levels": list(match.levels)}


def da_bai_fen_deal(deal: int, iters: int, strong: int | None) -> dict[str, Any]:
    # the previous search (heuristic rollouts), as these figures were measured
    from solver.games.da_bai_fen.advise import RolloutSearchBot as SearchBot
    from solver.games.da_bai_fen.bots import GreedyBot
    rows = []
    for team in range(2):
        timed = TimedBot(SearchBot(iterations=strong or iters))
        others = TimedBot(SearchBot(iterations=iters)) if strong else GreedyBot()
        bots = [timed if s % 2 == team else others for s in range(4)]
        g = _dbf_game(deal, bots)
        rows.append({"team": team, "win": g["winner"] == team, "hands": g["hands"],
                     "levels": g["levels"][team] - g["levels"][1 - team],
                     "calls": timed.calls, "seconds": timed.seconds, "cpu": timed.cpu})
    return {"deal": deal, "rows": rows}


def da_bai_fen_hands(deal: int, iters: int, strong: int | None) -> dict[str, Any]:
    """One hand (a first hand of a game) per seating, the stronger team in each seating: the
    4x comparison is played over single hands, which cost a twelfth of a game (the previous
    search, heuristic rollouts, as these figures were measured)."""
    from solver.games.da_bai_fen.advise import RolloutSearchBot as SearchBot
    from solver.games.da_bai_fen.engine import new_hand
    rows = []
    for team in range(2):
        timed = TimedBot(SearchBot(iterations=strong or iters))
        others = SearchBot(iterations=iters)
        bots = [timed if s % 2 == team else others for s in range(4)]
        st = _play(new_hand(seed=deal), bots, seed=deal * 2 + team)
        r = st.result
        rows.append({"team": team, "levels": st.returns()[team],
                     "points": r.defenders_points if r.declarers != team else -r.defenders_points,
                     "declarers": r.declarers == team, "calls": timed.calls,
                     "seconds": timed.seconds, "cpu": timed.cpu})
    return {"deal": deal, "rows": rows}


@functools.cache
def _net(path: str, game: str = "big-two") -> Any:
    """``game``'s network file at ``path`` (loaded once per process); None for the shipped."""
    if not path:
        return None
    if game == "da-san":
        from solver.games.da_san.net import load as load_da_san
        return load_da_san(path)
    if game == "da-bai-fen":
        from solver.games.da_bai_fen.net import load as load_da_bai_fen
        return load_da_bai_fen(path)
    from solver.games.big_two.net import load
    return load(path)


def make_big_two_bot(spec: str, iters: int) -> Any:
    """A Big Two bot from its name: ``baseline``, ``rollout[:N]`` (the previous search bot,
    baseline rollouts, 30 worlds), ``search[:N[:FILE[:DEPTH[:WIDTH]]]]`` (the network-guided
    search, ``iters`` worlds; DEPTH 99 plays out to the end, the default),
    ``net`` (the shipped network's greedy bot) or ``net:FILE``, ``pop[:N[:FILE]]`` (the search
    with the other seats of each rollout drawn from a population), ``random``, the styles
    ``shed-most``, ``high``, ``passive``, ``infer[:N[:K[:TAU[:LAST]]]]``
    (the search with worlds drawn by inference, default 4 candidates, tau 1, the last 8
    decisions), ``belief[:N[:PROPOSALS[:POWER[:FILE]]]]`` (the search with worlds dealt from
    the belief network's odds) or ``oracle[:WIDTH]`` (a bound that reads the true deal)."""
    from solver.games.big_two.advise import RolloutSearchBot, SearchBot
    from solver.games.big_two.bots import BaselineBot
    from solver.games.big_two.net import NetBot
    name, _, arg = spec.partition(":")
    if name == "baseline":
        return BaselineBot()
    if name == "rollout":
        return RolloutSearchBot(iterations=int(arg) if arg else ROLLOUT_ITERATIONS)
    if name == "search":  # search[:N[:FILE[:depth[:width]]]]
        n, _, rest = arg.partition(":")
        path, _, rest = rest.partition(":")
        depth, _, width = rest.partition(":")
        return SearchBot(iterations=int(n) if n else iters, net=_net(path),
                         depth=int(depth) if depth and int(depth) < 99 else None,
                         width=int(width or 3))
    if name == "net":
        return NetBot(_net(arg))
    if name == "pop":  # pop[:N[:FILE]]: the search, the others drawn from a population
        from solver.games.big_two.population import ROLLOUT_POPULATION
        n, _, path = arg.partition(":")
        return SearchBot(iterations=int(n) if n else iters, net=_net(path),
                         population=ROLLOUT_POPULATION)
    if name in STYLE_NAMES:
        from solver.games.big_two.population import StyleBot
        return StyleBot(name)
    if name == "random":
        from solver.games.big_two.bots import RandomBot
        return RandomBot()
    if name == "oracle":
        return OracleBot(int(arg) if arg else 6, "big-two")
    if name == "infer":  # infer[:N[:K[:TAU[:LAST]]]]: the search, worlds weighed by inference
        n, k, tau, last = (arg.split(":") + ["", "", "", ""])[:4]
        return SearchBot(iterations=int(n) if n else iters,
                         infer=(int(k or 4), float(tau or 1.0), int(last or 8)))
    if name == "belief":  # belief[:N[:PROPOSALS[:POWER[:FILE]]]]: worlds dealt from beliefs
        from solver.games.big_two.belief import BeliefNet, Beliefs
        n, k, power, path = (arg.split(":", 3) + ["", "", "", ""])[:4]
        return SearchBot(iterations=int(n) if n else iters,
                         belief=Beliefs(BeliefNet.load(path) if path else None, int(k or 16),
                                        float(power or 1.0)))
    raise SystemExit(f"unknown Big Two bot {spec!r} (baseline, rollout[:N], search[:N[:FILE]], "
                     f"net[:FILE], pop[:N[:FILE]], infer[:N[:K[:TAU[:LAST]]]], "
                     f"belief[:N[:PROPOSALS[:POWER[:FILE]]]], oracle[:WIDTH], "
                     f"random, {', '.join(STYLE_NAMES)})")


def big_two_vs_deal(deal: int, iters: int, lineup: tuple[str, str, str]) -> dict[str, Any]:
    """One ``hero`` seat against three ``field`` bots, the hero in each seat in turn."""
    from solver.games.big_two.engine import new_game
    hero, field, rules = lineup
    rows = []
    for seat in range(4):
        timed = TimedBot(make_big_two_bot(hero, iters))
        bots = [make_big_two_bot(field, iters)] * 4
        bots[seat] = timed
        state = new_game(seed=deal, rules=json.loads(rules))
        _bind(bots, state)
        st = _play(state, bots, seed=deal * 4 + seat)
        rows.append({"seat": seat, "win": st.winner == seat, "points": st.returns()[seat],
                     "calls": timed.calls, "seconds": timed.seconds, "cpu": timed.cpu})
    field_bot = make_big_two_bot(field, iters)
    ref_state = new_game(seed=deal, rules=json.loads(rules))
    _bind([field_bot], ref_state)
    ref = _play(ref_state, [field_bot] * 4, seed=deal * 4)
    return {"deal": deal, "rows": rows, "lineup": [hero, field, rules],
            "reference": sum(ref.returns()) / 4}


def make_da_san_bot(spec: str, iters: int) -> Any:
    """A Da San bot from its name: ``greedy``, ``rollout[:N]`` (the previous search, greedy
    rollouts), ``search[:N[:FILE[:WIDTH]]]`` (the network-guided search) or ``net[:FILE]``."""
    from solver.games.da_san.advise import RolloutSearchBot, SearchBot
    from solver.games.da_san.bots import greedy_bot
    from solver.games.da_san.net import NetBot
    name, _, arg = spec.partition(":")
    if name == "greedy":
        return greedy_bot
    if name == "rollout":
        return RolloutSearchBot(iterations=int(arg) if arg else DA_SAN_ROLLOUT_ITERATIONS)
    if name == "search":
        n, _, rest = arg.partition(":")
        path, _, width = rest.partition(":")
        return SearchBot(iterations=int(n) if n else iters, net=_net(path, "da-san"),
                         width=int(width or 3))
    if name == "net":
        return NetBot(_net(arg, "da-san"))
    raise SystemExit(f"unknown Da San bot {spec!r} (greedy, rollout[:N], search[:N[:FILE]], "
                     f"net[:FILE])")


def da_san_vs_deal(deal: int, iters: int, lineup: tuple[str, str, str]) -> dict[str, Any]:
    """One ``hero`` seat against two ``field`` bots, the hero in each seat in turn."""
    from solver.games.da_san.engine import new_game
    hero, field, _ = lineup
    rows = []
    for seat in range(3):
        timed = TimedBot(make_da_san_bot(hero, iters))
        bots = [make_da_san_bot(field, iters)] * 3
        bots[seat] = timed
        st = _play(new_game(seed=deal), bots, seed=deal * 3 + seat)
        rows.append({"seat": seat, "points": st.returns()[seat], "bidder": st.bidder,
                     "bid": st.high_bid, "made": st.winner == st.bidder,
                     "calls": timed.calls, "seconds": timed.seconds, "cpu": timed.cpu})
    return {"deal": deal, "rows": rows, "lineup": [hero, field, "default"]}


def make_da_bai_fen_bot(spec: str, iters: int) -> Any:
    """A Da Bai Fen bot from its name: ``greedy``, ``rollout[:N]`` (the previous search,
    heuristic rollouts), ``search[:N[:FILE[:WIDTH[:DEPTH]]]]`` (the network-guided search;
    DEPTH: tricks played out before the network's Q stands in, 99 or none to the end) or
    ``net[:FILE]``."""
    from solver.games.da_bai_fen.advise import RolloutSearchBot, SearchBot
    from solver.games.da_bai_fen.bots import GreedyBot
    from solver.games.da_bai_fen.net import NetBot
    name, _, arg = spec.partition(":")
    if name == "greedy":
        return GreedyBot()
    if name == "rollout":
        return RolloutSearchBot(iterations=int(arg) if arg else DA_BAI_FEN_ROLLOUT_ITERATIONS)
    if name == "search":  # search[:N[:FILE[:WIDTH[:DEPTH]]]]
        n, _, rest = arg.partition(":")
        path, _, rest = rest.partition(":")
        width, _, depth = rest.partition(":")
        return SearchBot(iterations=int(n) if n else iters, net=_net(path, "da-bai-fen"),
                         width=int(width or 3),
                         depth=int(depth) if depth and int(depth) < 99 else None)
    if name == "net":
        return NetBot(_net(arg, "da-bai-fen"))
    if name == "oracle":
        return OracleBot(int(arg) if arg else 6)
    raise SystemExit(f"unknown Da Bai Fen bot {spec!r} (greedy, rollout[:N], "
                     f"search[:N[:FILE[:WIDTH[:DEPTH]]]], net[:FILE], oracle[:WIDTH])")


class OracleBot:
    """Benchmark only: the network-guided search given the true deal instead of sampled
    worlds (every hidden card; in Da Bai Fen the undrawn deck too), one playout per candidate
    (the network plays greedily, so one is all a known world needs). It cheats on purpose:
    how well it does bounds what better inference of the hidden cards could add to the
    search. ``game`` is ``big-two`` or ``da-bai-fen``; ``bind(state)`` before each hand."""

    def __init__(self, width: int, game: str = "da-bai-fen"):
        self.width, self.game, self.state = width, game, None

    def bind(self, state: Any) -> None:
        self.state = state

    def __call__(self, observation, legal_moves, rng):
        from solver.games.search import search_seat
        if self.state is None:
            raise RuntimeError("OracleBot: bind(state) before the hand")
        truth = self.state
        if self.game == "big-two":
            from solver.games.big_two import advise as b2
            from solver.games.big_two import net as b2_net
            from solver.games.big_two.view import View as B2View
            net = b2_net.default_net()
            view = B2View(observation)
            if truth.current_player != view.seat or len(truth.history) != len(view.history):
                raise RuntimeError("OracleBot: bound to another hand than the one it plays")
            cands, legal, _ = b2_net.net_candidates(view, net, self.width)
            ranked = search_seat(view, (cands, legal), lambda _v, _r: truth.clone(), b2._play,
                                 b2._net_reply(net, view.seat), b2._net_value(net), None, 1, 0)
            best = ranked.moves[0][0]
            return next(m for m in legal_moves if m.mask == best.mask)
        from solver.games.da_bai_fen.advise import _net_playout, _play
        from solver.games.da_bai_fen.net import default_net, net_candidates, same_move
        from solver.games.da_bai_fen.view import View
        net = default_net()
        view = View(observation)
        cands, legal, _ = net_candidates(view, net, self.width)
        play_out, worth = _net_playout(net, None)
        ranked = search_seat(view, (cands, legal), lambda _v, _r: truth.clone(), _play,
                             play_out, worth, None, 1, 0)
        best = ranked.moves[0][0]
        return next(m for m in legal_moves if same_move(m, best))


def _bind(bots: list[Any], state: Any) -> None:
    """Give the benchmark's oracles among ``bots`` (timed or not) the true deal."""
    for bot in bots:
        inner = getattr(bot, "bot", bot)
        if isinstance(inner, OracleBot):
            inner.bind(state)


def da_bai_fen_match_hand(deal: int) -> Any:
    """Deal ``deal`` of ``da-bai-fen-vs``: a first hand when odd, else a later hand with
    random levels and leader (the same cards and setting for both seatings)."""
    from solver.games.da_bai_fen.engine import new_hand
    if deal % 2:
        return new_hand(seed=deal)
    rng = random.Random(deal)
    leader = rng.randrange(4)
    return new_hand(seed=deal, dealer=leader, leader=leader,
                    levels=(rng.randrange(13), rng.randrange(13)))


def da_bai_fen_vs_deal(deal: int, iters: int, lineup: tuple[str, str, str]) -> dict[str, Any]:
    """A ``hero`` team against a ``field`` team, the hero team in each seating in turn."""
    hero, field, _ = lineup
    rows = []
    for team in range(2):
        timed = TimedListBot(make_da_bai_fen_bot(hero, iters))
        other = make_da_bai_fen_bot(field, iters)
        bots = [timed if s % 2 == team else other for s in range(4)]
        state = da_bai_fen_match_hand(deal)
        _bind(bots, state)
        st = _play(state, bots, seed=deal * 2 + team)
        r = st.result
        rows.append({"team": team, "levels": st.returns()[team],
                     "points": r.defenders_points if r.declarers != team else -r.defenders_points,
                     "declarers": r.declarers == team, "calls": timed.calls,
                     "seconds": timed.seconds, "cpu": timed.cpu, "times": timed.times})
    return {"deal": deal, "rows": rows, "lineup": [hero, field, "default"]}


TASKS = {"big-two": big_two_deal, "da-san": da_san_deal, "da-bai-fen": da_bai_fen_deal}


def _run(args: tuple[str, int, int, Any]) -> dict[str, Any]:
    game, deal, iters, strong = args
    t = time.perf_counter()
    if game == "big-two-vs":
        out = big_two_vs_deal(deal, iters, strong)  # type: ignore[arg-type]
    elif game == "da-san-vs":
        out = da_san_vs_deal(deal, iters, strong)  # type: ignore[arg-type]
    elif game == "da-bai-fen-vs":
        out = da_bai_fen_vs_deal(deal, iters, strong)  # type: ignore[arg-type]
    else:
        task = da_bai_fen_hands if (game == "da-bai-fen" and strong) else TASKS[game]
        out = task(deal, iters, strong)
    out["wall"] = time.perf_counter() - t
    return out


def _run_deal(deal: int, args: tuple[str, int, Any]) -> dict[str, Any]:
    """:func:`_run` of one deal, as the scheduler calls it (the item, then what every item
    shares)."""
    game, iters, strong = args
    return _run((game, deal, iters, strong))


def _init_worker() -> None:
    from solver.games.big_two.moves import warm_up
    warm_up()


# ------------------------------------------------------------------ statistics
def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def wilson(wins: int, n: int) -> tuple[float, float]:
    """95% Wilson interval of a proportion (meaningful at 0% or 100%, unlike the normal one)."""
    if n == 0:
        return float("nan"), float("nan")
    z, p = 1.96, wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


def _fmt(label: str, xs: list[float], scale: float = 1.0, unit: str = "") -> str:
    m, h = mean_ci(xs)
    return f"  {label:<44} {m * scale:8.3f} +- {h * scale:.3f}{unit}   (n={len(xs)})"


def report(match: str, records: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    game = match.removesuffix("-4x")
    strong = match.endswith("-4x")
    vs_dbf = game == "da-bai-fen-vs"
    if game in ("big-two-vs", "da-san-vs", "da-bai-fen-vs"):
        game, strong = game.removesuffix("-vs"), vs_dbf
    rows = [r for rec in records for r in rec["rows"]]
    calls = sum(r["calls"] for r in rows)
    secs = sum(r["seconds"] for r in rows)
    wall = sum(rec["wall"] for rec in records)
    who = meta.get("hero") or ("search 4x" if strong else "search")
    lines = [f"match {match}: {len(records)} deals, {len(rows)} "
             f"{'games' if game == 'da-bai-fen' and not strong else 'hands'}; iterations "
             f"{meta['iterations']}"
             f"{' vs ' + str(meta['iterations'] * 4) if strong and not vs_dbf else ''}",
             f"  compute {wall:,.0f} s over the worker processes; {calls:,} searched decisions, "
             f"{1000 * secs / max(calls, 1):.1f} ms each on average (wall, shared cores)"]
    if rows and all("cpu" in r for r in rows):
        cpu = sum(r["cpu"] for r in rows)
        lines.append(f"  CPU time per searched decision: {1000 * cpu / max(calls, 1):.1f} ms "
                     f"(what one free core would take)")
    if game == "big-two":
        lines.append(_fmt(f"{who} win rate (parity 25%)",
                          [sum(r["win"] for r in rec["rows"]) / 4 for rec in records], 100, " %"))
        lines.append(_fmt(f"{who} points per hand",
                          [sum(r["points"] for r in rec["rows"]) / 4 for rec in records]))
        if all("reference" in rec for rec in records) and "hero" in meta:
            lines.append(_fmt("reference: a field seat, all-field play of these deals",
                              [rec["reference"] for rec in records]))
            lines.append(_fmt("hero minus that reference (points per hand)",
                              [sum(r["points"] for r in rec["rows"]) / 4 - rec["reference"]
                               for rec in records]))
        if not strong and "hero" not in meta:
            from solver.games.big_two.bots import self_play
            ref = [sum(self_play(seed=rec["deal"]).returns) / 4 for rec in records]
            lines.append(_fmt("reference: a baseline seat, all-baseline play of these deals",
                              ref))
    elif game == "da-san":
        lines.append(_fmt(f"{who} points per hand (zero-sum, parity 0)",
                          [sum(r["points"] for r in rec["rows"]) / 3 for rec in records]))
        own = [r for r in rows if r["bidder"] == r["seat"]]
        other = [r for r in rows if r["bidder"] != r["seat"]]
        lines.append(_fmt(f"{who} as bidder: make rate", [float(r["made"]) for r in own], 100,
                          " %"))
        lines.append(f"  {who} bids in {100 * len(own) / max(len(rows), 1):.1f} % of hands; "
                     f"mean bid {sum(r['bid'] for r in own) / max(len(own), 1):.2f}")
        lines.append(_fmt("opponents as bidder: make rate", [float(r["made"]) for r in other],
                          100, " %"))
        if not strong and "hero" not in meta:
            from solver.games.da_san.bots import fast_greedy
            from solver.games.da_san.engine import new_game
            made = []
            for rec in records:
                st = new_game(seed=rec["deal"])
                while not st.is_terminal():
                    st.apply(fast_greedy(st))
                made.append(float(st.winner == st.bidder))
            lines.append(_fmt("reference: bidder make rate, all-greedy play of these deals",
                              made, 100, " %"))
    elif strong:
        if vs_dbf:
            times = sorted(t for r in rows for t in r.get("times", []))
            if times:
                q = [times[min(len(times) - 1, int(f * len(times)))] for f in (0.5, 0.9, 0.99)]
                lines.append(f"  hero CPU ms per decision: median {q[0]:.1f}, p90 {q[1]:.1f}, "
                             f"p99 {q[2]:.1f}, max {times[-1]:.1f} ({len(times):,} decisions)")
            lines.append(_fmt(f"{who} team declares (share of hands)",
                              [sum(r["declarers"] for r in rec["rows"]) / 2 for rec in records],
                              100, " %"))
        lines.append(_fmt(f"{who} team levels per hand (own minus other's, parity 0)",
                          [sum(r["levels"] for r in rec["rows"]) / 2 for rec in records]))
        lines.append(_fmt(f"{who} team: defenders' points on its side per hand (parity 0)",
                          [sum(r["points"] for r in rec["rows"]) / 2 for rec in records]))
    else:
        lines.append(_fmt(f"{who} team game win rate (parity 50%)",
                          [sum(r["win"] for r in rec["rows"]) / 2 for rec in records], 100, " %"))
        lo, hi = wilson(sum(r["win"] for r in rows), len(rows))
        lines.append(f"  95% Wilson interval over the {len(rows)} games: "
                     f"{100 * lo:.1f} % to {100 * hi:.1f} %")
        lines.append(_fmt(f"{who} team levels per hand (own minus other's)",
                          [sum(r["levels"] for r in rec["rows"])
                           / sum(r["hands"] for r in rec["rows"]) for rec in records]))
        lines.append(f"  hands per game: {sum(r['hands'] for r in rows) / max(len(rows), 1):.1f}")
    return "\n".join(lines)


# ------------------------------------------------------------------ driver
def _vs_path(match: str, tag: str, iters: int) -> Path:
    """The default checkpoint of a ``*-vs`` match: its lineup in the name, file-safe."""
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in tag)
    return CHECKPOINT_DIR / f"match_{match}_{safe}_i{iters}.jsonl"


def _load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            pass  # a line cut short by a stop: that deal is played again
    return out


def _hero_points(rec: dict[str, Any]) -> float:
    """A deal's mean hero points over its seatings (teams in Da Bai Fen: levels)."""
    rows = rec["rows"]
    key = "points" if "points" in rows[0] else "levels"
    return sum(r[key] for r in rows) / len(rows)


def paired(a: list[dict[str, Any]], b: list[dict[str, Any]], name_a: Any = "A",
           name_b: Any = "B") -> str:
    """The hero's points per hand in ``a`` minus in ``b`` on the deals both played (the same
    cards, so the luck of the deal cancels), with a 95% CI over deals; and each one's win rate
    where it has one.

    >>> r = lambda d, p: {"deal": d, "rows": [{"points": p, "win": p > 0}]}
    >>> print(paired([r(1, 2.0), r(2, 0.0), r(3, 1.0)], [r(1, 1.0), r(2, -1.0), r(4, 9.0)]))
    paired on 2 deals: A minus B points per hand +1.000 +- 0.000; win rate A 50.0%, B 50.0%
    """
    da, db = {r["deal"]: r for r in a}, {r["deal"]: r for r in b}
    common = sorted(set(da) & set(db))
    if len(common) < 2:
        return f"paired: only {len(common)} deals in both"
    diff = [_hero_points(da[d]) - _hero_points(db[d]) for d in common]
    mean, ci = mean_ci(diff)

    def wins(recs: dict[str, Any]) -> str:
        rows = [row for d in common for row in recs[d]["rows"] if "win" in row]
        return f"{100 * sum(r['win'] for r in rows) / len(rows):.1f}%" if rows else "-"
    return (f"paired on {len(common)} deals: {name_a} minus {name_b} points per hand "
            f"{mean:+.3f} +- {ci:.3f}; win rate {name_a} {wins(da)}, {name_b} {wins(db)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--match", choices=MATCHES, default=None,
                    help="the match to play; without it, the figures of every checkpoint in "
                         "benchmarks/results are printed (nothing is played)")
    ap.add_argument("--deals", type=int, default=200, help="deals to play (in total, with resume)")
    ap.add_argument("--iterations", type=int, default=None,
                    help="sampled worlds per decision (default per game: "
                         + ", ".join(f"{k} {v}" for k, v in DEFAULT_ITERATIONS.items()) + ")")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--first-deal", type=int, default=1)
    ap.add_argument("--checkpoint", type=Path, default=None)
    ap.add_argument("--report", action="store_true", help="only print the checkpoint's figures")
    ap.add_argument("--hero", default="search",
                    help="big-two-vs / da-san-vs: the lone bot, da-bai-fen-vs: the hero team's "
                         "bot (Big Two: baseline, rollout[:N], search[:N[:FILE]], net[:FILE]; "
                         "Da San and Da Bai Fen: greedy, rollout[:N], search[:N[:FILE]], "
                         "net[:FILE])")
    ap.add_argument("--field", default="net",
                    help="big-two-vs / da-san-vs / da-bai-fen-vs: the other seats' bot")
    ap.add_argument("--rules", default="default",
                    help="big-two-vs: " + ", ".join(RULE_SETS) + " or a JSON object of options")
    ap.add_argument("--paired", nargs=2, type=Path, metavar=("A.jsonl", "B.jsonl"),
                    help="compare two checkpoints of *-vs matches on the deals both played: "
                         "the hero's points per hand in A minus in B, paired by deal")
    a = ap.parse_args(argv)
    if a.paired:
        print(paired(_load(a.paired[0]), _load(a.paired[1]), *a.paired))
        return 0
    if a.match is None:
        found = sorted(CHECKPOINT_DIR.glob("match_*_i*.jsonl"))
        for path in found:
            match, _, iters = path.stem.removeprefix("match_").rpartition("_i")
            records = _load(path)
            if match.startswith(("big-two-vs_", "da-san-vs_", "da-bai-fen-vs_")) \
                    and iters.isdigit() and records:
                hero, field, rules = records[0]["lineup"]
                vs = match.partition("_")[0]
                against = (f"vs 3 {field}, rules {rules}" if vs == "big-two-vs"
                           else f"vs 2 {field}" if vs == "da-san-vs" else f"vs a {field} team")
                print(report(vs, records, {"iterations": int(iters),
                                           "hero": f"{hero} ({against})"}))
            elif match in MATCHES and iters.isdigit():
                print(report(match, records, {"iterations": int(iters)}))
        if not found:
            print("no checkpoints yet: play a match with --match "
                  f"({', '.join(MATCHES)}), e.g. --match big-two --deals 500")
        return 0
    game = a.match.removesuffix("-4x")
    iters = a.iterations or DEFAULT_ITERATIONS[game.removesuffix("-vs")]
    strong: Any = 4 * iters if a.match.endswith("-4x") else None
    path = a.checkpoint or CHECKPOINT_DIR / f"match_{a.match}_i{iters}.jsonl"
    meta: dict[str, Any] = {"iterations": iters}
    if game == "da-bai-fen-vs":
        strong = (a.hero, a.field, "default")
        meta["hero"] = f"{a.hero} (vs a {a.field} team)"
        tag = f"{a.hero}_vs_{a.field}"
        path = a.checkpoint or _vs_path(game, tag, iters)
    if game == "da-san-vs":
        strong = (a.hero, a.field, "default")
        meta["hero"] = f"{a.hero} (vs 2 {a.field})"
        tag = f"{a.hero}_vs_{a.field}"
        path = a.checkpoint or _vs_path(game, tag, iters)
    if game == "big-two-vs":
        rules = json.dumps(RULE_SETS.get(a.rules) if a.rules in RULE_SETS
                           else json.loads(a.rules), sort_keys=True)
        strong = (a.hero, a.field, rules)
        meta["hero"] = f"{a.hero} (vs 3 {a.field}, rules {rules})"
        custom = "rules-" + hashlib.sha256(rules.encode()).hexdigest()[:8]
        tag = f"{a.hero}_vs_{a.field}_{a.rules if a.rules in RULE_SETS else custom}"
        path = a.checkpoint or _vs_path(game, tag, iters)
    path.parent.mkdir(parents=True, exist_ok=True)
    records = _load(path)
    if not a.report:
        done = {r["deal"] for r in records}
        todo = [d for d in range(a.first_deal, a.first_deal + a.deals) if d not in done]
        start = time.perf_counter()
        print(f"{a.match}: {len(done)} deals in {path.name}, {len(todo)} to play "
              f"on {a.workers} processes", flush=True)
        from solver.batch.schedule import windowed
        from solver.executors.pool import local_executor

        # deals as they finish, two in flight per process (one at a time in this process)
        window = 2 * a.workers if a.workers > 1 else 1
        with local_executor(a.workers, warm=_init_worker) as pool, path.open("a") as out:
            it: Iterator[dict[str, Any]] = (rec for _, rec in windowed(
                pool, _run_deal, todo, (game, iters, strong), window))
            for k, rec in enumerate(it, 1):
                out.write(json.dumps(rec) + "\n")
                out.flush()
                records.append(rec)
                if k % 25 == 0:
                    print(f"  {k}/{len(todo)} deals, {time.perf_counter() - start:,.0f} s",
                          flush=True)
        print(f"  this run: {time.perf_counter() - start:,.1f} s wall", flush=True)
    print(report(a.match, records, meta))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
