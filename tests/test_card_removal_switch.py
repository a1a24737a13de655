"""``card_removal=False``: every surface (Python, CLI, HTTP, batch) plays exactly the tables a
file without the card-removal shifts gives, and the default stays card removal."""

from __future__ import annotations

import json

import numpy as np
import pytest

import solver
from solver import arrange_many_columns
from solver.cli import main as capsa_main
from solver.errors import InputError
from solver.games.capsa.prepared import prepare
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.splits import parse_hand
from solver.games.capsa.strategy.play import deal
from solver.games.capsa.strategy.tables import (
    DATA_FILE,
    plain_tables,
    tables_file,
    tables_for,
    without_removal,
)

HAND = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"
OTHER = "2c 3d 4c 5c 6c 7d 8d 9d Td Jh Qh Kc Ac"
RULES = ("standard", "two-four", "indonesia", "basic")


@pytest.fixture(scope="module")
def plain_file(tmp_path_factory):
    return without_removal(DATA_FILE, tmp_path_factory.mktemp("plain") / "plain.npz")


def _hands(n: int, seed: int) -> list[list[int]]:
    return [h.tolist() for h in deal(np.random.default_rng(seed), n)[:, 0]]


def _without_tables(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "tables"}


def _without_flag(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in ("card_removal", "tables")}


def test_plain_tables_are_the_file_without_removal(plain_file):
    for name in RULES:
        rules = resolve_rules(name)
        st = tables_for(rules)
        plain = tables_for(rules, card_removal=False)
        assert st.removal is not None and plain.removal is None and plain.alpha == 0.0
        # one object per rules and file, so the search's terms are built once
        assert plain is tables_for(rules, card_removal=False)
        assert prepare(rules, plain) is prepare(rules, plain_tables(st)) is prepare(rules).plain
        ref = tables_for(rules, plain_file)
        for field in ("pw", "pt", "lr", "roy", "joint"):
            assert np.array_equal(getattr(plain, field), getattr(ref, field)), field
        assert (plain.p_natural, plain.natural_units, plain.opp_royalty) == (
            ref.p_natural, ref.natural_units, ref.opp_royalty)


@pytest.mark.parametrize("rules", RULES)
def test_arrange_without_card_removal_is_the_plain_file(plain_file, rules):
    hands = _hands(12, 5)
    got = [solver.arrange(h, rules, 2, top=3, card_removal=False).to_dict() for h in hands]
    with tables_file(plain_file):
        want = [solver.arrange(h, rules, 2, top=3).to_dict() for h in hands]
    assert all(g["card_removal"] is False and w["card_removal"] is True for g, w in zip(got, want))
    assert [_without_flag(g) for g in got] == [_without_flag(w) for w in want]


def test_the_default_is_card_removal_and_the_switch_changes_answers():
    hands = _hands(40, 9)
    on = [solver.arrange(h, opponents=1, top=1) for h in hands]
    assert [r.to_dict() for r in on] == [solver.arrange(h, opponents=1, top=1,
                                                        card_removal=True).to_dict()
                                         for h in hands]
    off = [solver.arrange(h, opponents=1, top=1, card_removal=False) for h in hands]
    assert sum(a.best.ev != b.best.ev for a, b in zip(on, off)) > 30


def test_montecarlo_and_known_opponents_play_the_plain_tables(plain_file):
    h = parse_hand(HAND)
    kw = dict(opponents=2, method="montecarlo", samples=60, seed=3, top=2)
    got = solver.arrange(h, **kw, card_removal=False).to_dict()
    with tables_file(plain_file):
        want = solver.arrange(h, **kw).to_dict()
    assert _without_flag(got) == _without_flag(want)
    known = dict(method="known", opponent_hands=[OTHER], top=2)
    got = solver.arrange(HAND, **known, card_removal=False).to_dict()
    with tables_file(plain_file):
        want = solver.arrange(HAND, **known).to_dict()
    assert _without_flag(got) == _without_flag(want)
    # explicit candidate tables lose their shifts too
    st = tables_for(resolve_rules("standard"))
    explicit = solver.arrange(h, **kw, tables=st, card_removal=False).to_dict()
    assert explicit == _without_tables(solver.arrange(h, **kw, card_removal=False).to_dict())


def test_batches_without_card_removal_are_the_plain_file(plain_file):
    hands = np.array(_hands(30, 2))
    got = solver.arrange_many(hands, "two-four", 3, processes=1, card_removal=False)
    cols = arrange_many_columns(hands, "two-four", 3, processes=1, card_removal=False)
    with tables_file(plain_file):
        want = solver.arrange_many(hands, "two-four", 3, processes=1)
    assert got == want == cols.to_dicts()
    assert got != solver.arrange_many(hands, "two-four", 3, processes=1)


@pytest.mark.parametrize("value", ["no", 0, 1, None, "false"])
def test_card_removal_must_be_a_bool(value):
    with pytest.raises(InputError, match="card_removal must be true or false"):
        solver.arrange(HAND, card_removal=value)
    with pytest.raises(InputError, match="card_removal must be true or false"):
        solver.arrange_many([HAND], processes=1, card_removal=value)


def test_http_switch_and_its_errors(client):
    body = {"hand": HAND, "opponents": 1, "top": 1}
    on = client.post("/v1/capsa/arrange", json=body).get_json()
    off = client.post("/v1/capsa/arrange", json={**body, "card_removal": False}).get_json()
    assert on["card_removal"] is True and off["card_removal"] is False
    assert off["arrangements"] == solver.arrange(HAND, opponents=1, top=1,
                                                 card_removal=False).to_dict()["arrangements"]
    bad = client.post("/v1/capsa/arrange", json={**body, "card_removal": "no"})
    assert bad.status_code == 400 and "card_removal" in json.dumps(bad.get_json())
    batch = client.post("/v1/capsa/arrange/batch",
                        json={"hands": [HAND, OTHER], "card_removal": False}).get_json()
    assert batch["results"] == solver.arrange_many([HAND, OTHER], processes=1,
                                                   card_removal=False)


def test_cli_switch(tmp_path, capsys):
    assert capsa_main(["arrange", HAND, "--top", "1", "--no-card-removal", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["card_removal"] is False
    assert capsa_main(["arrange", HAND, "--top", "1", "--no-card-removal"]) == 0
    assert "no card removal" in capsys.readouterr().out
    src = tmp_path / "in.txt"
    src.write_text(f"{HAND}\n{OTHER}\n")
    dst = tmp_path / "out.jsonl"
    assert capsa_main(["batch", str(src), "-o", str(dst), "--no-progress", "--workers", "1",
                       "--no-card-removal"]) == 0
    rows = [json.loads(line) for line in dst.read_text().splitlines()]
    want = solver.arrange_many([HAND, OTHER], processes=1, card_removal=False)
    assert [r["ev"] for r in rows] == [w["ev"] for w in want]
    assert [r["back"] for r in rows] == [w["back"] for w in want]
