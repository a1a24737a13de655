"""Rules objects, naturals and the referee, against the plain reference."""

from __future__ import annotations

import json
import random

import pytest
from capsa_reference import best_natural_split, row_key
from capsa_reference import settle as ref_settle
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import format_cards, parse_cards
from solver.cli import main
from solver.errors import CardError, InputError, RulesError
from solver.games.capsa.encoding import rank_of
from solver.games.capsa.naturals import all_naturals, detect_natural
from solver.games.capsa.referee import score
from solver.games.capsa.rules import PRESETS, resolve_rules


# ---------------------------------------------------------------- rules
def test_presets():
    assert resolve_rules("standard") == resolve_rules(None) == resolve_rules({})
    assert resolve_rules("basic").scoring == "basic" and not resolve_rules("basic").royalties
    assert not resolve_rules("two-four").naturals_on
    assert resolve_rules("indonesia").wheel == "second"
    assert set(PRESETS) == {"standard", "basic", "two-four", "indonesia"}


def test_overrides():
    r = resolve_rules({"preset": "two-four", "royalties": "standard", "naturals": True,
                       "single_royalty": True, "royalty_mode": "net", "wheel": "second"})
    assert (r.scoring, r.royalty_mode, r.single_royalty, r.wheel) == ("two-four", "net", True, "second")
    custom = resolve_rules({"royalties": {"front": {"pair": 1}, "back": {"flush": 2}}})
    assert custom.royalties == (("front", "pair", 1), ("back", "flush", 2))
    assert resolve_rules({"naturals": {"dragon": 26}}).natural_units("dragon") == 26


@pytest.mark.parametrize("spec, message", [
    ("nope", "unknown rules preset 'nope'"),
    ({"preset": "nope"}, "unknown rules preset 'nope'"),
    ({"scoring": "x"}, "scoring must be one of"),
    ({"colour": 1}, "unknown rule option 'colour'"),
    ({"royalty_mode": 3}, "royalty_mode must be one of"),
    ({"single_royalty": "yes"}, "single_royalty must be true or false"),
    ({"royalties": {"front": {"flush": 2}}}, "a front cannot be 'flush'"),
    ({"royalties": {"side": {}}}, "unknown row 'side'"),
    ({"royalties": {"back": {"quads": -1}}}, "between 0 and"),
    ({"naturals": {"seven_pairs": 3}}, "unknown natural 'seven_pairs'"),
    ({"wheel": "high"}, "wheel must be one of lowest, second"),
    (42, "rules must be a preset name or an object"),
])
def test_rule_errors(spec, message):
    with pytest.raises(RulesError, match=message):
        resolve_rules(spec)


# ---------------------------------------------------------------- naturals
@pytest.mark.parametrize("hand, kind", [
    ("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad", "dragon"),
    ("2c 2d 3h 3s 4c 4d 5h 5s 6c 6d 7h 7s 9c", "six_pairs"),
    ("2c 2d 2h 2s 4c 4d 5h 5s 6c 6d 7h 7s 9c", "six_pairs"),   # quads count as two pairs
    ("2c 2d 2h 3s 3c 4d 4h 5s 5c 6d 6h Ks Kc", "six_pairs"),   # trips count as one pair
    ("Ac 2c 3d 4c 5c 6d 7d 8h 9h Th Jh Qh Kd", "dragon"),      # dragon beats three straights
    ("Qc Kc Ad 2c 3c 4d 5d 6h 9h Th Jh Qh Kd", "three_straights"),  # Q-K-A front
    ("2h 5h 7h 3s 6s 8s Ts Qs 2c 4c 9c Jc Kc", "three_flushes"),
])
def test_natural_kinds(hand, kind):
    n = detect_natural(hand)
    assert n is not None and n.kind == kind
    assert detect_natural(hand, "two-four") is None  # naturals off


def test_no_natural_and_trips_do_not_make_six_pairs():
    # Four trips (2, 3, 4, 5) and a 6: trips count as one pair each, so four pairs, not six;
    # the only five-card straight these ranks make is 2-6 and there is one 6, so not three
    # straights; no suit has five cards (clubs 4, the others 3), so not three flushes; five
    # ranks, so no dragon. By the rules file, no natural at all.
    assert detect_natural("2c 2d 2h 3s 3c 3d 4h 4s 4c 5d 5h 5s 6c") is None
    assert detect_natural("2c 5d 9h Js Kc 3d 7h 8s Tc Qd 4h 4s 4c") is None


def _deal_three(kind: str, rng: random.Random) -> list[int]:
    """A random hand holding three straights or three flushes."""
    while True:
        if kind == "three_flushes":
            suits = rng.sample(range(4), 3)
            cards = []
            for s, n in zip(suits, (3, 5, 5)):
                cards += [r * 4 + s for r in rng.sample(range(13), n)]
        else:
            def window(n):
                start = rng.randrange(-1, 14 - n)
                return [(start + i) % 13 if start + i >= 0 else 12 for i in range(n)]
            ranks = window(3) + window(5) + window(5)
            cards = [r * 4 + rng.randrange(4) for r in ranks]
        if len(set(cards)) == 13:
            return cards


@settings(max_examples=6)
@given(st.sampled_from(["three_straights", "three_flushes"]), st.integers(0, 2**32))
def test_three_straights_and_flushes_best_split(kind, seed):
    hand = _deal_three(kind, random.Random(seed))
    found = {n.kind: n for n in all_naturals(hand)}
    assert kind in found
    split = found[kind].split
    keys = (row_key(split.back), row_key(split.middle), row_key(split.front))
    assert keys == best_natural_split(hand, kind)


# ---------------------------------------------------------------- referee
def _random_arrangement(cards):
    return {"front": format_cards(cards[:3]), "middle": format_cards(cards[3:8]),
            "back": format_cards(cards[8:13])}


def _rows(d):
    return tuple(tuple(parse_cards(d[k])) for k in ("front", "middle", "back"))


OPTION_SETS = [
    {"preset": "standard"},
    {"preset": "standard", "royalty_mode": "net"},
    {"preset": "standard", "single_royalty": True},
    {"preset": "two-four"},
    {"preset": "basic"},
    {"preset": "standard", "scoring": "scoop-one", "naturals": False},
    {"preset": "indonesia"},
]


@settings(max_examples=40)
@given(st.permutations(range(52)), st.integers(2, 4), st.sampled_from(OPTION_SETS),
       st.booleans())
def test_referee_matches_reference(deck, players, options, sort_some):
    table = []
    for p in range(players):
        cards = list(deck[13 * p:13 * p + 13])
        if sort_some and p % 2 == 0:
            # sorted by rank: back strongest, usually valid and often with royalties
            cards = sorted(cards, key=rank_of)
        table.append(_random_arrangement(cards))
    rules = resolve_rules(options)
    res = score(table, options).to_dict()["players"]
    assert sum(p["points"] for p in res) == 0
    for i, p in enumerate(res):
        for v in p["vs"]:
            j = v["opponent"]
            expected = ref_settle(_rows(table[i]), _rows(table[j]), rules.scoring,
                                  bool(rules.royalties), rules.royalty_mode,
                                  rules.single_royalty, rules.wheel)
            assert v["points"] == expected


def test_foul_loses_everything_and_two_fouls_cancel():
    foul = {"front": "8c 8d 8h", "middle": "7s 7c 7d As Kd", "back": "Qs Qh Qd 2c 2d"}
    ok = {"front": "2s 3s 4h", "middle": "5c 6c 9c Tc Jh", "back": "Ac Ah Ad Kc Kh"}
    foul2 = {"front": "Ks 9d Js", "middle": "Jd Jc Th 9s 9h", "back": "5s 6s 7h 8s 3c"}
    res = score([foul, ok, foul2]).to_dict()["players"]
    assert res[0]["foul"] and res[2]["foul"] and not res[1]["foul"]
    assert res[1]["vs"][0] == {"opponent": 0, "points": 6, "rows": [1, 1, 1], "scoop": 3,
                               "royalties": 0, "natural": 0}
    assert res[0]["vs"][1]["points"] == 0  # two fouled players


def test_natural_claims():
    dragon = {"hand": "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad"}
    six = {"hand": "2d 2h 3c 3h 4s 4d 5c 5d 6s 6h 7c 7h 9h"}
    other = {"front": "Ac Ah As", "middle": "Kc Kh Kd Qc Qd", "back": "Jc Jh Js Tc Td"}
    res = score([dragon, six], "standard").to_dict()["players"]
    assert res[0]["natural"] == "dragon" and res[0]["points"] == 13
    assert res[1]["vs"][0]["natural"] == -13
    with pytest.raises(InputError, match="holds no natural"):
        score([{"hand": "2c 5d 9h Js Kc 3d 7h 8s Tc Qd 4h 4s 4c"}, other])
    with pytest.raises(InputError, match="naturals are off"):
        score([dragon, six], "two-four")


def test_same_naturals_compare():
    a = {"hand": "Ac Ad 3h 3s 4c 4d 5h 5s 6c 6d 7h 7s 9c"}
    b = {"hand": "Ah As 3c 3d 4h 4s 5c 5d 6h 6s 7c 7d 9d"}
    c = {"hand": "Kh Ks 2c 2d 8h 8s Tc Td Jh Js Qc Qd 9h"}
    res = score([a, b, c]).to_dict()["players"]
    assert res[0]["vs"][0]["points"] == 0  # same top pair: tie
    assert res[0]["vs"][1]["points"] == 3  # aces over kings


def test_table_errors():
    arr = {"front": "2s 3s 4h", "middle": "5c 6c 9c Tc Jh", "back": "Ac Ah Ad Kc Kh"}
    with pytest.raises(InputError, match="2 to 4 players, got 1"):
        score([arr])
    with pytest.raises(CardError, match=r"card .2s. is used twice \(players 0 and 1\)"):
        score([arr, arr])
    with pytest.raises(CardError, match="player 1: middle: expected 5 cards, got 4"):
        score([arr, {"front": "2c 3c 4c", "middle": "5d 6d 7d 8d", "back": "9d Td Jd Qd Kd"}])
    with pytest.raises(InputError, match="give either front, middle and back, or hand"):
        score([arr, {"front": "2c 3c 4c"}])


# ---------------------------------------------------------------- CLI
def test_cli_valid_and_score(capsys, tmp_path):
    assert main(["valid", "As Kd Qh Jc Tc 9s 8s 7h 6d 5c 4c 3d 2h", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"valid_arrangements": 17541}
    table = {"rules": {"preset": "standard", "royalty_mode": "net"}, "players": [
        {"front": "2c 3d 4h", "middle": "5s 5c 7d 8h 9s", "back": "Jc Jd Qh Qs 9c"},
        {"front": "Ac Ad 2h", "middle": "Ts Tc Th 3c 3s", "back": "Ks Kd Kh Kc 6h"}]}
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table))
    assert main(["score", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [p["points"] for p in out["players"]] == [-12, 12]
    assert main(["score", str(path)]) == 0
    assert "player 1: +12" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["valid", "As As"], "duplicate card 'As'"),
    (["valid", "As Kd"], "expected 13 cards, got 2"),
    (["valid", "As Kd Qh Jc Tc 9s 8s 7h 6d 5c 4c 3d 2h", "--rules", "nope"], "unknown rules preset"),
    (["score", "/no/such/file.json"], "cannot read"),
    (["bogus"], "invalid choice"),
])
def test_cli_errors_are_one_line_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_cli_score_bad_json(capsys, tmp_path):
    path = tmp_path / "t.json"
    path.write_text("{not json")
    assert main(["score", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    path.write_text(json.dumps({"players": [], "extra": 1}))
    assert main(["score", str(path)]) == 2
    assert "unknown field 'extra'" in capsys.readouterr().err


# ---------------------------------------------------------------- the rules file's scoring examples
WIN_ALL = {"front": "Ac Ah 2d", "middle": "Kc Kh Kd 3c 4d", "back": "Qc Qh Qd Qs 5c"}
LOSE_ALL = {"front": "2s 3s 5h", "middle": "6c 7d 9h Jc 4s", "back": "8c 8d Td Js 3h"}
WIN_TWO = {"front": "2c 3d 4h", "middle": "Kc Kh Kd 3c 4d", "back": "Qc Qh Qd Qs 5c"}
LOSE_FRONT = {"front": "Js Jd 5h", "middle": "6c 6d 9h 9s 4s", "back": "8c 8h 8d Td 3h"}


@pytest.mark.parametrize("scoring, scoop, two_rows", [
    ("one-six", 6, 1), ("two-four", 4, 2), ("scoop-one", 4, 1), ("basic", 3, 1)])
def test_scoring_variants(scoring, scoop, two_rows):
    rules = {"preset": "basic", "scoring": scoring}
    assert score([WIN_ALL, LOSE_ALL], rules).players[0].points == scoop
    assert score([WIN_TWO, LOSE_FRONT], rules).players[0].points == two_rows


def test_royalty_modes():
    # back quads (4 units) wins; the loser's middle full house (2) loses its row
    a = {"front": "2c 3d 5h", "middle": "6c 6d 6h 9c 9d", "back": "Ac Ad Ah As 4c"}
    b = {"front": "Qc Qd 7h", "middle": "Tc Td Th Jc Jd", "back": "Ks Kd Kh Kc 8s"}
    winner = score([a, b], "standard").players[0].vs[0]
    net = score([a, b], {"preset": "standard", "royalty_mode": "net"}).players[0].vs[0]
    # rows: front lost, middle lost (T full over 6 full), back won (A quads over K quads)
    assert winner.rows == [-1, -1, 1]
    assert winner.royalties == 4 - 2  # own back quads collected, their middle full house paid
    assert net.royalties == (2 + 4) - (2 + 4)  # each side's own royalties, whatever the rows
