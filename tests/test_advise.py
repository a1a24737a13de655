"""The search advisors of Big Two, Da San and Da Bai Fen: legal advice, from the observation
only, deterministic for a seed; the sampled worlds hide exactly what the seat cannot see."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solver.cards import format_cards, parse_cards
from solver.errors import InputError
from solver.games import get_game
from solver.games.big_two import advise as big_two_advise
from solver.games.big_two import view as big_two_view
from solver.games.da_bai_fen import advise as dbf_advise
from solver.games.da_bai_fen import view as dbf_view
from solver.games.da_bai_fen.engine import Phase as DbfPhase
from solver.games.da_bai_fen.moves import check_play
from solver.games.da_san import advise as da_san_advise
from solver.games.da_san import view as da_san_view

GAMES = ("big-two", "da-san", "da-bai-fen")
MODULES = {"big-two": big_two_advise, "da-san": da_san_advise, "da-bai-fen": dbf_advise}
VIEWS = {"big-two": big_two_view, "da-san": da_san_view, "da-bai-fen": dbf_view}
ITER = 2


def random_state(game: str, seed: int, steps: int):
    """A game state after ``steps`` random legal moves from the deal of ``seed`` (None if the
    hand ended first)."""
    info = get_game(game)
    state = info.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return None
        state.apply(rng.choice(list(state.legal_moves())))
    return None if state.is_terminal() else state


def strip(advice: dict) -> dict:
    return {k: v for k, v in advice.items() if k != "elapsed_ms"}


states = st.tuples(st.integers(0, 10_000), st.integers(0, 70))


# ------------------------------------------------------------------ legal advice
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None)
@given(states)
def test_every_advised_move_is_legal(game, seed_steps):
    state = random_state(game, *seed_steps)
    assume(state is not None)
    seat = state.current_player
    advice = get_game(game).advise(state.observation(seat), iterations=ITER, seed=1)
    assert advice["moves"] and advice["player"] == seat
    assert 1 <= advice["evaluated"] <= advice["legal_moves"]
    legal = [m.to_json() for m in state.legal_moves()] if game != "big-two" or \
        advice["legal_moves"] < 200 else None
    for entry in advice["moves"]:
        trial = state.clone()
        trial.apply(trial.parse_move(entry["move"]))  # raises IllegalMoveError if not legal
        if legal is not None and game != "da-bai-fen":
            assert entry["move"] in legal
        assert entry["stderr"] >= 0


@pytest.mark.parametrize("game", GAMES)
def test_search_bot_plays_whole_hands_legally(game):
    info = get_game(game)
    bot = MODULES[game].SearchBot(iterations=ITER)
    for seed in (1, 2):
        state = info.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            p = state.current_player
            state.apply(bot(state.observation(p), state.legal_moves(), rng))  # checked by apply
        assert state.is_terminal()


def test_registry_offers_search_bots_and_advice():
    for game in GAMES:
        info = get_game(game)
        assert "search" in info.bots and info.advise is not None
        assert len(info.bots) >= 3  # the baselines stay


# ------------------------------------------------------------------ observation only
def _swap_big_two(state, seat, rng):
    doc = state.to_json()
    others = [p for p in range(state.num_players) if p != seat and state.hand(p)]
    q, r = rng.sample(others, 2)
    c1, c2 = rng.choice(state.hand(q)), rng.choice(state.hand(r))
    hands = [parse_cards(h) for h in doc["deal"]["hands"]]
    hands[q] = [c2 if c == c1 else c for c in hands[q]]
    hands[r] = [c1 if c == c2 else c for c in hands[r]]
    doc["deal"] = {"hands": [format_cards(h) for h in hands]}
    return doc


def _swap_da_san(state, seat, rng):
    doc = state.to_json()
    kitty = set(state.kitty)
    q, r = [p for p in range(3) if p != seat]
    c1 = rng.choice([c for c in state.hands[q] if c not in kitty] or [None])
    c2 = rng.choice([c for c in state.hands[r] if c not in kitty] or [None])
    assume(c1 is not None and c2 is not None)
    hands = [parse_cards(h) for h in doc["deal"]["hands"]]
    hands[q] = [c2 if c == c1 else c for c in hands[q]]
    hands[r] = [c1 if c == c2 else c for c in hands[r]]
    doc["deal"]["hands"] = [format_cards(h) for h in hands]
    return doc


def _swap_da_bai_fen(state, seat, rng):
    doc = state.to_json()
    deck = parse_cards(doc["deal"]["deck"], allow_jokers=True)
    others = [p for p in range(4) if p != seat]
    q, r = rng.sample(others, 2)

    def ok(c):
        return c < 52 and c >> 2 != state.trump_rank and c not in state.kitty

    suit = (lambda c: state.trump.eff[c]) if state.trump else (lambda c: 0)
    pairs = [(a, b) for a in state.hands[q] if ok(a) for b in state.hands[r]
             if ok(b) and suit(a) == suit(b)]
    assume(pairs)
    a, b = rng.choice(pairs)
    deck = [b if c == a else a if c == b else c for c in deck]
    doc["deal"]["deck"] = format_cards(deck)
    return doc


SWAPS = {"big-two": _swap_big_two, "da-san": _swap_da_san, "da-bai-fen": _swap_da_bai_fen}


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=15, deadline=None)
@given(states, st.integers(0, 2**16))
def test_advice_depends_on_the_observation_only(game, seed_steps, swap_seed):
    """Swapping hidden cards between two other seats changes the truth, not what the seat
    sees, and so must not change the advice for a seed."""
    state = random_state(game, *seed_steps)
    assume(state is not None)
    seat = state.current_player
    info = get_game(game)
    try:
        other = info.from_json(SWAPS[game](state, seat, random.Random(swap_seed)))
    except InputError:
        assume(False)  # the swap changed a public fact (a dragon, the opener): not a test
    obs = state.observation(seat)
    assume(other.observation(seat) == obs and other.hidden_cards(seat) == state.hidden_cards(seat))
    assert any(other.hands()[p] != state.hands()[p] if game == "big-two" else
               sorted(other.hands[p]) != sorted(state.hands[p]) for p in range(state.num_players))
    a = info.advise(obs, iterations=3, seed=7)
    b = info.advise(other.observation(seat), iterations=3, seed=7)
    assert strip(a) == strip(b)


@pytest.mark.parametrize("game", GAMES)
def test_advice_is_deterministic_for_a_seed(game):
    info = get_game(game)
    for seed in range(3):
        state = random_state(game, seed, 9)
        obs = state.observation(state.current_player)
        assert strip(info.advise(obs, iterations=4, seed=seed)) == \
            strip(info.advise(obs, iterations=4, seed=seed))


# ------------------------------------------------------------------ sampled worlds
def _places(game, state, seat):
    """Where the seat's hidden cards are: {place: sorted cards} (seats, kitty, buried)."""
    if game == "big-two":
        return {p: sorted(state.hand(p)) for p in range(state.num_players) if p != seat}
    if game == "da-san":
        out = {p: sorted(state.hands[p]) for p in range(3) if p != seat}
        return out
    out = {p: sorted(state.hands[p]) for p in range(4) if p != seat}
    return out


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None)
@given(states, st.integers(0, 2**16))
def test_sampled_worlds_hide_exactly_what_the_seat_cannot_see(game, seed_steps, world_seed):
    state = random_state(game, *seed_steps)
    assume(state is not None)
    seat = state.current_player
    mod = VIEWS[game]
    view = mod.View(state.observation(seat))
    world = mod.sample_world(view, random.Random(world_seed))
    assert world.current_player == seat
    assert sorted(world.legal_moves(), key=str) == sorted(state.legal_moves(), key=str)
    truth, sampled = _places(game, state, seat), _places(game, world, seat)
    assert {p: len(c) for p, c in truth.items()} == {p: len(c) for p, c in sampled.items()}
    if game == "da-bai-fen" and state.phase is DbfPhase.DRAW:
        return  # the undrawn deck is hidden too: the held cards differ from the truth's
    hidden_truth = {c for cards in truth.values() for c in cards}
    hidden_world = {c for cards in sampled.values() for c in cards}
    if game == "da-san" and state.phase.value == "auction":
        hidden_truth |= set(state.kitty)
        hidden_world |= set(world.kitty)
    if game == "da-bai-fen" and seat != state.leader:
        hidden_truth |= set(state.buried)
        hidden_world |= set(world.buried)
    assert hidden_world == hidden_truth == (state.hidden_cards(seat) if game != "da-bai-fen"
                                            else hidden_truth)
    if game == "da-bai-fen" and state.phase is DbfPhase.PLAY:
        for p in range(4):  # a seat shown void in a suit is never dealt one
            if p != seat:
                for c in world.hands[p]:
                    assert state.trump.eff[c] not in view.voids[p] or c in state.hands[p]
        shower, card = state.shown or (seat, -1)
        if shower != seat and card in state.hands[shower]:  # its owner keeps it (or buried it)
            assert card in world.hands[shower] or (shower == state.leader and card in world.buried)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(9, 60))
def test_da_bai_fen_fast_rollout_play_is_legal(seed, steps):
    state = random_state("da-bai-fen", seed, steps)
    assume(state is not None and state.phase is DbfPhase.PLAY)
    seat = state.current_player
    play = dbf_advise.fast_play(state)
    assert check_play(play, state.hands[seat], state.trick, state.trump)


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("game", GAMES)
def test_bad_requests_are_input_errors(game):
    info = get_game(game)
    state = random_state(game, 3, 2)
    seat = state.current_player
    obs = state.observation(seat)
    with pytest.raises(InputError, match="iterations"):
        info.advise(obs, iterations=0)
    with pytest.raises(InputError, match="budget_ms"):
        info.advise(obs, budget_ms=-1)
    other = (seat + 1) % state.num_players
    with pytest.raises(InputError, match="not to act"):
        info.advise(state.observation(other), iterations=1)
    with pytest.raises(InputError, match="game"):
        info.advise({**obs, "game": "capsa"}, iterations=1)
    with pytest.raises(InputError):
        info.advise({**obs, "hand": ["not a card"]}, iterations=1)
    with pytest.raises(InputError):
        info.advise({"player": 0, "current_player": 0, "to_act": 0}, iterations=1)


def test_time_budget_is_honoured_roughly():
    """A wall budget stops at the first check past it: never before it; at least two
    candidates stay active, so the most sampled one saw every world."""
    state = random_state("da-san", 5, 0)  # the opener's bid: 1, 2 or 3
    advice = get_game("da-san").advise(state.observation(state.current_player), budget_ms=20)
    assert advice["elapsed_ms"] >= 20
    assert advice["evaluated"] == 3
    assert sorted(m["move"]["amount"] for m in advice["moves"]) == [1, 2, 3]
    assert max(m["samples"] for m in advice["moves"]) == advice["iterations"] >= 1


@pytest.mark.parametrize("game", GAMES)
def test_an_iteration_budget_is_exact(game):
    state = random_state(game, 3, 2)
    advice = get_game(game).advise(state.observation(state.current_player), iterations=7, seed=1)
    assert advice["iterations"] == 7
    assert max(m["samples"] for m in advice["moves"]) == 7


# ------------------------------------------------------------------ CLI and HTTP
def test_cli_advise_from_a_hand_document_and_an_observation(tmp_path, capsys):
    import json

    from solver.cli import main
    state = random_state("big-two", 4, 5)
    seat = state.current_player
    hand_doc = tmp_path / "hand.json"
    hand_doc.write_text(json.dumps(state.to_json()))
    assert main(["advise", "big-two", str(hand_doc), "--seat", str(seat), "--iterations", "3",
                 "--json"]) == 0
    from_hand = json.loads(capsys.readouterr().out)
    obs_doc = tmp_path / "obs.json"
    obs_doc.write_text(json.dumps(state.observation(seat)))
    assert main(["advise", "big-two", str(obs_doc), "--iterations", "3", "--json"]) == 0
    from_obs = json.loads(capsys.readouterr().out)
    assert strip(from_hand) == strip(from_obs)
    assert main(["advise", "big-two", str(obs_doc), "--iterations", "3"]) == 0
    assert capsys.readouterr().out.startswith("#1")


def test_cli_advise_errors_are_one_line(tmp_path, capsys):
    import json

    from solver.cli import main
    state = random_state("da-san", 4, 1)
    seat = (state.current_player + 1) % 3
    doc = tmp_path / "obs.json"
    doc.write_text(json.dumps(state.observation(seat)))
    code = main(["advise", "da-san", str(doc), "--iterations", "2"])
    err = capsys.readouterr().err
    assert code != 0 and "not to act" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("game", GAMES)
def test_http_advise(client, game):
    state = random_state(game, 8, 4)
    obs = state.observation(state.current_player)
    r = client.post(f"/v1/{game}/advise", json={"observation": obs, "iterations": 3, "seed": 2})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert strip(body) == strip(get_game(game).advise(obs, iterations=3, seed=2))
    bad = client.post(f"/v1/{game}/advise", json={"observation": {**obs, "player": 9}})
    assert bad.status_code == 422 and "error" in bad.get_json()
    bad = client.post(f"/v1/{game}/advise", json={"observation": obs, "iterations": 0})
    assert bad.status_code == 400
    bad = client.post(f"/v1/{game}/advise", json={"observation": {"phase": [1]}})
    assert bad.status_code == 422


JUNK = [None, -1, 99, "x", [], {}, [1, 2], {"a": 1}, True, 1.5, "3d", ["3d", "3d"], [["x"]],
        [{"player": 0}]]
# Observation fields no advisor reads (from each View: what it takes from the document);
# junk there must change nothing.
UNREAD = {"big-two": {"phase", "to_act", "result"},
          "da-san": {"num_players", "kitty_size", "settlement"},
          "da-bai-fen": {"declarers", "result", "returns"}}


@pytest.mark.parametrize("game", GAMES)
def test_junk_in_an_unread_field_changes_nothing(game):
    state = random_state(game, 8, 4)
    info = get_game(game)
    clean = strip(info.advise(state.observation(state.current_player), iterations=1, seed=1))
    for key in sorted(UNREAD[game]):
        for junk in JUNK:
            obs = state.observation(state.current_player)
            assert key in obs
            obs[key] = junk
            assert strip(info.advise(obs, iterations=1, seed=1)) == clean, (key, junk)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=40, deadline=None)
@given(states, st.data())
def test_a_corrupted_observation_is_an_input_error_or_still_advised(game, seed_steps, data):
    """One field replaced by junk: a typed error naming the problem, or advice from the
    observation's hand; junk in a field no advisor reads changes nothing."""
    state = random_state(game, *seed_steps)
    assume(state is not None)
    info = get_game(game)
    obs = state.observation(state.current_player)
    key = data.draw(st.sampled_from(sorted(obs)))
    obs[key] = data.draw(st.sampled_from(JUNK))
    try:
        advice = info.advise(obs, iterations=1, seed=1)
    except InputError as exc:
        assert key not in UNREAD[game] and str(exc)
        return
    if key in UNREAD[game]:
        clean = info.advise(state.observation(state.current_player), iterations=1, seed=1)
        assert strip(advice) == strip(clean)
    hand = set(parse_cards(obs["hand"], allow_jokers=True))
    assert advice["moves"]
    for entry in advice["moves"]:
        assert set(parse_cards(entry["move"]["cards"], allow_jokers=True)) <= hand


# ------------------------------------------------------------------ the search itself
class _Toy:
    """A world that is a number: a candidate adds its worth, the rollout adds noise."""

    def __init__(self, base: float):
        self.x = base

    def clone(self):
        return _Toy(self.x)


def _toy_problem(worths):
    from solver.games.search import Problem

    def play(w, m):
        w.x += worths[m]

    def rollout(w, rng):
        w.x += rng.gauss(0, 1)

    return Problem(list(range(len(worths))), lambda rng: _Toy(rng.random()), play, rollout,
                   lambda w: w.x)


def test_search_statistics_match_a_plain_recomputation():
    """Means and standard errors equal a direct computation over the same seeded worlds."""
    import statistics

    from solver.games import search as s
    worths = [0.0, 0.1, -0.05]
    ranked = s.search(_toy_problem(worths), iterations=7, seed=3)  # 7 < PRUNE_AFTER
    master = random.Random(3)
    values = {m: [] for m in range(3)}
    for _ in range(7):
        ws = master.getrandbits(64)
        base = random.Random(ws).random()
        noise = random.Random(ws ^ 0x5EED).gauss(0, 1)
        for m in range(3):
            values[m].append(base + worths[m] + noise)
    for m, stats in ranked.moves:
        assert stats.n == 7
        assert stats.mean == pytest.approx(statistics.fmean(values[m]))
        assert stats.stderr == pytest.approx(statistics.stdev(values[m]) / 7 ** 0.5)
    assert [m for m, _ in ranked.moves] == [1, 0, 2]


def test_search_stops_feeding_hopeless_candidates():
    from solver.games import search as s
    ranked = s.search(_toy_problem([0.0, -50.0, 0.01]), iterations=60, seed=1)
    samples = {m: st.n for m, st in ranked.moves}
    assert samples[1] < 60 and samples[0] == samples[2] == 60
    assert ranked.moves[-1][0] == 1
