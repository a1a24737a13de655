"""The play page's Hint against the opponents' profiles: ``/v1/sessions/advice`` takes
``opponent_profiles`` (Capsa), answers Monte Carlo against those players, the solver's own
answer at the seed it names; a wrong count or a bad profile is a 422 naming it, and a game
whose hint takes no profiles says so."""

from __future__ import annotations

import numpy as np
import pytest

import solver
from solver.games.capsa.splits import unpack_split
from solver.games.capsa.strategy.play import deal, naive_play


def _post(client, path, body, status=200):
    r = client.post(path, json=body)
    assert r.status_code == status, (r.status_code, r.get_json())
    return r.get_json()


@pytest.fixture(scope="module")
def naive_profile():
    rules = solver.resolve_rules("standard")
    hands = deal(np.random.default_rng(3), 30, 1)[:, 0]
    packed, _ = naive_play(hands, rules)
    return solver.profile([unpack_split(h, int(p)).to_dict() for h, p in zip(hands, packed)],
                          rules="standard").to_dict()


def _rules(view):
    return {k: v for k, v in view["observation"]["rules"].items() if k != "players"}


def test_capsa_hint_against_profiles_is_the_solvers_answer(make_app, naive_profile):
    c = make_app().test_client()
    v = _post(c, "/v1/sessions", {"game": "capsa", "rules": {"players": 3}, "seed": 4})
    hand = v["observation"]["hands"][0]
    plain = _post(c, "/v1/sessions/advice", {"token": v["token"]})
    assert plain["method"] == "table"
    table = solver.Profile.table().to_dict()
    got = _post(c, "/v1/sessions/advice", {"token": v["token"],
                                           "opponent_profiles": [naive_profile, table]})
    assert got["method"] == "montecarlo" and got["opponents"] == 2
    want = solver.arrange(hand, _rules(v), 2, "montecarlo", got["samples"], seed=got["seed"],
                          opponent_profiles=[naive_profile, table])
    assert [a["ev"] for a in got["arrangements"]] == pytest.approx(
        [a.ev for a in want.arrangements[:len(got["arrangements"])]], abs=1e-9)
    assert got["arrangements"][0]["front"] == want.best.to_dict()["front"]
    # table's own profile for both opponents: today's Monte Carlo at that seed
    both = _post(c, "/v1/sessions/advice", {"token": v["token"], "opponent_profiles": [table, table]})
    today = solver.arrange(hand, _rules(v), 2, "montecarlo", both["samples"], seed=both["seed"])
    assert both["arrangements"][0]["ev"] == pytest.approx(today.best.ev, abs=1e-9)
    assert sorted(got["hand"]) == sorted(hand)  # the human's cards, nobody else's


@pytest.mark.parametrize("profiles, words", [
    (1, "2 profiles for 1 opponent"),
    ([{"format": "other"}], "not a profile"),
])
def test_bad_profiles_are_named(make_app, naive_profile, profiles, words):
    c = make_app().test_client()
    v = _post(c, "/v1/sessions", {"game": "capsa", "rules": {"players": 2}, "seed": 4})
    sent = [naive_profile, naive_profile] if profiles == 1 else profiles
    err = _post(c, "/v1/sessions/advice", {"token": v["token"], "opponent_profiles": sent},
                status=422)["error"]
    assert words in err["message"]


def test_a_hint_that_takes_no_profiles_says_so(make_app, naive_profile):
    c = make_app().test_client()
    v = _post(c, "/v1/sessions", {"game": "big-two", "seed": 4})
    if not v["your_turn"]:
        pytest.skip("the seed does not give the human the first turn")
    err = _post(c, "/v1/sessions/advice", {"token": v["token"],
                                           "opponent_profiles": [naive_profile]}, status=422)
    assert "takes no opponent_profiles" in err["error"]["message"]


def _rows(arr):
    return {k: arr[k] for k in ("front", "middle", "back")}


def test_the_drill_deals_against_a_profile(make_app, naive_profile):
    """Graded by Monte Carlo against the profiled player: the best rows it names lose nothing
    on the same hand, the table's best loses what the answer says, and practising the hand
    again grades it on the same deals."""
    c = make_app().test_client()
    plain = _post(c, "/v1/sessions/drill", {"rules": {"players": 2}, "seed": 9})
    v = _post(c, "/v1/sessions/drill", {"rules": {"players": 2}, "seed": 9,
                                        "opponent_profiles": [naive_profile]})
    assert (plain["method"], plain["against_profiles"]) == ("table", 0)
    assert (v["method"], v["against_profiles"]) == ("montecarlo", 1)
    assert v["own_cards"] == plain["own_cards"]
    hand = v["own_cards"]
    table_best = _rows(solver.arrange(" ".join(hand), opponents=1).best.to_dict())
    got = _post(c, "/v1/sessions/drill/move", {"token": v["token"], "move": table_best})["answer"]
    ref = _post(c, "/v1/sessions/drill/move", {"token": plain["token"], "move": table_best})["answer"]
    assert got["method"] == "montecarlo" and ref["method"] == "table" and ref["exact"]
    assert got["ev"] != ref["ev"]  # other opponents, other values
    assert got["best_ev"] >= got["ev"] and got["ev_lost"] == pytest.approx(got["best_ev"] - got["ev"], abs=1e-6)
    same = {r: sorted(c) for r, c in _rows(got["best"]).items()} == {
        r: sorted(c) for r, c in table_best.items()}
    assert not same  # against this player the best rows are not table's
    again = _post(c, "/v1/sessions/drill/again", {"token": v["token"], "n": 1})
    assert again["own_cards"] == hand
    best = _post(c, "/v1/sessions/drill/move", {"token": v["token"], "move": _rows(got["best"])})
    assert best["answer"]["ev_lost"] == pytest.approx(0, abs=1e-9)
    assert best["answer"]["best_ev"] == pytest.approx(got["best_ev"], abs=1e-9)


@pytest.mark.parametrize("players, rules, words", [
    (3, None, "1 profiles for 2 opponents"),
    (2, "two-four", "other rules"),
])
def test_a_drill_with_bad_profiles_is_refused(make_app, naive_profile, players, rules, words):
    c = make_app().test_client()
    body = {"rules": {"players": players, **({"preset": rules} if rules else {})},
            "opponent_profiles": [naive_profile]}
    err = _post(c, "/v1/sessions/drill", body, status=422)["error"]
    assert words in err["message"]
