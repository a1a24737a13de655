"""Speed of the search advisors: rollouts per second and milliseconds per decision.

For each game, on positions from real hands (every decision of a few self-play hands with
more than one legal move):

- rollouts per second of the search's playout policy from sampled worlds (the value network
  in every seat), beside the baseline bot's own playout path on the same worlds (the ratio is
  the figure to read: the cores are shared);
- milliseconds per decision at the match budget of the network-guided search (Big Two 12
  worlds, Da San 8, Da Bai Fen 6) and at the default time budget;
- how the rollout policy (the network alone, the ``net`` bot) fares against random play (it
  must be better than random to guide the search): Big Two win rate in one seat, Da San
  points in one seat, Da Bai Fen levels per hand of a team.

Run: ``nice -n 10 .venv/bin/python benchmarks/bench_advise_speed.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import pin_one_core, row  # noqa: E402

from solver.games import get_game  # noqa: E402


def positions(game: str, hands: int = 3) -> list[dict]:
    """Observations of the seat to act at every decision with a choice."""
    info = get_game(game)
    bot = info.bot("baseline" if "baseline" in info.bots else "greedy")
    out = []
    for seed in range(hands):
        st = info.new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            moves = st.legal_moves()
            obs = st.observation(st.current_player)
            if len(moves) > 1:
                out.append(obs)
            st.apply(bot(obs, moves, rng))
    return out


def rollout_rates(game: str, obs_list: list[dict], worlds: int = 3) -> tuple[float, float]:
    """(search rollouts/s, baseline playouts/s) from the same sampled worlds."""
    if game == "big-two":
        from solver.games.big_two import advise as mod
        from solver.games.big_two import view
        from solver.games.big_two.bots import BaselineBot
        base = BaselineBot()

        def slow(w, rng):
            while not w.is_terminal():
                w.apply(base(w.observation(w.current_player), w.legal_moves(), rng))
    elif game == "da-san":
        from solver.games.da_san import advise as mod
        from solver.games.da_san import view
        from solver.games.da_san.bots import greedy_bot

        def slow(w, rng):
            while not w.is_terminal():
                w.apply(greedy_bot(w.observation(w.current_player), w.legal_moves(), rng))
    else:
        from solver.games.da_bai_fen import advise as mod
        from solver.games.da_bai_fen import view
        from solver.games.da_bai_fen.bots import GreedyBot
        greedy = GreedyBot()

        def slow(w, rng):
            while not w.is_terminal():
                w.apply(greedy.policy(w, rng))
    fast = mod._rollout if hasattr(mod, "_rollout") else mod.rollout
    if game == "big-two":  # the search plays out with the network in every seat
        from solver.games.big_two.net import default_net
        fast = mod._net_reply(default_net(), -1)
    elif game == "da-san":
        from solver.games.da_san.net import default_net as da_san_net
        fast = mod._net_rollout(da_san_net())
    else:
        from solver.games.da_bai_fen.net import default_net as da_bai_fen_net
        fast = mod._net_playout(da_bai_fen_net(), None)[0]
    built = [view.sample_world(view.View(o), random.Random(k))
             for o in obs_list for k in range(worlds)]
    rates = []
    for play in (fast, slow):
        rng = random.Random(0)
        t = time.perf_counter()
        for w in built:
            play(w.clone(), rng)
        rates.append(len(built) / (time.perf_counter() - t))
    return rates[0], rates[1]


def decision_ms(game: str, obs_list: list[dict], **budget) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds per decision (CPU time is what a free core would take)."""
    info = get_game(game)
    wall, cpu = [], []
    for i, o in enumerate(obs_list):
        t, c = time.perf_counter(), time.process_time()
        info.advise(o, seed=i, **budget)
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return wall, cpu


def versus_random(game: str, hands: int = 200) -> float:
    """The rollout policy's edge over random play: the ``net`` bot in one seat (Da Bai Fen:
    one team) against random moves; Big Two's win rate, Da San's points, Da Bai Fen's levels
    per hand."""
    info = get_game(game)
    net = info.bot("net")
    total = 0.0
    team = game == "da-bai-fen"
    for d in range(hands):
        st = info.new_game(seed=d)
        rng = random.Random(d)
        hero = d % (2 if team else st.num_players)
        while not st.is_terminal():
            p = st.current_player
            moves = st.legal_moves(p)
            mine = (p % 2 == hero) if team else p == hero
            st.apply(net(st.observation(p), moves, rng) if mine else rng.choice(moves))
        total += (st.winner == hero) if game == "big-two" else st.returns()[hero]
    return total / hands


def main() -> None:
    pin_one_core()
    from solver.games.big_two.moves import warm_up
    warm_up()
    for game in ("big-two", "da-san", "da-bai-fen"):
        obs = positions(game)
        print(f"{game}: {len(obs)} decisions from 3 hands")
        fast, slow = rollout_rates(game, obs)
        row("search rollouts per second", fast, "/s", f"{fast / slow:.1f}x the baseline's path")
        row("baseline bot playouts per second (contract calls)", slow, "/s")
        match_iters = {"big-two": 12, "da-san": 8, "da-bai-fen": 6}[game]
        for label, budget in ((f"iterations={match_iters} (the match budget)",
                               {"iterations": match_iters}),
                              ("the default (its fixed worlds, DEFAULT_ITERATIONS)", {})):
            wall, cpu = decision_ms(game, obs, **budget)
            row(f"wall ms per decision, {label}", statistics.median(wall), "ms",
                f"median; p90 {sorted(wall)[int(0.9 * len(wall))]:.1f}")
            row(f"CPU ms per decision, {label}", statistics.median(cpu), "ms",
                f"median; p90 {sorted(cpu)[int(0.9 * len(cpu))]:.1f}")
        edge = versus_random(game)
        unit = {"big-two": "win rate (parity 0.25)", "da-san": "points/hand (parity 0)",
                "da-bai-fen": "levels/hand (parity 0)"}[game]
        row(f"rollout policy vs random: {unit}", edge, "")


if __name__ == "__main__":
    main()
