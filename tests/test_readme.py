"""The README's examples run as written and show what they print (a block preceded by a
``<!-- readme-test: skip ... -->`` comment is left out, and says why).

Shown outputs are checked doctest style: in a Python block, an expression whose comment is a
Python literal (``beats(...)  # True``) must evaluate to it, with ``...`` matching anything;
a ``$ capsa ...`` line in a plain block must print exactly the lines below it.
"""

from __future__ import annotations

import ast
import io
import re
import shlex
import tokenize
from pathlib import Path
from typing import Any

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"(<!-- readme-test: skip[^>]*-->\s*)?```python\n(.*?)```", re.S)
SHELL_BLOCK = re.compile(r"```\n(\$ capsa .*?)```", re.S)


def _blocks() -> list[tuple[int, str]]:
    text = README.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(2))
            for m in BLOCK.finditer(text) if not m.group(1)]


def test_readme_has_examples():
    assert len(_blocks()) >= 4


@pytest.mark.parametrize("line,code", _blocks(), ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_readme_example_runs(line: int, code: str):
    exec(compile(code, f"README.md:{line}", "exec"), {"__name__": "readme"})


def shown_values(code: str) -> dict[int, Any]:
    """Line number (in the block) -> the value its comment shows, for each comment that is a
    Python literal (prose comments are not)."""
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.COMMENT:
            try:
                out[tok.start[0]] = ast.literal_eval(tok.string[1:].strip())
            except (ValueError, SyntaxError):
                pass
    return out


def matches(value: Any, shown: Any) -> bool:
    """Equality where the README's ``...`` stands for anything (``[...]``: any list)."""
    if shown is Ellipsis:
        return True
    if isinstance(shown, list) and shown == [Ellipsis]:
        return isinstance(value, list)
    if isinstance(shown, dict):
        return (isinstance(value, dict) and value.keys() == shown.keys()
                and all(matches(value[k], v) for k, v in shown.items()))
    if isinstance(shown, (list, tuple)):
        return (type(value) is type(shown) and len(value) == len(shown)
                and all(matches(a, b) for a, b in zip(value, shown)))
    return type(value) is type(shown) and value == shown


def checked_expressions() -> list[tuple[int, str]]:
    """The blocks that show at least one value."""
    return [(line, code) for line, code in _blocks() if shown_values(code)]


def test_readme_shows_values():
    """The parser finds the shown values it must check (so a README change that breaks the
    comment form does not silently check nothing)."""
    assert sum(len(shown_values(code)) for _, code in _blocks()) >= 3


@pytest.mark.parametrize("line,code", checked_expressions(),
                         ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_readme_shown_values_are_what_the_code_gives(line: int, code: str):
    shown = shown_values(code)
    namespace: dict[str, Any] = {"__name__": "readme"}
    for stmt in ast.parse(code).body:
        unit = ast.Module(body=[stmt], type_ignores=[])
        if isinstance(stmt, ast.Expr) and stmt.end_lineno in shown:
            value = eval(compile(ast.Expression(stmt.value), f"README.md:{line}", "eval"),
                         namespace)
            expected = shown[stmt.end_lineno]
            assert matches(value, expected), \
                f"README.md:{line + stmt.lineno}: shows {expected!r}, the code gives {value!r}"
        else:
            exec(compile(unit, f"README.md:{line}", "exec"), namespace)


def _shell_examples() -> list[tuple[str, list[str]]]:
    out = []
    for m in SHELL_BLOCK.finditer(README.read_text(encoding="utf-8")):
        command, *shown = m.group(1).rstrip("\n").split("\n")
        out.append((command[2:], shown))
    return out


def test_readme_has_a_shell_example():
    assert _shell_examples()


@pytest.mark.parametrize("command,shown", _shell_examples(), ids=lambda v: v[:30])
def test_readme_shell_example_prints_what_it_shows(command: str, shown: list[str], capsys):
    from solver.cli import main

    argv = shlex.split(command)
    assert argv[0] == "capsa"
    assert main(argv[1:]) == 0
    assert capsys.readouterr().out.rstrip("\n").split("\n") == shown


def test_every_public_name_resolves():
    """``solver.<name>`` for each name the package lists (the README's Python API among them)."""
    import solver

    for name in solver.__all__:
        assert getattr(solver, name) is not None, name
    hands = ["As Kd Qh Jc Tc 9s 8s 7h 6d 5c 4c 3d 2h"]
    cols = solver.arrange_many_columns(hands, processes=1)
    assert cols.to_dicts() == solver.arrange_many(hands, processes=1)
