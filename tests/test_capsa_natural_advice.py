"""Declare the natural or set rows: the natural's EV beside the rows' EV, in every method, the
CLI, HTTP, the coach, the drill and the session's advice and review."""

from __future__ import annotations

import json

import numpy as np
import pytest

import solver
from solver.cards import format_cards
from solver.cli import main
from solver.games.capsa.coach import review
from solver.games.capsa.methods.montecarlo import sampled_deals
from solver.games.capsa.methods.natural import natural_ev_on_deals, table_natural_ev
from solver.games.capsa.naturals import detect_natural
from solver.games.capsa.referee import score
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.splits import parse_hand
from solver.games.capsa.strategy.tables import tables_for

SIX_PAIRS = "2c 2d 4c 4h 6d 6s 7d 7s 8s 9c 9d Qc Qs"      # top pair queens
HIGHER_SIX = "3c 3d 5c 5d 8c 8d Tc Td Jc Jd Kc Kd Ac"     # top pair kings
DRAGON = "2h 3h 4d 5h 6c 7c 8h 9h Th Jh Qd Kh Ah"
THREE_FLUSHES = "2c 3s 4c 4d 5s 7d 9s Tc Td Jc Js Qs Ac"  # the play page's seed 61
# rows worth more than a one-unit six pairs: quads of twos, a full house
RICH_SIX = "2c 2d 2h 2s 3c 3d 4c 4d 5c 5d Ac Ad Kc"
CHEAP_SIX = {"preset": "standard", "naturals": {"six_pairs": 1}}


def _rows_of(cards: list[int]) -> dict:
    """Some rows of 13 cards (a foul does not matter against a declared natural)."""
    f = format_cards(sorted(cards))
    return {"front": f[:3], "middle": f[3:8], "back": f[8:]}


def _referee_natural(mine: str, opponents: list, rules="standard") -> int:
    """What declaring ``mine`` scores at a table of these opponents, by the referee (an
    opponent holding a natural declares it; the others play some rows)."""
    r = resolve_rules(rules)
    seats = []
    for o in opponents:
        cards = parse_hand(o)
        seats.append({"hand": format_cards(cards)} if detect_natural(cards, r)
                     else _rows_of(cards.tolist()))
    return score([{"hand": mine}, *seats], r).players[0].points


# ---------------------------------------------------------------- known: exact
def test_known_natural_ev_is_the_referees():
    plain = format_cards(sorted(set(range(52)) - {int(c) for h in (SIX_PAIRS, HIGHER_SIX, DRAGON)
                                                  for c in parse_hand(h)}))[:13]
    for opps in ([HIGHER_SIX], [DRAGON], [plain], [HIGHER_SIX, DRAGON, plain], [plain, DRAGON]):
        res = solver.arrange(SIX_PAIRS, method="known", opponent_hands=opps, top=1)
        assert res.natural.ev == _referee_natural(SIX_PAIRS, opps)
        assert res.natural.declare == (res.natural.ev > res.best.ev)
    # against the higher six pairs and a dragon: -3 - 13 + 3
    res = solver.arrange(SIX_PAIRS, method="known", opponent_hands=[HIGHER_SIX, DRAGON, plain])
    assert res.natural.ev == -13.0 and res.natural.declare is (res.best.ev < -13.0)


def test_known_natural_ev_on_random_tables():
    """Random deals where seat 0 holds a natural, the other seats random: exact every time."""
    rng = np.random.default_rng(5)
    r = resolve_rules("standard")
    seen = 0
    while seen < 6:
        deck = rng.permutation(52)
        hands = [np.sort(deck[13 * i:13 * (i + 1)]) for i in range(4)]
        if detect_natural(hands[0], r) is None:
            continue
        seen += 1
        opps = [format_cards(h) for h in hands[1:]]
        res = solver.arrange(format_cards(hands[0]), method="known", opponent_hands=opps, top=1)
        assert res.natural.ev == _referee_natural(format_cards(hands[0]), opps)
    # given by their rows, the opponents play them: each pays the natural's units
    res = solver.arrange(THREE_FLUSHES, method="known", top=1, opponent_arrangements=[
        _rows_of([c for c in range(52) if c not in parse_hand(THREE_FLUSHES)][:13])])
    assert res.natural.ev == 3.0 and res.natural.declare


# ---------------------------------------------------------------- Monte Carlo: the same deals
@pytest.mark.parametrize("hand", [SIX_PAIRS, THREE_FLUSHES])
def test_montecarlo_natural_ev_on_the_rows_deals(hand):
    res = solver.arrange(hand, opponents=3, method="montecarlo", samples=60, seed=11, top=1,
                         adaptive=False)
    deals = sampled_deals(parse_hand(hand), 3, 60, 11)
    # independently, deal by deal with the referee
    by_referee = [_referee_natural(hand, [format_cards(o) for o in d]) for d in deals]
    assert res.natural.ev == pytest.approx(np.mean(by_referee), abs=1e-12)
    # the rows' EV is on these very deals: the best rows scored by the referee against each
    # opponent as the table strategy sets it (or the natural it declares)
    r = resolve_rules("standard")
    best = res.best.arrangement
    points = []
    for d in deals:
        seats = []
        for o in d:
            if detect_natural(o, r):
                seats.append({"hand": format_cards(o)})
            else:
                seats.append(solver.arrange(format_cards(o), opponents=3, top=1).best.arrangement)
        points.append(score([best, *seats], r).players[0].points)
    assert res.best.ev == pytest.approx(np.mean(points), abs=1e-9)
    assert res.natural.declare == (res.natural.ev > res.best.ev)


def test_montecarlo_adaptive_values_the_natural_on_the_deals_drawn():
    res = solver.arrange(SIX_PAIRS, opponents=2, method="montecarlo", samples=2000, seed=3)
    deals = sampled_deals(parse_hand(SIX_PAIRS), 2, 2000, 3)[:res.samples_used]
    assert res.natural.ev == natural_ev_on_deals(res.natural, resolve_rules("standard"), deals)
    again = solver.arrange(SIX_PAIRS, opponents=2, method="montecarlo", samples=2000, seed=3)
    assert again.natural == res.natural


# ---------------------------------------------------------------- table
def test_table_natural_ev_is_comparable_to_montecarlo():
    r = resolve_rules("standard")
    st = tables_for(r)
    for hand in (SIX_PAIRS, THREE_FLUSHES, DRAGON):
        t = solver.arrange(hand, opponents=3)
        nat = detect_natural(hand, r)
        assert t.natural.ev == pytest.approx(table_natural_ev(nat, r, st, 3))
        # each opponent pays unless it holds a natural (chance p_natural, rare)
        assert 3 * (1 - st.p_natural) * nat.units - 3 * st.p_natural * 13 <= t.natural.ev
        assert t.natural.ev <= 3 * nat.units
        mc = solver.arrange(hand, opponents=3, method="montecarlo", samples=5000, seed=1,
                            adaptive=False, top=1)
        assert t.natural.ev == pytest.approx(mc.natural.ev, abs=0.25 * nat.units)
        assert t.natural.declare == (t.natural.ev > t.best.ev) is True
    # naturals off in the tables (two-four trains without them): every opponent pays
    two = solver.arrange(SIX_PAIRS, {"preset": "two-four", "naturals": True}, opponents=2)
    assert two.natural.ev == 6.0


def test_rows_worth_more_advise_the_rows():
    for method in ("table", "montecarlo"):
        res = solver.arrange(RICH_SIX, CHEAP_SIX, opponents=3, method=method, seed=2, samples=300)
        assert res.natural.kind == "six_pairs" and res.natural.ev <= 3.0
        assert res.best.ev > res.natural.ev and res.natural.declare is False
        d = res.to_dict()["natural"]
        assert d["declare"] is False and d["ev"] == round(res.natural.ev, 6)


def test_no_natural_no_value():
    res = solver.arrange("As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h", opponents=1)
    assert res.natural is None and res.to_dict()["natural"] is None


# ---------------------------------------------------------------- CLI and HTTP
def test_cli_text_and_json(capsys):
    assert main(["arrange", THREE_FLUSHES, "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert "natural: three_flushes (3 units)   ev +8.778   advice: declare it" in out
    assert main(["arrange", RICH_SIX, "--rules", json.dumps(CHEAP_SIX), "--json"]) == 0
    nat = json.loads(capsys.readouterr().out)["natural"]
    assert nat["declare"] is False and isinstance(nat["ev"], float)


def test_http_arrange_carries_the_natural_value(app):
    c = app.test_client()
    for body in ({"hand": THREE_FLUSHES}, {"hand": THREE_FLUSHES, "method": "montecarlo",
                                           "samples": 200, "seed": 4},
                 {"hand": SIX_PAIRS, "method": "known", "opponent_hands": [HIGHER_SIX]}):
        r = c.post("/v1/capsa/arrange", json=body)
        assert r.status_code == 200, r.get_json()
        d = r.get_json()
        nat = d["natural"]
        assert isinstance(nat["ev"], float) and nat["declare"] == (
            nat["ev"] > d["arrangements"][0]["ev"])
    assert nat["ev"] == -3.0  # the higher six pairs collects
    plain = c.post("/v1/capsa/arrange", json={"hand": "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"})
    assert plain.get_json()["natural"] is None


# ---------------------------------------------------------------- the coach and the drill
def test_review_of_a_declared_natural():
    rep = review([{"hand": THREE_FLUSHES, "natural": True},
                  {"hand": RICH_SIX, "natural": True},
                  {"hand": RICH_SIX, **solver.arrange(RICH_SIX, CHEAP_SIX).best.arrangement.to_dict()},
                  {"hand": THREE_FLUSHES, "front": "4d 7d Td", "middle": "3s 5s 9s Js Qs",
                   "back": "2c 4c Tc Jc Ac"}], CHEAP_SIX)
    good, bad, rows, undeclared = (h.to_dict() for h in rep.hands)
    assert good["ev"] == good["natural_ev"] == good["best_ev"] and good["ev_lost"] == 0
    assert good["rows_ev"] < good["natural_ev"] and good["mistake"] is None
    assert bad["ev"] == bad["natural_ev"] < bad["rows_ev"] == bad["best_ev"]
    assert bad["ev_lost"] == pytest.approx(bad["rows_ev"] - bad["natural_ev"], abs=1e-5)
    assert bad["mistake"] == "natural_declared"
    assert rows["ev_lost"] == 0 and rows["natural_ev"] < rows["rows_ev"]
    assert undeclared["mistake"] == "natural_not_declared"
    assert undeclared["ev_lost"] == pytest.approx(undeclared["natural_ev"] - undeclared["ev"],
                                                  abs=1e-5)
    # the same natural EV as arrange's, under the same rules
    assert good["natural_ev"] == solver.arrange(THREE_FLUSHES, CHEAP_SIX).to_dict()["natural"]["ev"]
    n = rep.summary["naturals"]
    assert (n["hands"], n["declared"]) == (4, 2)
    assert n["ev_lost"] == pytest.approx(bad["ev_lost"] + undeclared["ev_lost"], abs=1e-5)


def test_review_montecarlo_values_the_natural_on_its_deals():
    rep = review([{"hand": SIX_PAIRS, "natural": True}], method="montecarlo", samples=200,
                 seed=9, opponents=2)
    h = rep.hands[0].to_dict()
    from solver.games.capsa.methods.montecarlo import hand_seed

    seed = hand_seed(9, parse_hand(SIX_PAIRS))
    res = solver.arrange(SIX_PAIRS, opponents=2, method="montecarlo", samples=200, seed=seed,
                         adaptive=False, top=1)
    assert h["natural_ev"] == round(res.natural.ev, 6) and h["rows_ev"] == round(res.best.ev, 6)


def test_cli_review_text_says_what_the_naturals_were_worth(tmp_path, capsys):
    f = tmp_path / "hands.jsonl"
    f.write_text(json.dumps({"hand": THREE_FLUSHES, "natural": True}) + "\n")
    assert main(["review", str(f), "--opponents", "3"]) == 0
    out = capsys.readouterr().out
    assert "hands holding a natural: 1 (1 declared): declaring worth +8.778" in out


def test_http_review_fields(app):
    r = app.test_client().post("/v1/capsa/review", json={
        "hands": [{"hand": THREE_FLUSHES, "natural": True}], "opponents": 3})
    assert r.status_code == 200, r.get_json()
    d = r.get_json()
    h = d["hands"][0]
    assert h["natural_ev"] > h["rows_ev"] and h["ev_lost"] == 0
    assert d["summary"]["naturals"]["declared"] == 1


def test_drill_grades_a_natural_not_declared():
    from solver.games.capsa.drill import grade

    rules = {**resolve_rules("standard").to_dict(), "players": 4}
    hand = format_cards(parse_hand(THREE_FLUSHES))
    a = grade(hand, rules, {"front": ["4d", "7d", "Td"], "middle": ["3s", "5s", "9s", "Js", "Qs"],
                            "back": ["2c", "4c", "Tc", "Jc", "Ac"]})
    nat = solver.arrange(THREE_FLUSHES, opponents=3)
    assert a["mistake"] == "natural_not_declared"
    assert a["natural_ev"] == round(nat.natural.ev, 6) and a["rows_ev"] == round(nat.best.ev, 6)
    assert a["ev_lost"] == pytest.approx(nat.natural.ev - nat.best.ev, abs=1e-5)
    d = grade(hand, rules, {"kind": "natural"})
    assert d["ev_lost"] == 0 and d["declared_natural"]


# ---------------------------------------------------------------- the play session
def _session_with_natural(c):
    v = c.post("/v1/sessions", json={"game": "capsa", "rules": {"players": 4},
                                     "seed": 61}).get_json()
    assert v["natural_move"]["natural"] == "three_flushes"
    return v


def test_session_advice_and_review_of_a_declared_natural(make_app):
    c = make_app().test_client()
    v = _session_with_natural(c)
    adv = c.post("/v1/sessions/advice", json={"token": v["token"]}).get_json()
    assert adv["natural"]["declare"] is True
    assert adv["natural"]["ev"] > adv["arrangements"][0]["ev"]
    done = c.post("/v1/sessions/move", json={"token": v["token"],
                                             "move": v["natural_move"]}).get_json()
    rev = done["review"]
    assert rev["declared_natural"] and rev["cost"] is None and rev["mine"] is None
    n = rev["natural"]
    assert n["kind"] == "three_flushes" and n["declare"] and n["ev_lost"] == 0
    assert n["ev"] > n["rows_ev"] == rev["best"][0]["ev"]
    assert n["points"] == rev["actual_points"]
    assert rev["best_response"]["gain"] == pytest.approx(
        rev["best_response"]["points"] - rev["actual_points"])


def test_session_review_of_rows_set_on_a_natural(make_app):
    c = make_app().test_client()
    v = _session_with_natural(c)
    rows = {"front": ["4d", "7d", "Td"], "middle": ["3s", "5s", "9s", "Js", "Qs"],
            "back": ["2c", "4c", "Tc", "Jc", "Ac"]}
    done = c.post("/v1/sessions/move", json={"token": v["token"], "move": rows}).get_json()
    rev = done["review"]
    n = rev["natural"]
    assert not rev["declared_natural"] and n["declare"]
    assert n["ev_lost"] == pytest.approx(n["ev"] - rev["mine"]["ev"], abs=1e-5)
    assert n["rows_ev"] == rev["best"][0]["ev"]
