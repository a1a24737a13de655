"""``capsa train``: a complete tables file for any rule set, resumable; ``--tables`` /
``tables=`` / ``CAPSA_TABLES`` play it, and answers name it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from solver import arrange, arrange_many
from solver.cli import main
from solver.errors import InputError
from solver.games.capsa.methods.table import table_arrangements
from solver.games.capsa.prepared import prepare
from solver.games.capsa.rules import resolve_rules
from solver.games.capsa.splits import parse_hand
from solver.games.capsa.strategy import build
from solver.games.capsa.strategy.tables import load_raw, tables_for

HOUSE = {"preset": "standard", "naturals": False,
         "royalties": {"back": {"quads": 6, "straight_flush": 10},
                       "middle": {"full_house": 3}, "front": {"trips": 4}}}
HAND = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"
TINY = dict(hands=1500, rounds=3, removal_hands=1500, seed=11)
# The least training a plan takes: for tests of what a file holds, not of how well it plays.
SMALLEST = dict(hands=build.MIN_HANDS, rounds=2, removal_hands=build.MIN_HANDS, seed=11)


def _arrays(path) -> dict[str, np.ndarray]:
    raw = load_raw(str(path))
    return {f"{k}/{n}": np.asarray(v) for k, d in raw.items() if k != "meta"
            for n, v in d.items()}


@pytest.fixture(scope="module")
def house_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("house") / "house.npz"
    build.train_file(build.make_plan(HOUSE, **TINY), out, workers=1)
    return out


def test_a_trained_file_is_complete_and_records_what_made_it(house_file):
    raw = load_raw(str(house_file))
    assert set(raw) == {"meta", "standard"}
    assert set(raw["standard"]) == {"hist", "naturals", "removal", "alpha", "joint"}
    meta = raw["meta"]
    assert meta["rules"] == resolve_rules(HOUSE).to_dict() and meta["trained_for"] == "standard"
    assert "--seed 11" in meta["command"] and "--hands 1500" in meta["command"]
    assert raw["standard"]["naturals"][1:].sum() == 0  # naturals off: none are declared
    assert not (house_file.parent / ("house.npz" + build.CHECKPOINT_SUFFIX)).exists()


def test_two_four_rules_get_the_shipped_suit_terms(tmp_path):
    """Rules that train with two-four get suit terms at the shipped file's strength (the
    standard house file above has none); ``suit_scale=0`` leaves them out. Whether a file
    has them and at what scale does not depend on how long it trained: the smallest plan."""
    rules = {"preset": "two-four", "naturals": False}
    with_suits = tmp_path / "suits.npz"
    build.train_file(build.make_plan(rules, **SMALLEST), with_suits, workers=1)
    raw = load_raw(str(with_suits))
    assert raw["two-four"]["suit"].shape[:2] == (14, 3)
    assert raw["two-four"]["suit_scale"] == build.shipped_suit_scale("two-four") > 0
    assert f"--suit-scale {build.shipped_suit_scale('two-four'):g}" in raw["meta"]["command"]
    assert tables_for(resolve_rules(rules), str(with_suits)).suit is not None
    plain = tmp_path / "plain.npz"
    build.train_file(build.make_plan(rules, **SMALLEST, suit_scale=0), plain, workers=1)
    raw = load_raw(str(plain))
    assert "suit" not in raw["two-four"] and "--suit-scale" not in raw["meta"]["command"]
    with pytest.raises(InputError, match="suit_scale"):
        build.make_plan(rules, suit_scale=5)


def test_removal_rounds_play_fictitious_play_and_resume(tmp_path, monkeypatch):
    """``removal_rounds`` runs the card-removal pass's fictitious play (recorded in the file
    and its command); stopped in the middle of it, the same plan resumes after the rounds
    done and writes the same file as a run that never stopped."""
    from solver.games.capsa.strategy import removal as removal_pass

    rules = {"preset": "two-four", "naturals": False}
    plan = build.make_plan(rules, **TINY, removal_rounds=3)
    whole = tmp_path / "whole.npz"
    build.train_file(plan, whole, workers=1)
    raw = load_raw(str(whole))
    assert raw["meta"]["removal"]["rounds"] == 3 and "--removal-rounds 3" in raw["meta"]["command"]
    assert raw["two-four"]["hist"][0].sum() == 3 * TINY["removal_hands"]  # three pools
    out = tmp_path / "stopped.npz"
    real_pool, calls = removal_pass._pool, []

    def stop_at_third(*a, **k):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_pool(*a, **k)

    monkeypatch.setattr(removal_pass, "_pool", stop_at_third)
    with pytest.raises(KeyboardInterrupt):
        build.train_file(plan, out, workers=1)
    assert not out.exists()
    monkeypatch.setattr(removal_pass, "_pool", real_pool)
    build.train_file(plan, out, workers=1)
    a, b = _arrays(whole), _arrays(out)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    assert sorted(x.name for x in tmp_path.iterdir()) == ["stopped.npz", "whole.npz"]
    with pytest.raises(InputError, match="removal_rounds"):
        build.make_plan(rules, removal_rounds=0)


def test_training_does_not_depend_on_workers(house_file, tmp_path):
    other = tmp_path / "house.npz"  # the name is in the command the file records
    build.train_file(build.make_plan(HOUSE, **TINY), other, workers=2)
    a, b = _arrays(house_file), _arrays(other)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    assert house_file.read_bytes() == other.read_bytes()  # so the same digest


def test_a_stopped_training_resumes_to_the_same_file(house_file, tmp_path, monkeypatch):
    out = tmp_path / "resumed.npz"
    save = build._save_checkpoint

    def stop_after_first(path, plan, st):
        save(path, plan, st)
        if st.rounds_done == 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(build, "_save_checkpoint", stop_after_first)
    with pytest.raises(KeyboardInterrupt):
        build.train_file(build.make_plan(HOUSE, **TINY), out)
    assert not out.exists() and build.checkpoint_path(out).exists()
    monkeypatch.setattr(build, "_save_checkpoint", save)
    other_plan = build.make_plan(HOUSE, **{**TINY, "seed": 12})
    with pytest.raises(InputError, match="another training.*seed"):
        build.train_file(other_plan, out)
    build.train_file(build.make_plan(HOUSE, **TINY), out)
    a, b = _arrays(house_file), _arrays(out)
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_arrange_plays_the_file_given_and_names_it(house_file):
    r = resolve_rules(HOUSE)
    res = arrange(HAND, HOUSE, opponents=2, top=3, tables=house_file)
    ref = table_arrangements(parse_hand(HAND), prepare(r, tables_for(r, str(house_file))), 2, 3)
    assert [a.split for a in res.arrangements] == [a.split for a in ref]
    assert [a.ev for a in res.arrangements] == pytest.approx([a.ev for a in ref])
    shipped = arrange(HAND, HOUSE, opponents=2, top=3)
    assert [a.ev for a in shipped.arrangements] != pytest.approx([a.ev for a in ref])
    out = res.to_dict()["tables"]
    assert out["file"] == "house.npz" and out["trained_for"] == r.to_dict()
    assert shipped.to_dict()["tables"]["trained_for"] == "standard"


def test_arrange_many_plays_the_file_on_every_process(house_file):
    hands = np.sort(np.random.default_rng(2).permuted(np.tile(np.arange(52), (30, 1)),
                                                       axis=1)[:, :13], axis=1)
    one = arrange_many(hands, HOUSE, 1, processes=1, chunk_size=10, tables=house_file)
    two = arrange_many(hands, HOUSE, 1, processes=2, chunk_size=10, tables=house_file)
    assert one == two
    assert one[0]["ev"] == pytest.approx(arrange(hands[0], HOUSE, 1, top=1,
                                                 tables=house_file).best.ev, abs=1e-6)


def test_the_cli_trains_and_plays_a_house_file(tmp_path, capsys):
    rules = tmp_path / "house.json"
    rules.write_text(json.dumps(HOUSE))
    out = tmp_path / "cli.npz"
    assert main(["train", "--rules", str(rules), "--hands", "1000", "--rounds", "2",
                 "--removal-hands", "1000", "--workers", "1", "--no-progress",
                 "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().err
    assert main(["arrange", HAND, "--rules", str(rules), "--tables", str(out), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["tables"]["file"] == "cli.npz"
    hands = tmp_path / "in.txt"
    hands.write_text(HAND + "\n")
    result = tmp_path / "out.jsonl"
    assert main(["batch", str(hands), "-o", str(result), "--rules", str(rules), "--tables",
                 str(out), "--workers", "1", "--no-progress"]) == 0
    line = json.loads(result.read_text().splitlines()[-1])
    assert line["ev"] == pytest.approx(res["arrangements"][0]["ev"], abs=1e-6)
    capsys.readouterr()
    # the output holds answers of these tables: a rerun with the shipped ones refuses
    assert main(["batch", str(hands), "-o", str(result), "--rules", str(rules), "--workers",
                 "1", "--no-progress"]) == 2
    assert "tables" in capsys.readouterr().err


@pytest.mark.parametrize("argv, words", [
    (["arrange", HAND, "--tables", "missing.npz"], "no such file"),
    (["arrange", HAND, "--tables", __file__], "not a tables file"),
    (["train", "--rules", '{"bogus": 1}', "-o", "x.npz"], "bogus"),
    (["train", "--rules", "nowhere.json", "-o", "x.npz"], "nowhere.json"),
    (["train", "--rules", "standard", "--players", "5", "-o", "x.npz"], "--players"),
    (["train", "--rules", "standard", "-o", "no/such/dir/x.npz"], "no directory"),
    (["serve", "--tables", "missing.npz"], "no such file"),
    (["batch", "in.txt", "-o", "out.jsonl", "--tables", "missing.npz"], "no such file"),
])
def test_bad_input_is_one_line_and_exit_2(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("capsa: error:") and words in err and "\n" not in err
    assert not list(tmp_path.glob("*.npz"))


def test_capsa_tables_names_the_default_of_every_process(house_file):
    code = ("from solver import arrange; import json; "
            f"print(json.dumps(arrange({HAND!r}, opponents=1, top=1).to_dict()['tables']))")
    env = {**os.environ, "CAPSA_TABLES": str(house_file)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=300).stdout
    assert json.loads(out)["file"] == "house.npz"


def test_use_tables_sets_the_default_of_this_process_and_its_children(house_file, monkeypatch):
    from solver.games.capsa.strategy import tables as T

    monkeypatch.setattr(T, "_IN_USE", [T.DATA_FILE])
    monkeypatch.setenv(T.TABLES_ENV, "")  # recorded, so the variable is restored afterwards
    assert T.use_tables(house_file) == str(house_file.resolve())
    assert os.environ[T.TABLES_ENV] == str(house_file.resolve())
    assert arrange(HAND, opponents=1, top=1).to_dict()["tables"]["file"] == "house.npz"
