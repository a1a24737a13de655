"""The coach's review of played hands: its EVs are arrange's, its mistake classes follow their
written rules, bad lines are reported and nothing else is lost."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_capsa_search import RULE_SETS, hands13

import solver
from solver.cli import main as capsa
from solver.errors import InputError
from solver.games.capsa.coach import EXACT_EPS, MISTAKES, review
from solver.games.capsa.methods import exact
from solver.games.capsa.methods.montecarlo import hand_seed
from solver.games.capsa.referee import row_strengths, score
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.splits import Arrangement, parse_hand, unpack_split
from solver.games.capsa.strategy.play import deal, table_play
from solver.games.capsa.strategy.tables import tables_for

HAND = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"


def _rows(arr: Arrangement) -> dict:
    return arr.to_dict()


@pytest.mark.parametrize("spec", RULE_SETS + [{"preset": "standard", "naturals": False}], ids=str)
@pytest.mark.parametrize("card_removal", [True, False])
def test_table_evs_are_arranges(spec, card_removal):
    rng = np.random.default_rng(3)
    for _ in range(6):
        hand = np.sort(rng.permutation(52)[:13])
        res = solver.arrange(hand, spec, 2, top=6, card_removal=card_removal)
        lines = [_rows(a.arrangement) for a in res.arrangements]
        rep = review(lines, spec, 2, card_removal=card_removal)
        assert not rep.errors
        for a, h in zip(res.arrangements, rep.hands):
            assert h.ev == pytest.approx(a.ev, abs=1e-12)
            assert h.best_ev >= h.ev - 1e-12
            if res.natural is None or h.best is not None:
                assert h.best_ev == pytest.approx(res.best.ev, abs=1e-12)
        first = rep.hands[0]
        if first.best is not None:
            assert first.exact and first.mistake is None and first.mistakes == ()
            assert first.best == res.best.arrangement


@pytest.mark.parametrize("spec", ["standard", "two-four", {"preset": "standard", "royalty_mode": "net"}],
                         ids=str)
def test_montecarlo_evs_are_arranges_on_the_hands_own_deals(spec):
    rng = np.random.default_rng(4)
    for _ in range(3):
        hand = np.sort(rng.permutation(52)[:13])
        seed = 11
        res = solver.arrange(hand, spec, 2, "montecarlo", 150, seed=hand_seed(seed, hand), top=4,
                             adaptive=False)  # the review draws every sample
        rep = review([_rows(a.arrangement) for a in res.arrangements], spec, 2, "montecarlo",
                     150, seed)
        for a, h in zip(res.arrangements, rep.hands):
            assert h.ev == pytest.approx(a.ev, abs=1e-12)
            assert h.best_ev == pytest.approx(res.best.ev, abs=1e-12)
    again = review([_rows(a.arrangement) for a in res.arrangements], spec, 2, "montecarlo", 150, 11)
    assert again.to_dict() == rep.to_dict()  # deterministic for a seed


@pytest.mark.parametrize("spec", ["standard", "two-four", "basic",
                                  {"preset": "standard", "royalty_mode": "net"},
                                  {"preset": "standard", "single_royalty": True}], ids=str)
def test_a_fouls_montecarlo_ev_is_the_referees_on_the_same_deals(spec):
    rules = resolve_rules(spec)
    foul = {"front": "As Ad Ah", "middle": "2c 3c 4c 5c 7d", "back": "Ks Kd 9h 8c Qs"}
    rep = review([foul], spec, 2, "montecarlo", 60, 5)
    h = rep.hands[0]
    assert h.foul and h.mistake == "foul"
    hand = parse_hand(list(Arrangement.from_dict(foul).cards))
    deals = deal(np.random.default_rng(hand_seed(5, hand)), 60, 2,
                 np.setdiff1d(np.arange(52), hand))
    st_ = tables_for(rules)
    total = 0.0
    for d in deals:
        seats = [foul]
        for o in d:
            split, _, _ = table_play(o[None, :], rules, st_)
            arr = unpack_split(tuple(o.tolist()), int(split[0]))
            natural = solver.detect_natural(o, rules) if rules.naturals_on else None
            seats.append({"hand": solver.format_cards(o)} if natural else arr.to_dict())
        total += score(seats, rules).players[0].points
    assert h.ev == pytest.approx(total / 60, abs=1e-9)


@given(hand=hands13, pick=st.integers(0, 10**9), spec=st.sampled_from(RULE_SETS))
def test_any_valid_split_loses_nothing_below_zero_and_the_best_never_fouls(hand, pick, spec):
    rules = resolve_rules(spec)
    sp = exact.valid_splits(hand, rules)
    arr = unpack_split(tuple(hand.tolist()), int(sp.packed[pick % len(sp.packed)]))
    h = review([arr.to_dict()], spec, 1).hands[0]
    assert not h.foul and h.ev_lost >= 0
    if h.best is not None:
        f, m, b = row_strengths(h.best, rules)
        assert b >= m >= f
    assert (h.mistake is None) == h.exact
    assert h.mistake in (None, *MISTAKES) and (h.mistake is None or h.mistake == h.mistakes[0])
    assert "foul" not in h.mistakes


CLASSED = [
    ("foul", {"front": "As Ad Ah", "middle": "2c 3c 4c 5c 7d", "back": "Ks Kd 9h 8c Qs"}),
    ("natural_not_declared", {"front": "2c 3d 4h", "middle": "5s 6c 7d 8h 9s",
                              "back": "Tc Jd Qh Ks Ad"}),
    ("natural_declared", {"hand": "Ts Js Qs Ks As 2h 5h 8h 9h Jh 3d 7d Kd", "natural": True}),
    ("flush_or_straight_unmade", {"front": "Kc Qc 6d", "middle": "Ah Jh 8h 5h 3d",
                                  "back": "7s 7c 4c 9c 2h"}),
    ("pair_broken", {"front": "Ah 3c 2c", "middle": "As Kd Kh 9c 7s", "back": "Qs Qd Jh Jc 4d"}),
    # a full house kept in the back where the best puts the queens in front
    ("front_too_weak", {"front": "3c 4d 9s", "middle": "Ac Ad Jh 8c 5s",
                        "back": "7s 7h 7d Qs Qh"}),
    ("front_too_strong", {"front": "6h 6s Ks", "middle": "7s 8h 8s 9d Qh",
                          "back": "2d 3c 4c 5s Ad"}),
    ("kickers", {"front": "Kh Kd 2c", "middle": "Qs Qh 5d 5c 9s", "back": "As Ad 7h 7c 3s"}),
    ("other", {"front": "4c Ac Ah", "middle": "3c 3d 3h 4h Kc", "back": "4s 5d 6d 7d 8c"}),
]


@pytest.mark.parametrize("name,line", CLASSED, ids=[c[0] for c in CLASSED])
def test_each_mistake_class_has_a_hand_it_must_take(name, line):
    h = review([line], "standard", 1).hands[0]
    assert h.mistake == name and h.ev_lost > EXACT_EPS


def test_hands_a_class_must_not_take():
    # the best arrangement of each of those hands, and a declared dragon: no mistake at all
    lines = [{"hand": "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad", "natural": True}]
    for _, line in CLASSED:
        first = review([line], "standard", 1).hands[0]
        if first.best is not None:
            lines.append(first.best.to_dict())
    for h in review(lines, "standard", 1).hands:
        assert h.exact and h.mistake is None and h.mistakes == ()
    # a dragon set in rows with naturals off is no undeclared natural
    rows = dict(CLASSED[1][1])
    assert "natural_not_declared" not in review([rows], "basic", 1).hands[0].mistakes
    # a front that is stronger than the best's with the middle and back no weaker: not too strong
    h = review([dict(CLASSED[7][1])], "standard", 1).hands[0]
    assert h.mistake == "kickers" and "front_too_strong" not in h.mistakes
    # both flushes the hand holds made, the loss in the front: not an unmade flush
    made = {"front": "Kc 7s 6d", "middle": "4c 7c 9c Qc 3c", "back": "Ah Jh 8h 5h 2h"}
    h = review([made], "standard", 1).hands[0]
    assert not h.exact and "flush_or_straight_unmade" not in h.mistakes
    # pairs kept together in the player's rows: none broken
    assert "pair_broken" not in review([dict(CLASSED[7][1])], "standard", 1).hands[0].mistakes


def test_kinds_of_the_classes_follow_their_rules():
    rng = np.random.default_rng(8)
    lines = []
    for _ in range(40):
        hand = np.sort(rng.permutation(52)[:13])
        res = solver.arrange(hand, "standard", 1, top=6)
        lines += [_rows(a.arrangement) for a in res.arrangements[1:]]
    made = {"straight", "flush", "straight_flush", "royal_flush"}
    for h in review(lines, "standard", 1).hands:
        if h.mine is None or h.best is None or h.exact:
            continue
        kinds = {name: _kinds(arr) for name, arr in (("mine", h.mine), ("best", h.best))}
        unmade = (sum(k in made for k in kinds["best"][1:])
                  > sum(k in made for k in kinds["mine"][1:]))
        assert ("flush_or_straight_unmade" in h.mistakes) == unmade
        assert ("kickers" in h.mistakes) == (kinds["mine"] == kinds["best"])
        rank = ["high_card", "pair", "two_pair", "trips"].index
        mine_s, best_s = row_strengths(h.mine), row_strengths(h.best)
        weak = (kinds["best"][0] != "high_card" and rank(kinds["mine"][0]) < rank(kinds["best"][0])
                and (mine_s[1] > best_s[1] or mine_s[2] > best_s[2]))
        assert ("front_too_weak" in h.mistakes) == weak


def _kinds(arr: Arrangement) -> list[str]:
    from solver.games.capsa.evaluate import hand_kind, row_strength

    return [hand_kind(row_strength(list(r), "lowest"), "lowest").label for r in arr.rows()]


def test_bad_lines_are_reported_with_their_number_and_the_rest_reviewed():
    good = solver.arrange(HAND, "standard", 3, top=1).best.arrangement.to_dict()
    text = "\n".join([
        json.dumps(good),
        "{not json",
        "",
        json.dumps({**good, "hand": "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac"}),  # wrong cards
        json.dumps({"front": "As Ad", "middle": good["middle"], "back": good["back"]}),
        json.dumps({"hand": HAND, "natural": True}),  # no natural in this hand
        json.dumps({**good, "colour": "red"}),
        json.dumps(good),
    ])
    rep = review(text, "standard", 3)
    assert [h.line for h in rep.hands] == [1, 8]
    errors = {e.line: e.error for e in rep.errors}
    assert sorted(errors) == [2, 4, 5, 6, 7]
    assert "not valid JSON" in errors[2] and "not in the hand" in errors[4]
    assert "front" in errors[5] and "holds no natural" in errors[6] and "colour" in errors[7]
    assert rep.summary["hands"] == 2 and rep.summary["errors"] == 5
    codes = {e.line: e.code for e in rep.errors}
    assert codes == {2: "format", 4: "cards", 5: "cards", 6: "natural", 7: "fields"}
    bad = review([b"\xff\xfe" + b"5s 3c 2h | As Ad Kh 7c 6d | Kd Qc Js Ts 9h", "x" * 70_000])
    assert [e.code for e in bad.errors] == ["unreadable", "unreadable"]


def test_summary_figures():
    res = solver.arrange(HAND, "standard", 3, top=5)
    lines = [_rows(a.arrangement) for a in res.arrangements]
    rep = review(lines, "standard", 3)
    s = rep.summary
    lost = [res.best.ev - a.ev for a in res.arrangements]
    assert s["hands"] == 5 and s["exact_share"] == pytest.approx(0.2)
    assert s["ev_lost"] == pytest.approx(sum(lost), abs=1e-5)
    lo, hi = s["mean_ev_lost_ci95"]
    assert lo <= s["mean_ev_lost"] <= hi
    assert sum(c["hands"] for c in s["by_mistake"].values()) == 4
    assert sum(c["ev_lost"] for c in s["by_mistake"].values()) == pytest.approx(s["ev_lost"], abs=1e-5)
    assert [w["line"] for w in s["worst"]] == [5, 4, 3, 2]


def test_known_opponents_add_what_was_scored_and_the_best_response():
    mine = {"front": "5s 3c 2h", "middle": "As Ad Kh 7c 6d", "back": "Kd Qc Js Ts 9h"}
    other = {"front": "4c 4d 8s", "middle": "8c 8d Jc Jd 2c", "back": "Qh Qs Qd 3h 3s"}
    h = review([{**mine, "opponents": [other]}], "standard", 3).hands[0]
    assert h.opponents == 1
    assert h.actual_points == score([mine, other], "standard").players[0].points
    br = solver.arrange(list(Arrangement.from_dict(mine).cards), "standard", method="known",
                        opponent_arrangements=[other], top=1).best
    assert h.best_response is not None
    assert h.best_response["points"] == pytest.approx(br.ev)
    assert h.best_response["gain"] == pytest.approx(br.ev - h.actual_points)
    rep = review([{**mine, "opponents": [{"front": "As 4d 8s", "middle": other["middle"],
                                          "back": other["back"]}]}], "standard")
    assert rep.errors and "As" in rep.errors[0].error  # a card in two hands


def test_bad_arguments_are_typed_errors():
    with pytest.raises(InputError, match="method"):
        review([], method="known")
    with pytest.raises(InputError, match="opponents"):
        review([], opponents=4)
    with pytest.raises(InputError):
        review([], rules="nonsense")


def test_cli_review(tmp_path, capsys):
    res = solver.arrange(HAND, "two-four", 1, top=3)
    path = tmp_path / "played.jsonl"
    path.write_text("\n".join(json.dumps(_rows(a.arrangement)) for a in res.arrangements)
                    + "\nnot json\n", encoding="utf-8")
    assert capsa(["review", str(path), "--rules", "two-four", "--opponents", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["hands"] == 3 and out["errors"][0]["line"] == 4
    assert out["hands"][0]["ev"] == pytest.approx(res.best.ev, abs=1e-6)
    assert capsa(["review", str(path), "--rules", "two-four", "--opponents", "1"]) == 0
    text = capsys.readouterr().out
    assert "hands reviewed: 3" in text and "line 4:" in text
    assert capsa(["review", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert capsa(["review", str(path), "--method", "known"]) == 2


def test_http_review(client):
    res = solver.arrange(HAND, "standard", 3, top=2)
    text = "\n".join(json.dumps(_rows(a.arrangement)) for a in res.arrangements) + "\n[1"
    r = client.post("/v1/capsa/review", json={"text": text})
    assert r.status_code == 200
    body = r.get_json()
    assert body["summary"]["hands"] == 2 and body["errors"][0]["line"] == 3
    assert body["hands"][1]["ev_lost"] > 0 and body["hands"][1]["mistake"] in MISTAKES
    r = client.post("/v1/capsa/review", json={"hands": [_rows(res.best.arrangement)]})
    assert r.status_code == 200 and r.get_json()["hands"][0]["exact"] is True
    for bad, code, says in (({"text": text, "hands": [{}]}, 422, "not both"),
                            ({}, 422, "not both"),
                            ({"text": text, "method": "known"}, 400, "method"),
                            ({"text": "\n" * 5001}, 422, "at most 5,000 lines"),
                            ({"hands": [{}] * 30, "method": "montecarlo", "samples": 1000}, 422,
                             "at most 20,000 samples")):
        r = client.post("/v1/capsa/review", json=bad)
        assert r.status_code == code, (bad, r.get_json())
        assert says in r.get_json()["error"]["message"], (bad, r.get_json())
    # Monte Carlo at the largest sample count a two-line text may use: both hands reviewed
    r = client.post("/v1/capsa/review", json={"text": text, "method": "montecarlo",
                                              "samples": 2000})
    body = r.get_json()
    assert r.status_code == 200 and body["method"] == "montecarlo"
    assert body["summary"]["hands"] == 2 and [e["line"] for e in body["errors"]] == [3]
    assert body["hands"][0]["exact"] is True and body["hands"][1]["ev_lost"] > 0


def test_plain_text_lines_are_the_json_lines_they_stand_for():
    rows = CLASSED[5][1]
    dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad"
    text = "\n".join([
        "# played on Friday",
        f"{rows['front']} | {rows['middle']} | {rows['back']}",
        f"deal 7 | {rows['front'].upper()} | {rows['middle'].replace(' ', ',')} | "
        f"{rows['back'].replace('Q', 'q')}",
        f"natural | {dragon}",
        f"deal 9 | Mậu  Binh | {dragon}",
        json.dumps(rows),
        f"{rows['front']}\t{rows['middle']}\t{rows['back']}\t",  # spreadsheet cells
        "As Kd Qh",                          # no bars: neither rows nor JSON
        f"{rows['front']} | {rows['middle']}",  # two fields
        f" | {rows['front']} | {rows['middle']} | {rows['back']}",  # an empty id
        f"{rows['front']} |  | {rows['back']}",  # an empty middle
        "natural | 2c 3d | 4h",               # a natural's fields
        "5s 3c 2h | As Ad Kh 7c | Kd Qc Js Ts 9h",  # a middle of four cards
    ])
    rep = review(text, "standard", 1)
    plain = review([rows, rows, {"hand": dragon, "natural": True},
                    {"hand": dragon, "natural": True}, rows, rows], "standard", 1)
    assert [h.line for h in rep.hands] == [2, 3, 4, 5, 6, 7]
    assert [h.id for h in rep.hands] == [None, "deal 7", None, "deal 9", None, None]
    for a, b in zip(rep.hands, plain.hands, strict=True):
        assert (a.ev, a.best_ev, a.mistake, a.mine) == (b.ev, b.best_ev, b.mistake, b.mine)
    errors = {e.line - 1: e.error for e in rep.errors}  # as numbered before the tab line
    assert sorted(errors) == [7, 8, 9, 10, 11, 12]
    assert [e.code for e in rep.errors] == ["format"] * 5 + ["cards"]
    assert "front | middle | back" in errors[7] and "2 fields" in errors[8]
    assert "id field" in errors[9] and "middle is empty" in errors[10]
    assert "natural | HAND" in errors[11] and "middle" in errors[12]


@given(st.lists(st.one_of(st.just(0.0), st.floats(0.0, 30.0)), min_size=1, max_size=60))
def test_the_interval_of_the_mean_ev_lost_never_leaves_the_values(values):
    from solver.games.capsa.coach import mean_interval

    lo, hi = mean_interval(np.array(values))
    assert 0.0 <= min(values) <= lo <= hi <= max(values)
    if len(set(values)) > 1 and len(values) >= 20:
        assert lo < float(np.mean(values)) < hi


def test_a_few_costly_hands_among_exact_ones_keep_the_interval_above_zero():
    # 19 exact hands and a foul: the normal approximation's low end was -0.048 times its loss
    best = solver.arrange(HAND, "standard", 3, top=1).best.arrangement.to_dict()
    rep = review([best] * 19 + [CLASSED[0][1]], "standard", 3)
    lo, hi = rep.summary["mean_ev_lost_ci95"]
    assert 0.0 <= lo < rep.summary["mean_ev_lost"] < hi


def test_cli_and_http_review_plain_text(tmp_path, capsys, client):
    rows = CLASSED[5][1]
    text = (f"deal 1 | {rows['front']} | {rows['middle']} | {rows['back']}\n"
            "natural | 2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad\nAs Kd\n")
    path = tmp_path / "played.txt"
    path.write_text(text, encoding="utf-8")
    assert capsa(["review", str(path), "--opponents", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["hands"] == 2 and [e["line"] for e in out["errors"]] == [3]
    assert out["hands"][0]["id"] == "deal 1" and out["hands"][0]["mistake"] == "front_too_weak"
    assert capsa(["review", str(path), "--opponents", "1"]) == 0
    shown = capsys.readouterr().out
    lo, hi = out["summary"]["mean_ev_lost_ci95"]
    assert f"between {lo:.4f} and {hi:.4f}" in shown and "front_too_weak" in shown
    assert out["summary"]["worst"][0]["id"] == "deal 1" and "(deal 1)" in shown
    r = client.post("/v1/capsa/review", json={"text": text, "opponents": 1})
    assert r.status_code == 200
    body = r.get_json()
    assert body["summary"] == out["summary"] and body["hands"] == out["hands"]


def test_the_drill_grades_with_the_coachs_classes():
    from solver.games.capsa.drill import grade

    rows = dict(CLASSED[5][1])
    hand = [c for row in ("front", "middle", "back") for c in rows[row].split()]
    answer = grade(hand, {"preset": "standard", "players": 2}, rows)
    want = review([rows], "standard", 1).hands[0]
    assert answer["mistake"] == want.mistake == "front_too_weak"
    assert answer["ev_lost"] == pytest.approx(want.ev_lost, abs=1e-6)
