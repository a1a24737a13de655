"""Errors name the offending value and the allowed ones: in Python (typed exceptions from
``solver.errors``) and in the CLI (one line on stderr, exit 2), as over HTTP."""

from __future__ import annotations

import pytest

import solver
from solver.batch.run import parse_line
from solver.cli import main
from solver.errors import CardError, InputError, RulesError
from solver.games import get_game

HAND = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"


@pytest.mark.parametrize("call, error, words", [
    (lambda: get_game("poker"), InputError, ["'poker'", "big-two", "capsa", "da-bai-fen", "da-san"]),
    (lambda: solver.arrange(HAND, method="exact"), InputError, ["'exact'", "table", "known"]),
    (lambda: solver.arrange(HAND, opponents=5), InputError, ["5", "1 and 3"]),
    (lambda: solver.arrange(HAND, rules="vegas"), RulesError, ["'vegas'", "standard", "indonesia"]),
    (lambda: solver.arrange(HAND, rules={"wheel": "top"}), RulesError, ["'top'", "lowest", "second"]),
    (lambda: solver.valid_arrangements("As Kd Zz"), CardError, ["'Zz'"]),
    (lambda: solver.score([{"hand": HAND}]), InputError, ["2 to 4", "got 1"]),
    (lambda: parse_line('{"hand": 5}'), InputError, ["string of cards or a list", "got int"]),
    (lambda: parse_line('{"hand": "x", "id": 1.5}'), InputError, ["string or an integer", "1.5"]),
])
def test_python_errors_name_value_and_allowed(call, error, words):
    with pytest.raises(error) as info:
        call()
    assert all(w in str(info.value) for w in words), str(info.value)


@pytest.mark.parametrize("argv, words", [
    (["arrange", HAND, "--rules", "vegas"], ["'vegas'", "standard, basic, two-four, indonesia"]),
    (["arrange", HAND, "--method", "montecarlo", "--samples", "0"], ["got 0", "1 and 20000"]),
    (["valid", HAND, "--rules", '{"scoring": "x"}'], ["'x'", "one-six, two-four"]),
])
def test_cli_errors_are_one_line_naming_value_and_allowed(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and all(w in err for w in words), err
