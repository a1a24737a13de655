"""The README's Python examples run as written (a block preceded by a
``<!-- readme-test: skip ... -->`` comment is left out, and says why)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"(<!-- readme-test: skip[^>]*-->\s*)?```python\n(.*?)```", re.S)


def _blocks() -> list[tuple[int, str]]:
    text = README.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(2))
            for m in BLOCK.finditer(text) if not m.group(1)]


def test_readme_has_examples():
    assert len(_blocks()) >= 4


@pytest.mark.parametrize("line,code", _blocks(), ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_readme_example_runs(line: int, code: str):
    exec(compile(code, f"README.md:{line}", "exec"), {"__name__": "readme"})


def test_every_public_name_resolves():
    """``solver.<name>`` for each name the package lists (the README's Python API among them)."""
    import solver

    for name in solver.__all__:
        assert getattr(solver, name) is not None, name
    hands = ["As Kd Qh Jc Tc 9s 8s 7h 6d 5c 4c 3d 2h"]
    cols = solver.arrange_many_columns(hands, processes=1)
    assert cols.to_dicts() == solver.arrange_many(hands, processes=1)
