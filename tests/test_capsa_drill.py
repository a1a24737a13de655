"""The Capsa drill (/v1/sessions/drill...): your 13 cards only, your rows graded at once by the
coach, the running figures kept in the session; deterministic for the seed; "deal again" gives
the same cards; bad requests are 4xx in words."""

from __future__ import annotations

import random

import pytest

from solver import arrange
from solver.cards import cards_named
from solver.games.capsa.coach import MISTAKES, parse_played, review_hand
from solver.games.capsa.prepared import prepare
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.splits import Arrangement, is_foul
from solver.sessions.drill import LAST, TREND_MAX, WORST, DrillService, empty_figures
from solver.sessions.service import derived_seed

DRILL = "/v1/sessions/drill"


@pytest.fixture()
def c(make_app):
    return make_app().test_client()


def _post(client, path, body, status=200):
    r = client.post(path, json=body)
    assert r.status_code == status, (r.status_code, r.get_json())
    return r.get_json()


def _ranked(hand, opponents, k):
    """The k-th best arrangement (0: the best) of the table method."""
    res = arrange(hand, "standard", opponents, "table", top=k + 1)
    return res.arrangements[k].arrangement.to_dict()


def _coach(hand, rows, opponents):
    r = resolve_rules("standard")
    return review_hand(parse_played({"hand": hand, **rows}), prepare(r), opponents, "table")


def _foul(hand, seed=0):
    rng = random.Random(seed)
    while True:
        cards = rng.sample(hand, 13)
        arr = Arrangement.parse(cards[:3], cards[3:8], cards[8:])
        if is_foul(arr):
            return arr.to_dict()


# ---------------------------------------------------------------- the hand and the answer
def test_a_drill_deals_only_your_hand_the_same_as_a_play_session(c):
    v = _post(c, DRILL, {"rules": {"players": 3}, "seed": 21})
    assert v["mode"] == "drill" and v["token"] and v["hand"] == 1 and not v["answered"]
    assert v["opponents"] == 2 and v["rules"]["players"] == 3 and v["method"] == "table"
    assert len(v["own_cards"]) == 13 and v["answer"] is None
    # nothing but my 13 cards is named anywhere in the answer
    assert cards_named(v) == cards_named(v["own_cards"])
    st = v["stats"]
    assert st["hands"] == 0 and st["mean_ev_lost"] is None and st["trend"] == [] == st["worst"]
    assert st["mistake_classes"] == list(MISTAKES) and set(st["by_mistake"]) == set(MISTAKES)
    # hand n is seat 0's hand n of a play session of the same seed
    play = _post(c, "/v1/sessions", {"game": "capsa", "rules": {"players": 3}, "seed": 21})
    assert play["observation"]["hands"][0] == v["own_cards"]
    # the session keeps no other seat's cards
    store = c.application.extensions["sessions"].store
    session = store.load(v["token"])
    assert cards_named([session.meta, session.state]) == cards_named(v["own_cards"])


def test_the_answer_is_the_coachs_review_at_once(c):
    v = _post(c, DRILL, {"rules": {"players": 3}, "seed": 21})
    hand = v["own_cards"]
    rows = _ranked(hand, 2, 4)
    out = _post(c, f"{DRILL}/move", {"token": v["token"], "move": rows})
    a = out["answer"]
    ref = _coach(hand, rows, 2).to_dict()
    assert out["answered"] and a["mine"] == rows
    for k in ("ev", "best_ev", "ev_lost", "exact", "mistake", "mistakes", "best"):
        assert a[k] == ref[k], k
    assert a["ev_lost"] > 0 and a["mistake"] in MISTAKES and not a["exact"]
    # the best EV is the table method's best arrangement
    best = arrange(hand, "standard", 2, "table", top=1).best
    assert a["best_ev"] == pytest.approx(best.ev, abs=1e-6)
    assert a["best"] == best.arrangement.to_dict()
    st = out["stats"]
    assert st["hands"] == 1 and st["exact"] == 0
    assert st["mean_ev_lost"] == st["mean_ev_lost_last"] == st["ev_lost"] == a["ev_lost"]
    assert st["by_mistake"][a["mistake"]] == {"hands": 1, "ev_lost": a["ev_lost"],
                                              "mean_ev_lost": a["ev_lost"], "share_of_lost": 1.0}
    assert st["trend"] == [{"n": 1, "ev_lost": a["ev_lost"], "mistake": a["mistake"],
                            "replay_of": None, "mean": a["ev_lost"], "mean_last": a["ev_lost"]}]
    assert st["worst"] == [{"n": 1, "hand": hand, "ev_lost": a["ev_lost"], "mistake": a["mistake"],
                            "tries": 1, "last_ev_lost": a["ev_lost"], "fixed": False}]
    # the same figures from /stats, and the hand stays answered on /state
    assert _post(c, f"{DRILL}/stats", {"token": v["token"]}) == st
    again = _post(c, f"{DRILL}/state", {"token": v["token"]})
    assert again["answer"] == a and again["natural_move"] is None


def test_best_rows_lose_nothing_and_count_as_exact(c):
    v = _post(c, DRILL, {"rules": {"players": 2}, "seed": 5})
    out = _post(c, f"{DRILL}/move", {"token": v["token"], "move": _ranked(v["own_cards"], 1, 0)})
    a = out["answer"]
    assert a["exact"] and a["ev_lost"] == 0 and a["mistake"] is None and a["mistakes"] == []
    assert out["stats"]["exact"] == 1 and out["stats"]["exact_share"] == 1.0
    assert out["stats"]["worst"] == []  # nothing to practise
    assert all(c["hands"] == 0 for c in out["stats"]["by_mistake"].values())


def test_rows_may_be_sent_as_strings_in_any_order_of_cards(c):
    v = _post(c, DRILL, {"rules": {"players": 2}, "seed": 5})
    rows = _ranked(v["own_cards"], 1, 2)
    sent = {k: " ".join(reversed(x)) for k, x in rows.items()}
    a = _post(c, f"{DRILL}/move", {"token": v["token"], "move": sent})["answer"]
    assert a["ev_lost"] == _coach(v["own_cards"], rows, 1).to_dict()["ev_lost"]


def _natural_seed(c, players=2):
    for seed in range(600):
        v = _post(c, DRILL, {"rules": {"players": players}, "seed": seed})
        if v["natural_move"]:
            return v
    raise AssertionError("no natural in 600 deals")


def test_a_natural_is_offered_and_declared(c):
    v = _natural_seed(c)
    nat = v["natural_move"]
    assert nat["kind"] == "natural" and sorted(nat["cards"]) == sorted(v["own_cards"])
    out = _post(c, f"{DRILL}/move", {"token": v["token"], "move": nat})  # as offered
    a = out["answer"]
    assert a["declared_natural"] and a["mine"] == {"natural": nat["natural"]}
    assert a["natural"] == nat["natural"]
    ref = _coach(v["own_cards"], {"natural": True}, 1).to_dict()
    assert (a["ev"], a["best_ev"], a["mistake"]) == (ref["ev"], ref["best_ev"], ref["mistake"])
    # a bare {kind: natural} does as well; a hand without one refuses it
    v2 = _natural_seed(c)
    assert _post(c, f"{DRILL}/move", {"token": v2["token"], "move": {"kind": "natural"}})["answered"]
    plain = next(x for s in range(50) if not (x := _post(c, DRILL, {"seed": s}))["natural_move"])
    err = _post(c, f"{DRILL}/move", {"token": plain["token"], "move": {"kind": "natural"}}, 422)
    assert "no natural" in err["error"]["message"]


# ---------------------------------------------------------------- the session's figures
def _play(c, token, k, opponents):
    """Set the current hand with its k-th best rows; the answer."""
    hand = _post(c, f"{DRILL}/state", {"token": token})["own_cards"]
    return _post(c, f"{DRILL}/move", {"token": token, "move": _ranked(hand, opponents, k)})


def test_figures_over_all_and_the_last_20_per_class_and_trend(c):
    tok = _post(c, DRILL, {"rules": {"players": 2}, "seed": 99})["token"]
    lost, classes = [], {}
    n = LAST + 3
    for i in range(n):
        out = _play(c, tok, i % 4, 1)
        a = out["answer"]
        lost.append(a["ev_lost"])
        if not a["exact"]:
            classes.setdefault(a["mistake"], []).append(a["ev_lost"])
        if i < n - 1:
            _post(c, f"{DRILL}/next", {"token": tok})
    st = _post(c, f"{DRILL}/stats", {"token": tok})
    assert st["hands"] == n and st["last_hands"] == LAST
    assert st["mean_ev_lost"] == pytest.approx(sum(lost) / n, abs=1e-6)
    assert st["mean_ev_lost_last"] == pytest.approx(sum(lost[-LAST:]) / LAST, abs=1e-6)
    assert st["ev_lost"] == pytest.approx(sum(lost), abs=1e-5)
    assert st["exact"] == sum(x == 0 for x in lost)
    for m in MISTAKES:
        got = st["by_mistake"][m]
        assert got["hands"] == len(classes.get(m, []))
        assert got["ev_lost"] == pytest.approx(sum(classes.get(m, [])), abs=1e-5)
    assert sum(x["hands"] for x in st["by_mistake"].values()) + st["exact"] == n
    trend = st["trend"]
    assert [p["n"] for p in trend] == list(range(1, n + 1))
    assert [p["ev_lost"] for p in trend] == lost
    for i, p in enumerate(trend):
        assert p["mean"] == pytest.approx(sum(lost[:i + 1]) / (i + 1), abs=1e-5)
        window = lost[max(0, i + 1 - LAST):i + 1]
        assert p["mean_last"] == pytest.approx(sum(window) / len(window), abs=1e-5)
    worst = st["worst"]
    assert len(worst) == min(WORST, sum(x > 0 for x in lost))
    assert [w["ev_lost"] for w in worst] == sorted([x for x in lost if x > 0], reverse=True)[:WORST]
    assert all(lost[w["n"] - 1] == w["ev_lost"] for w in worst)


def test_the_trend_is_bounded_but_the_figures_cover_every_hand():
    fig = empty_figures()
    hand = ["2c"] * 13  # only the worst list reads it
    for n in range(1, TREND_MAX + 51):
        DrillService._count(fig, n, [f"{n}"] * 13 if n % 3 else hand, None,
                            {"ev_lost": 0.5 if n % 2 else 0.0, "exact": n % 2 == 0,
                             "mistake": "other" if n % 2 else None})
    assert fig["hands"] == TREND_MAX + 50 and len(fig["trend"]) == TREND_MAX
    assert fig["trend"][0]["n"] == 51 and fig["trend"][-1]["n"] == TREND_MAX + 50
    assert fig["ev_lost"] == pytest.approx(0.5 * (TREND_MAX + 50) / 2)
    assert fig["by_mistake"]["other"]["hands"] == (TREND_MAX + 50) // 2
    assert len(fig["worst"]) <= WORST


def test_the_same_seed_and_moves_give_the_same_drill(make_app):
    def run(client):
        v = _post(client, DRILL, {"rules": {"players": 4}, "seed": 1234})
        out = []
        for k in (3, 0, 1):
            out.append(_post(client, f"{DRILL}/next", {"token": v["token"]}) if k != 3 else v)
            out.append(_play(client, v["token"], k, 3))
        out.append(_post(client, f"{DRILL}/again", {"token": v["token"], "n": 1}))
        out.append(_play(client, v["token"], 0, 3))
        for o in out:
            o.pop("token", None)
            o.pop("expires")
        return out

    assert run(make_app().test_client()) == run(make_app().test_client())
    # and another seed deals other cards
    c = make_app().test_client()
    a = _post(c, DRILL, {"seed": 1})["own_cards"]
    b = _post(c, DRILL, {"seed": 2})["own_cards"]
    assert a != b


def test_next_hands_follow_the_seed(c):
    from solver.cards import format_cards
    from solver.games.capsa.game import deal

    v = _post(c, DRILL, {"rules": {"players": 2}, "seed": 8})
    assert v["own_cards"] == format_cards(deal(derived_seed(8, 1), 2)[0])
    _play(c, v["token"], 1, 1)
    nxt = _post(c, f"{DRILL}/next", {"token": v["token"]})
    assert nxt["hand"] == 2 and nxt["replay_of"] is None and not nxt["answered"]
    assert nxt["own_cards"] == format_cards(deal(derived_seed(8, 2), 2)[0])


def test_deal_again_gives_the_same_cards_and_tracks_the_worst_mistake(c):
    v = _post(c, DRILL, {"rules": {"players": 3}, "seed": 21})
    tok, hand = v["token"], v["own_cards"]
    first = _play(c, tok, 4, 2)["answer"]
    assert first["ev_lost"] > 0
    _post(c, f"{DRILL}/next", {"token": tok})
    _play(c, tok, 0, 2)
    worst = _post(c, f"{DRILL}/stats", {"token": tok})["worst"]
    assert [w["n"] for w in worst] == [1]  # the handle of the costly hand
    again = _post(c, f"{DRILL}/again", {"token": tok, "n": worst[0]["n"]})
    assert again["own_cards"] == hand and again["replay_of"] == 1 and again["hand"] == 3
    assert not again["answered"]
    # set right this time: the worst entry keeps its cost, counts the try and says fixed
    out = _play(c, tok, 0, 2)
    w = out["stats"]["worst"][0]
    assert (w["n"], w["ev_lost"], w["tries"], w["last_ev_lost"], w["fixed"]) == \
        (1, first["ev_lost"], 2, 0.0, True)
    assert out["stats"]["trend"][-1]["replay_of"] == 1 and out["stats"]["hands"] == 3
    # any drilled hand can be dealt again, a practised one too
    assert _post(c, f"{DRILL}/again", {"token": tok, "n": 3})["own_cards"] == hand


def test_a_worst_hand_pruned_from_the_records_can_still_be_dealt_again(make_app):
    c = make_app(SESSIONS_MAX_HANDS=2).test_client()
    v = _post(c, DRILL, {"rules": {"players": 3}, "seed": 21})
    tok, hand = v["token"], v["own_cards"]
    _play(c, tok, 4, 2)
    for _ in range(3):
        _post(c, f"{DRILL}/next", {"token": tok})
        _play(c, tok, 0, 2)
    store = c.application.extensions["sessions"].store
    assert store.hand(store.load(tok), 1) is None
    assert _post(c, f"{DRILL}/again", {"token": tok, "n": 1})["own_cards"] == hand
    _play(c, tok, 0, 2)
    assert _post(c, f"{DRILL}/again", {"token": tok, "n": 2}, 404)  # neither kept nor worst


def test_a_restart_continues_the_drill(make_app):
    c = make_app().test_client()
    v = _post(c, DRILL, {"seed": 3})
    _play(c, v["token"], 2, 3)
    c2 = make_app().test_client()
    st = _post(c2, f"{DRILL}/state", {"token": v["token"]})
    assert st["answered"] and st["stats"]["hands"] == 1 and st["own_cards"] == v["own_cards"]
    assert _post(c2, f"{DRILL}/next", {"token": v["token"]})["hand"] == 2


def test_the_live_check_of_the_rows(c):
    v = _post(c, DRILL, {"rules": {"players": 2}, "seed": 5})
    tok, hand = v["token"], v["own_cards"]
    rows = _ranked(hand, 1, 0)
    out = _post(c, f"{DRILL}/check", {"token": tok, "rows": rows})
    assert out["complete"] and not out["foul"] and all(r["kind"] for r in out["rows"].values())
    part = _post(c, f"{DRILL}/check", {"token": tok, "rows": {"front": rows["front"][:2]}})
    assert not part["complete"] and part["rows"]["front"]["cards"] == 2
    foul = _post(c, f"{DRILL}/check", {"token": tok, "rows": _foul(hand)})
    assert foul["foul"] and foul["problems"]
    other = next(x for x in ("As", "Ks", "Qs", "2c", "3d") if x not in hand)
    err = _post(c, f"{DRILL}/check", {"token": tok, "rows": {"front": [other]}}, 422)
    assert "not in your hand" in err["error"]["message"]
    _post(c, f"{DRILL}/move", {"token": tok, "move": rows})
    _post(c, f"{DRILL}/check", {"token": tok, "rows": {}}, 409)


# ---------------------------------------------------------------- bad requests
DRILL_ROUTES = {"state": {}, "check": {"rows": {}}, "move": {"move": {"kind": "natural"}},
                "next": {}, "again": {"n": 1}, "stats": {}}


def test_every_drill_route_is_404_for_an_unknown_token_and_409_for_a_play_session(c):
    tok = _post(c, DRILL, {"seed": 2})["token"]
    play = _post(c, "/v1/sessions", {"game": "capsa", "rules": {"players": 2}, "seed": 2})["token"]
    for route, extra in DRILL_ROUTES.items():
        for bad in (tok[:-1] + ("A" if tok[-1] != "A" else "B"), "no-such-token"):
            err = _post(c, f"{DRILL}/{route}", {"token": bad, **extra}, 404)
            assert "token" in err["error"]["message"], route
        err = _post(c, f"{DRILL}/{route}", {"token": play, **extra}, 409)
        assert err["error"]["code"] == "not_a_drill", route
    # and the play routes refuse a drill
    for route, extra in (("state", {}), ("next", {}), ("history", {}), ("advice", {}),
                         ("check", {"rows": {}}), ("hand", {"n": 1}), ("replay", {"n": 1}),
                         ("export", {"n": 1}),
                         ("move", {"move": {"front": [], "middle": [], "back": []}})):
        err = _post(c, f"/v1/sessions/{route}", {"token": tok, **extra}, 409)
        assert err["error"]["code"] == "drill_session", route
    # /delete ends a drill like any session
    assert _post(c, "/v1/sessions/delete", {"token": tok}) == {"deleted": True}
    _post(c, f"{DRILL}/state", {"token": tok}, 404)


def test_moves_out_of_order_are_409(c):
    v = _post(c, DRILL, {"seed": 4})
    tok = v["token"]
    for route, extra in (("next", {}), ("again", {"n": 1})):
        err = _post(c, f"{DRILL}/{route}", {"token": tok, **extra}, 409)
        assert "first" in err["error"]["message"]
    rows = _ranked(v["own_cards"], 3, 0)
    _post(c, f"{DRILL}/move", {"token": tok, "move": rows})
    err = _post(c, f"{DRILL}/move", {"token": tok, "move": rows}, 409)
    assert "answered" in err["error"]["message"]
    assert _post(c, f"{DRILL}/again", {"token": tok, "n": 7}, 404)["error"]["message"] == \
        "no such hand 7 in this session"


def test_illegal_moves_are_422_naming_why(c):
    v = _post(c, DRILL, {"seed": 4})
    tok, hand = v["token"], v["own_cards"]
    err = _post(c, f"{DRILL}/move", {"token": tok, "move": _foul(hand)}, 422)
    assert "fouls" in err["error"]["message"]
    other = [x for x in ("As", "Ks", "Qs", "Js", "2c", "3d", "4h") if x not in hand][0]
    rows = _ranked(hand, 3, 0)
    rows["back"] = rows["back"][:4] + [other]
    err = _post(c, f"{DRILL}/move", {"token": tok, "move": rows}, 422)
    assert "your hand is" in err["error"]["message"]
    rows = _ranked(hand, 3, 0)
    dup = {**rows, "back": rows["back"][:4] + [rows["front"][0]]}
    assert _post(c, f"{DRILL}/move", {"token": tok, "move": dup}, 422)
    wrong = sorted(set(hand) - {hand[0]}) + [other]
    err = _post(c, f"{DRILL}/move", {"token": tok, "move": {"kind": "natural", "cards": wrong}}, 422)
    assert "your hand is" in err["error"]["message"]
    # nothing was counted
    assert _post(c, f"{DRILL}/stats", {"token": tok})["hands"] == 0


@pytest.mark.parametrize("body", [
    {"rules": {"players": 5}},
    {"rules": {"players": 1}},
    {"rules": {"preset": "chess"}},
    {"game": "big-two"},
    {"seed": -1},
    {"seed": "12"},
    {"drill": True},
    {"rules": "standard"},
])
def test_bad_create_bodies_are_400(c, body):
    err = _post(c, DRILL, body, 400)
    assert err["error"]["code"] == "invalid_request" and err["error"]["message"]


def test_bad_move_and_check_bodies_are_400(c):
    tok = _post(c, DRILL, {"seed": 4})["token"]
    for body in ({"token": tok, "move": {"front": ["As"], "middle": [], "back": []}},
                 {"token": tok, "move": {"front": "As Kd", "middle": "x", "back": "y"}},
                 {"token": tok, "move": {"kind": "natural", "extra": 1}},
                 {"token": tok, "move": {"kind": "pass"}},
                 {"token": tok, "move": "As"},
                 {"token": tok},
                 {"token": "bad token!", "move": {"kind": "natural"}}):
        assert _post(c, f"{DRILL}/move", body, 400)["error"]["message"]
    for body in ({"token": tok, "rows": {"front": ["As", "Kd", "Qh", "Jc"]}},
                 {"token": tok, "rows": {"side": []}},
                 {"token": tok, "rows": {"front": ["Zz"]}}):
        assert _post(c, f"{DRILL}/check", body, 400)["error"]["message"]
    assert _post(c, f"{DRILL}/again", {"token": tok, "n": 0}, 400)


def test_rules_options_reach_the_coach(c):
    v = _post(c, DRILL, {"rules": {"preset": "two-four", "players": 2}, "seed": 6})
    assert v["rules"]["scoring"] == "two-four"
    rows = _ranked(v["own_cards"], 1, 0)
    a = _post(c, f"{DRILL}/move", {"token": v["token"], "move": rows})["answer"]
    r = resolve_rules({k: x for k, x in v["rules"].items() if k != "players"})
    ref = review_hand(parse_played({"hand": v["own_cards"], **rows}), prepare(r), 1)
    assert a["best_ev"] == round(ref.best_ev, 6)


def test_games_listing_says_which_game_has_a_drill(c):
    games = {g["name"]: g for g in c.get("/v1/sessions/games").get_json()["games"]}
    assert games["capsa"]["drill"] is True
    assert not any(g["drill"] for n, g in games.items() if n != "capsa")


def test_a_leaky_drill_answer_is_refused_with_a_500_naming_no_card(c, monkeypatch):
    v = _post(c, DRILL, {"seed": 4})
    stranger = next(x for x in ("As", "Ks", "2c", "3d") if x not in v["own_cards"])
    real = DrillService.figures

    def leaky(session):
        out = real(session)
        out["oops"] = stranger
        return out

    monkeypatch.setattr(DrillService, "figures", staticmethod(leaky))
    r = c.post(f"{DRILL}/stats", json={"token": v["token"]})
    assert r.status_code == 500 and stranger not in r.get_data(as_text=True)
