"""Bots named by difficulty (``solver.games.bot_levels``): every bot of every registered game
has a level, the games listing and each session view carry them, and the levels follow the
strength the duplicate matches measured (the search above the network alone, above the one-rule
bots, above random play)."""

from __future__ import annotations

from solver.games import get_game, list_games
from solver.games.bot_levels import BOT_LEVELS, LEVELS, level_of


def test_every_bot_of_every_game_has_a_level():
    for name in list_games():
        for bot in get_game(name).bots:
            assert level_of(bot) in LEVELS, (name, bot)
    assert set(BOT_LEVELS.values()) <= set(LEVELS)
    assert level_of(None) is None and level_of("nobody") is None


def test_levels_follow_the_measured_order():
    rank = LEVELS.index
    assert rank(level_of("random")) < rank(level_of("baseline")) < rank(level_of("net")) \
        < rank(level_of("search-rollout")) < rank(level_of("search"))
    assert level_of("greedy") == level_of("baseline")


def test_the_listing_and_the_view_carry_the_levels(make_app):
    c = make_app().test_client()
    games = {g["name"]: g for g in c.get("/v1/sessions/games").get_json()["games"]}
    for name, g in games.items():
        assert g["bot_levels"] == {b: BOT_LEVELS[b] for b in g["bots"]}, name
    v = c.post("/v1/sessions", json={"game": "big-two", "seed": 3, "rules": {"players": 3},
                                     "bots": ["random", "search"]}).get_json()
    assert [(s["player"], s["level"]) for s in v["seats"]] == [
        ("you", None), ("random", "beginner"), ("search", "expert")]
