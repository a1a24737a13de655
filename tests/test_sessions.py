"""Game sessions: the SQLite store's bounds, the HTTP endpoints, and that no answer shows a
card hidden from the human seat."""

from __future__ import annotations

import random

import pytest

from solver import arrange
from solver.cards import cards_named as card_strings
from solver.games import get_game, list_games
from solver.games.capsa.splits import Arrangement, is_foul
from solver.sessions.service import LeakError, SessionService
from solver.sessions.store import SessionNotFound, SessionStore


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _post(client, path, body, status=200):
    r = client.post(path, json=body)
    assert r.status_code == status, (r.status_code, r.get_json())
    return r.get_json()


def _capsa_move(client, token):
    best = _post(client, "/v1/sessions/advice", {"token": token})["arrangements"][0]
    return {k: best[k] for k in ("front", "middle", "back")}


def _hidden(view_doc, game, seat):
    state = get_game(game).from_json(view_doc)
    return state.hidden_cards(seat)


def test_capsa_table_review_history_replay_export_import(make_app):
    c = make_app().test_client()
    v = _post(c, "/v1/sessions", {"game": "capsa", "rules": {"players": 3}, "seed": 11,
                                  "bots": ["table", "montecarlo"]})
    tok = v["token"]
    assert v["your_turn"] and v["legal_moves"] is None and v["legal_count"] > 1000
    assert v["observation"]["hands"][1] is None and v["observation"]["hands"][2] is None
    hand = v["observation"]["hands"][0]
    move = _capsa_move(c, tok)
    done = _post(c, "/v1/sessions/move", {"token": tok, "move": move})
    assert done["terminal"] and done["score"] == done["returns"]
    assert sum(done["returns"]) == 0
    rev = done["review"]
    assert rev["mine"]["ev"] <= rev["best"][0]["ev"] + 1e-9 and rev["cost"] >= 0
    assert len(rev["best"]) == 5
    # the top 5 are the Monte Carlo answer on the same seed and samples
    ref = arrange(hand, {k: val for k, val in done["observation"]["rules"].items()
                         if k != "players"}, 2, "montecarlo", rev["samples"], seed=rev["seed"])
    assert ref.best.ev == pytest.approx(rev["best"][0]["ev"], abs=1e-6)
    # the best response to the actual opponents scores at least what I scored
    assert rev["best_response"]["points"] >= rev["actual_points"] - 1e-9
    hist = _post(c, "/v1/sessions/history", {"token": tok})
    assert [h["n"] for h in hist["hands"]] == [1]
    frames = _post(c, "/v1/sessions/hand", {"token": tok, "n": 1})["frames"]
    assert len(frames) == 4 and frames[1]["move"]["front"] == move["front"]
    again = _post(c, "/v1/sessions/replay", {"token": tok, "n": 1})
    assert again["replay_of"] == 1 and again["hand"] == 2
    assert again["observation"]["hands"][0] == hand
    doc = _post(c, "/v1/sessions/export", {"token": tok, "n": 1})
    assert doc["game"] == "capsa" and len(doc["history"]) == 3
    imp = _post(c, "/v1/sessions/import", {"hand": doc})
    assert imp["terminal"] and imp["token"] != tok
    nxt = _post(c, "/v1/sessions/move", {"token": tok, "move": move})
    assert nxt["hand"] == 2 and nxt["terminal"]
    assert nxt["score"] == pytest.approx([a + b for a, b in zip(done["score"], nxt["returns"])])
    n3 = _post(c, "/v1/sessions/next", {"token": tok})
    assert n3["hand"] == 3 and not n3["terminal"]


def test_errors_are_4xx_in_words(make_app):
    c = make_app().test_client()
    tok = _post(c, "/v1/sessions", {"game": "capsa", "rules": {"players": 2}, "seed": 3})["token"]
    for path in ("/v1/sessions/state", "/v1/sessions/next", "/v1/sessions/history"):
        assert "token" in _post(c, path, {"token": tok + "x"}, 404)["error"]["message"]
    err = _post(c, "/v1/sessions/move", {"token": tok, "move": {"front": ["As"]}}, 422)
    assert "middle" in err["error"]["message"]
    # a foul is refused by the engine, naming why
    hand = _post(c, "/v1/sessions/state", {"token": tok})["observation"]["hands"][0]
    best = _capsa_move(c, tok)
    rng = random.Random(0)
    while True:
        cards = rng.sample(hand, 13)
        arr = Arrangement.parse(cards[:3], cards[3:8], cards[8:])
        if is_foul(arr):
            break
    err = _post(c, "/v1/sessions/move", {"token": tok, "move": arr.to_dict()}, 422)
    assert "fouls" in err["error"]["message"]
    _post(c, "/v1/sessions/move", {"token": tok, "move": best})
    tok2 = _post(c, "/v1/sessions", {"game": "capsa", "rules": {"players": 2}})["token"]
    assert "finish" in _post(c, "/v1/sessions/next", {"token": tok2}, 409)["error"]["message"]
    assert _post(c, "/v1/sessions/hand", {"token": tok, "n": 5}, 404)
    assert _post(c, "/v1/sessions", {"game": "capsa", "bots": "nobody"}, 422)
    assert _post(c, "/v1/sessions", {"game": "chess"}, 422)


def test_restart_continues_the_session(make_app):
    c = make_app().test_client()
    v = _post(c, "/v1/sessions", {"game": "capsa", "rules": {"players": 2}, "seed": 9})
    c2 = make_app().test_client()  # a new app on the same file
    v2 = _post(c2, "/v1/sessions/state", {"token": v["token"]})
    assert v2["observation"] == v["observation"]
    done = _post(c2, "/v1/sessions/move", {"token": v["token"], "move": _capsa_move(c2, v["token"])})
    assert done["terminal"]


def test_expired_sessions_are_gone(make_app):
    clock = Clock()
    c = make_app(SESSIONS_TTL=60, SESSIONS_CLOCK=clock).test_client()
    tok = _post(c, "/v1/sessions", {"game": "capsa", "rules": {"players": 2}, "seed": 1})["token"]
    clock.now += 59
    _post(c, "/v1/sessions/state", {"token": tok})
    clock.now += 61
    _post(c, "/v1/sessions/state", {"token": tok}, 404)


def test_store_stays_bounded(tmp_path):
    clock = Clock()
    store = SessionStore(str(tmp_path / "b.sqlite3"), max_sessions=20, max_hands=3,
                         max_bytes=10**9, clock=clock)
    state = {"doc": {"pad": "x" * 2000}}
    tokens = []
    for i in range(60):
        clock.now += 1
        s = store.create("capsa", {"i": i}, state)
        tokens.append(s.token)
        for n in range(1, 6):
            store.save(s, {"n": n, "doc": state})
    st = store.stats()
    assert st["sessions"] == 20 and st["hands"] == 20 * 3
    size_at_60 = st["file_bytes"]
    for i in range(120):
        clock.now += 1
        s = store.create("capsa", {"i": i}, state)
        for n in range(1, 6):
            store.save(s, {"n": n, "doc": state})
    st = store.stats()
    assert st["sessions"] == 20 and st["hands"] == 60
    assert st["file_bytes"] <= 2 * size_at_60 + 200_000
    with pytest.raises(SessionNotFound):
        store.load(tokens[0])  # the least recently used went first
    assert store.load(s.token).meta == {"i": 119}
    # the byte budget evicts too
    small = SessionStore(str(tmp_path / "c.sqlite3"), max_bytes=30_000, clock=clock)
    for _ in range(40):
        clock.now += 1
        small.create("capsa", {}, state)
    assert small.stats()["bytes"] <= 30_000


@pytest.mark.parametrize("name", list_games())
def test_no_answer_shows_a_hidden_card(make_app, name):
    """Random playouts through the endpoints: every answer is checked against the cards the
    human seat may not see at that moment."""
    info = get_game(name)
    c = make_app().test_client()
    rng = random.Random(name)
    for game_no in range(3):
        players = info.players[0] + game_no % (info.players[1] - info.players[0] + 1)
        rules = {"players": players} if any(o.name == "players" for o in info.options) else None
        v = _post(c, "/v1/sessions", {"game": name, "rules": rules, "seed": game_no,
                                      "seat": game_no % players, "bots": list(info.bots)[-1]})
        tok, seat = v["token"], v["seat"]
        asked = False
        for _ in range(600):
            svc_doc = c.application.extensions["sessions"].store.load(tok).state["doc"]
            hidden = _hidden(svc_doc, name, seat)
            assert not card_strings(v) & hidden
            for path in ("/v1/sessions/state", "/v1/sessions/history"):
                assert not card_strings(_post(c, path, {"token": tok})) & hidden
            if v["your_turn"] and v["advisor"] and not asked:  # the advisor sees my view only
                asked = True
                assert not card_strings(_post(c, "/v1/sessions/advice", {"token": tok})) & hidden
            if v["terminal"]:
                break
            if v["legal_moves"] is not None:
                move = rng.choice(v["legal_moves"])
            else:
                state = get_game(name).from_json(svc_doc)
                moves = state.legal_moves(seat)
                move = state.move_json(moves[rng.randrange(len(moves))])
            v = _post(c, "/v1/sessions/move", {"token": tok, "move": move})
        assert v["terminal"]
        frames = _post(c, "/v1/sessions/hand", {"token": tok, "n": 1})
        final = get_game(name).from_json(c.application.extensions["sessions"].store
                                         .load(tok).state["doc"])
        assert not card_strings(frames) & final.hidden_cards(seat)
        assert len(frames["frames"]) == len(final.history) + 1
        # export gives the whole deal: only once the rules have shown every card of it
        r = c.post("/v1/sessions/export", json={"token": tok, "n": 1})
        hidden = final.hidden_cards(seat)
        assert r.status_code == (409 if hidden else 200), r.get_json()
        if hidden:
            assert r.get_json()["error"]["code"] == "hidden_cards"
            assert "never showed you" in r.get_json()["error"]["message"]
        else:
            assert get_game(name).from_json(r.get_json()).returns() == final.returns()
        hist = _post(c, "/v1/sessions/history", {"token": tok})["hands"]
        assert hist[0]["exportable"] == (not hidden)


TOKEN_ROUTES = ("state", "move", "next", "advice", "history", "hand", "replay", "export",
                "check", "delete")


def test_every_route_is_404_for_an_unknown_or_wrong_token(make_app):
    c = make_app().test_client()
    tok = _post(c, "/v1/sessions", {"game": "big-two", "seed": 2})["token"]
    extra = {"move": {"move": {"cards": [], "kind": "pass"}}, "hand": {"n": 1},
             "replay": {"n": 1}, "export": {"n": 1}, "check": {"rows": {}}}
    for route in TOKEN_ROUTES:
        for bad in (tok[:-1] + ("A" if tok[-1] != "A" else "B"), "no-such-token"):
            err = _post(c, f"/v1/sessions/{route}", {"token": bad, **extra.get(route, {})}, 404)
            assert "token" in err["error"]["message"], route
    _post(c, "/v1/sessions/state", {"token": tok})  # the real token still works


@pytest.mark.parametrize("name", list_games())
def test_illegal_moves_are_4xx_naming_why(make_app, name):
    c = make_app().test_client()
    v = _post(c, "/v1/sessions", {"game": name, "seed": 4})
    tok = v["token"]
    assert v["your_turn"]
    for bad in ({"kind": "no_such_kind", "cards": []}, {"cards": ["Zz"], "kind": "pass"},
                {"front": ["As"]}, {"cards": 7}):
        r = c.post("/v1/sessions/move", json={"token": tok, "move": bad})
        assert r.status_code in (400, 422), (bad, r.status_code, r.get_json())
        assert r.get_json()["error"]["message"]
    # a card the seat does not hold
    mine = set(card_strings(v["observation"]))
    state = get_game(name).from_json(c.application.extensions["sessions"].store.load(tok)
                                     .state["doc"])
    other = sorted(state.hidden_cards(v["seat"]) - mine)[0]
    from solver.cards import format_card

    if name == "capsa":
        hand = v["observation"]["hands"][v["seat"]]
        move = {"front": [format_card(other)] + hand[1:3], "middle": hand[3:8], "back": hand[8:]}
    else:
        first = v["legal_moves"][0]
        move = {**first, "cards": [format_card(other)]}
    err = _post(c, "/v1/sessions/move", {"token": tok, "move": move}, 422)
    assert err["error"]["code"] == "illegal_move" and err["error"]["message"]
    after = _post(c, "/v1/sessions/state", {"token": tok})
    assert after["observation"] == v["observation"]  # nothing was played


def test_games_say_which_have_an_advisor(make_app):
    c = make_app().test_client()
    games = {g["name"]: g for g in c.get("/v1/sessions/games").get_json()["games"]}
    assert sorted(games) == list_games()
    for name, g in games.items():
        assert g["playable"], name
        assert g["advisor"] == get_game(name).has_advice
        assert g["presentation"] == get_game(name).presentation.name
        v = _post(c, "/v1/sessions", {"game": name, "seed": 1})
        assert v["advisor"] == g["advisor"]
        r = c.post("/v1/sessions/advice", json={"token": v["token"]})
        assert (r.status_code == 200) == g["advisor"], (name, r.get_json())


def test_capsa_row_check_agrees_with_the_referee(make_app):
    c = make_app().test_client()
    v = _post(c, "/v1/sessions", {"game": "capsa", "rules": {"players": 2}, "seed": 21})
    tok, hand = v["token"], v["observation"]["hands"][0]
    rng = random.Random(5)
    fouls = 0
    for _ in range(30):
        cards = rng.sample(hand, 13)
        rows = {"front": cards[:3], "middle": cards[3:8], "back": cards[8:]}
        out = _post(c, "/v1/sessions/check", {"token": tok, "rows": rows})
        assert out["complete"]
        assert out["foul"] == is_foul(Arrangement.parse(*rows.values()))
        fouls += out["foul"]
    assert 0 < fouls < 30
    part = _post(c, "/v1/sessions/check", {"token": tok, "rows": {"front": hand[:3]}})
    assert not part["complete"] and not part["foul"] and part["rows"]["front"]["kind"]
    assert part["rows"]["back"] == {"cards": 0, "size": 5, "full": False, "kind": None}
    other = next(x for x in ("As", "Ks", "Qs", "2c", "3d") if x not in hand)
    err = _post(c, "/v1/sessions/check", {"token": tok, "rows": {"front": [other]}}, 422)
    assert other in err["error"]["message"]
    _post(c, "/v1/sessions/check", {"token": tok, "rows": {"side": []}}, 422)
    bt = _post(c, "/v1/sessions", {"game": "big-two", "seed": 1})["token"]
    _post(c, "/v1/sessions/check", {"token": bt, "rows": {}}, 409)


def test_da_bai_fen_levels_carry_over_between_hands(make_app):
    from solver.games.da_bai_fen.levels import levels_after
    from solver.games.da_bai_fen.rules import TOP_LEVEL

    c = make_app().test_client()
    v = _post(c, "/v1/sessions", {"game": "da-bai-fen", "seed": 8, "bots": "greedy"})
    tok = v["token"]
    store = c.application.extensions["sessions"].store
    rng = random.Random(1)
    for _ in range(4):
        while not v["terminal"]:
            v = _post(c, "/v1/sessions/move", {"token": tok, "move": rng.choice(v["legal_moves"])})
        prev = get_game("da-bai-fen").from_json(store.load(tok).state["doc"])
        r = prev.result
        levels = levels_after(prev.levels, r)
        assert (v["game_over"] is not None) == (max(levels) > TOP_LEVEL)
        v = _post(c, "/v1/sessions/next", {"token": tok})
        deal = store.load(tok).state["doc"]["deal"]
        if max(levels) > TOP_LEVEL:
            assert deal["leader"] is None and deal["levels"] == ["2", "2"]
        else:
            assert deal["leader"] == r.next_leader == deal["dealer"]
            assert get_game("da-bai-fen").new_game(hands=deal).levels == levels


def _natural_seed(c, players: int = 2) -> tuple[int, dict]:
    """A session seed whose first Capsa hand holds a natural (about one deal in 40)."""
    for seed in range(600):
        v = _post(c, "/v1/sessions", {"game": "capsa", "rules": {"players": players},
                                      "seed": seed})
        if v["natural_move"]:
            return seed, v
    raise AssertionError("no natural in 600 deals")


def test_capsa_natural_is_offered_and_declared(make_app):
    from solver.games.capsa.naturals import detect_natural
    from solver.games.capsa.rules import resolve_rules
    from solver.games.capsa.splits import parse_hand

    c = make_app().test_client()
    _, v = _natural_seed(c)
    hand = v["observation"]["hands"][0]
    rules = {k: x for k, x in v["observation"]["rules"].items() if k != "players"}
    natural = detect_natural(parse_hand(hand), resolve_rules(rules))
    assert natural is not None and v["natural_move"]["natural"] == natural.kind
    assert sorted(v["natural_move"]["cards"]) == sorted(hand)
    done = _post(c, "/v1/sessions/move", {"token": v["token"], "move": v["natural_move"]})
    assert done["terminal"] and done["observation"]["result"]["players"][0]["natural"]
    assert done["review"]["declared_natural"] and done["review"]["cost"] is None
    # a hand without a natural offers none
    plain = _post(c, "/v1/sessions", {"game": "capsa", "rules": {"players": 2}, "seed": 1})
    if plain["natural_move"] is None:
        r = c.post("/v1/sessions/move", json={"token": plain["token"], "move": {
            "kind": "natural", "cards": plain["observation"]["hands"][0]}})
        assert r.status_code == 422 and "natural" in r.get_json()["error"]["message"]


def test_the_leak_guard_fires_on_any_spelling_of_a_hidden_card():
    """Jokers and strings of several cards count as naming cards (the guard once read only
    strings that were exactly one card of the 52)."""
    state = get_game("da-bai-fen").new_game(seed=3)
    seat = state.current_player
    hidden = state.hidden_cards(seat)
    other = next(q for q in range(4) if q != seat and state.hands[q])
    from solver.cards import format_cards

    several = " ".join(format_cards(sorted(hidden)[:3]))
    for doc in ({"note": several}, {"deep": [{"x": format_cards(sorted(hidden))}]},
                {"peek": format_cards(state.hands[other])}):
        with pytest.raises(LeakError, match="hidden card"):
            SessionService.check_no_leak(doc, state, seat)
    joker = next((c for c in (52, 53) if c in hidden), None)
    if joker is not None:
        with pytest.raises(LeakError):
            SessionService.check_no_leak({"peek": format_cards([joker])[0]}, state, seat)
    SessionService.check_no_leak(state.observation(seat), state, seat)  # the honest view passes


def test_a_leaky_view_is_refused_with_a_500_naming_no_card(make_app, monkeypatch):
    """A game whose observation would show another seat's cards (a bug): every answer that
    carries it is refused, and the refusal names no card."""
    from solver.games.big_two.engine import BigTwoState

    c = make_app().test_client()
    v = _post(c, "/v1/sessions", {"game": "big-two", "seed": 2, "bots": "random"})
    honest = BigTwoState.observation

    def leaky(self, player):
        obs = honest(self, player)
        other = (player + 1) % self.num_players
        obs["peek"] = " ".join(obs_card for obs_card in honest(self, other)["hand"])
        return obs

    monkeypatch.setattr(BigTwoState, "observation", leaky)
    r = c.post("/v1/sessions/state", json={"token": v["token"]})
    assert r.status_code == 500, r.get_json()
    err = r.get_json()["error"]
    assert err["code"] == "internal_error" and "hidden cards" in err["message"]
    assert not card_strings(r.get_json())


@pytest.mark.parametrize("name", list_games())
def test_views_carry_the_games_presentation(make_app, name):
    """The page is told the seat's cards, each seat's roles and, after the hand, the
    settlement in words by the game (the page holds no game's rules)."""
    info = get_game(name)
    c = make_app().test_client()
    v = _post(c, "/v1/sessions", {"game": name, "seed": 5})
    tok = v["token"]
    assert v["presentation"] == info.presentation.name
    assert sorted(v["own_cards"]) == sorted(info.presentation.own_cards(v["observation"]))
    assert len(v["own_cards"]) > 0 and len(v["seat_roles"]) == v["players"]
    assert v["summary"] is None
    rng = random.Random(2)
    store = c.application.extensions["sessions"].store
    while not v["terminal"]:
        if v["legal_moves"] is not None:
            move = rng.choice(v["legal_moves"])
        else:
            state = info.from_json(store.load(tok).state["doc"])
            move = state.move_json(state.legal_moves(v["seat"])[0])
        v = _post(c, "/v1/sessions/move", {"token": tok, "move": move})
    assert (v["summary"] is not None) == (info.presentation.summary is not None)
    if v["summary"]:
        assert "{seat:" in v["summary"] or "Defenders" in v["summary"]
    frames = _post(c, "/v1/sessions/hand", {"token": tok, "n": 1})["frames"]
    assert all(f["own_cards"] == info.presentation.own_cards(f["observation"]) for f in frames)
    games = c.get("/v1/sessions/games").get_json()
    assert games["default"] in list_games()
