"""solver.validation: one wording for every range and type check, the same from Python, the
command line and batch runs."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from solver.cli import main
from solver.errors import InputError, RulesError
from solver.games.capsa.rules import resolve_rules
from solver.validation import check_bool, check_choice, check_int, check_whole, parse_int


def test_check_int_takes_whole_numbers_in_range_only():
    assert check_int("n", np.int64(3), 1, 3) == 3 and type(check_int("n", np.int8(2), 1, 3)) is int
    for bad, message in ((True, "n must be a whole number, got True"),
                         (2.0, "n must be a whole number, got 2.0"),
                         ("2", "n must be a whole number, got '2'"),
                         (0, "n must be between 1 and 3, got 0"),
                         (np.int64(4), "n must be between 1 and 3, got 4")):
        with pytest.raises(InputError) as exc:
            check_int("n", bad, 1, 3)
        assert str(exc.value) == message
    with pytest.raises(InputError, match="n must be at least 1, got 0"):
        check_int("n", 0, 1, None)
    assert check_int("n", -10**30, None, 5) == -10**30


def test_whole_floats_bools_choices_and_text():
    assert check_whole("u", 3.0, 0, 5) == 3
    with pytest.raises(RulesError, match="u must be a whole number, got inf"):
        check_whole("u", float("inf"), 0, 5, RulesError)
    assert check_bool("b", np.bool_(False)) is False
    with pytest.raises(InputError, match="b must be true or false, got 1"):
        check_bool("b", 1)
    with pytest.raises(InputError, match="m must be one of a, b, got 'c'"):
        check_choice("m", "c", ("a", "b"))
    assert parse_int("--seed", " 7 ") == 7
    with pytest.raises(InputError, match="--seed must be between 0 and 9, got 10"):
        parse_int("--seed", "10", 0, 9)


def test_the_same_words_from_python_the_cli_and_rules(capsys):
    import solver

    with pytest.raises(InputError, match="^opponents must be between 1 and 3, got 4$"):
        solver.arrange("As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h", opponents=4)
    assert main(["advise", "big-two", "-", "--seat", "5"]) == 2
    assert capsys.readouterr().err == ("capsa: error: argument --seat: --seat must be between 0 "
                                       "and 3, got 5\n")
    with pytest.raises(RulesError, match="royalties.back.quads must be between 0 and"):
        resolve_rules({"royalties": {"back": {"quads": 10**9}}})


def test_importable_without_flask_or_numba():
    code = ("import sys, solver.validation; "
            "print(any(m in sys.modules for m in ('flask', 'numba')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
