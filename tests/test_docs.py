"""The README's and the docs pages' examples run as written and show what they print.

Every fenced block of ``README.md`` and of each ``docs/**/*.md`` page is one of:

- ``python``: run in a fresh namespace, from the repository's root. An expression whose comment
  is a Python literal (``beats(...)  # True``) must evaluate to it, doctest style, with ``...``
  matching anything (``[...]``: any list);
- a plain block of ``$ capsa ...`` lines: each command must succeed and print exactly the lines
  below it (up to the next ``$``);
- ``text`` or ``mermaid``: not code (a synopsis, a file tree, a diagram);
- anything else (``bash``, ``sh``, a plain block of other commands): it must be preceded by a
  ``<!-- docs-test: skip (why) -->`` comment, which leaves any block out and says why.

Tests are named by file and line (``docs/bots.md:12``). Every page under ``docs/`` is linked
from the README, and every relative link of the README and the pages leads to a file (and to
a heading of it, when the link names one).
"""

from __future__ import annotations

import ast
import io
import re
import shlex
import textwrap
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("**/*.md"))]
# a fence (indented in a list item, or not), with the skip comment that may stand just before it
FENCE = re.compile(r"(?:<!-- (?:docs|readme)-test: skip(?P<why>[^>]*)-->[ \t]*\n(?:[ \t]*\n)*)?"
                   r"^(?P<indent>[ \t]*)```(?P<lang>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.S | re.M)
NOT_CODE = {"text", "mermaid"}
LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)#\s]+)(?:#([^)\s]*))?\)")


@dataclass(frozen=True)
class Block:
    path: str   # from the repository's root
    line: int   # of the opening fence
    lang: str
    body: str
    skip: str | None  # the reason given, when the block is left out

    @property
    def kind(self) -> str:
        if self.lang == "python":
            return "python"
        if self.lang == "" and self.body.startswith("$ capsa "):
            return "capsa"
        return "text" if self.lang in NOT_CODE else "other"

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}"


def blocks() -> list[Block]:
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            why = m.group("why")
            out.append(Block(str(doc.relative_to(ROOT)), text.count("\n", 0, m.start("lang")) + 1,
                             m.group("lang").strip(), textwrap.dedent(m.group("body")),
                             None if why is None else why.strip(" ()")))
    return out


BLOCKS = blocks()


def runnable(kind: str) -> list[Any]:
    return [pytest.param(b, id=b.id) for b in BLOCKS if b.kind == kind and b.skip is None]


def test_the_docs_have_examples():
    assert len(DOCS) > 10
    assert len(runnable("python")) >= 12 and len(runnable("capsa")) >= 2
    in_readme = {b.kind for b in BLOCKS if b.path == "README.md" and b.skip is None}
    assert {"python", "capsa"} <= in_readme


def test_every_block_runs_or_says_why():
    for b in BLOCKS:
        if b.skip is not None:
            assert b.skip, f"{b.id}: a skipped block says why"
        else:
            assert b.kind != "other", (f"{b.id}: a ```{b.lang} block neither runs nor says why "
                                       f"(<!-- docs-test: skip (why) -->)")


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
    """Equality where the docs' ``...`` stands for anything (``[...]``: any list)."""
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


def test_the_docs_show_values():
    """The parser finds the shown values it must check (so a change that breaks the comment
    form does not silently check nothing)."""
    assert sum(len(shown_values(p.values[0].body)) for p in runnable("python")) >= 8


@pytest.mark.parametrize("block", runnable("python"))
def test_python_example_runs_and_shows_what_it_gives(block: Block, monkeypatch):
    """Statement by statement; line numbers in a traceback are the page's own."""
    monkeypatch.chdir(ROOT)
    shown = {block.line + n: value for n, value in shown_values(block.body).items()}
    tree = ast.parse(block.body)
    ast.increment_lineno(tree, block.line)
    namespace: dict[str, Any] = {"__name__": "docs"}
    for stmt in tree.body:
        if isinstance(stmt, ast.Expr) and stmt.end_lineno in shown:
            code = compile(ast.Expression(stmt.value), block.path, "eval")
            value, expected = eval(code, namespace), shown.pop(stmt.end_lineno)
            assert matches(value, expected), \
                f"{block.path}:{stmt.lineno}: shows {expected!r}, the code gives {value!r}"
        else:
            exec(compile(ast.Module(body=[stmt], type_ignores=[]), block.path, "exec"), namespace)
    assert not shown, f"{block.id}: values shown beside no expression's last line: {shown}"


def shell_examples(body: str) -> list[tuple[str, list[str]]]:
    """(command, the lines it prints) for each ``$`` line of a block."""
    out: list[tuple[str, list[str]]] = []
    for line in body.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            out[-1][1].append(line)
    return out


@pytest.mark.parametrize("block", runnable("capsa"))
def test_shell_example_prints_what_it_shows(block: Block, capsys):
    from solver.cli import main

    for command, shown in shell_examples(block.body):
        argv = shlex.split(command)
        assert argv[0] == "capsa", f"{block.id}: only capsa commands run here: {command}"
        assert main(argv[1:]) == 0, command
        assert capsys.readouterr().out.rstrip("\n").split("\n") == shown, command


def test_every_docs_page_is_linked_from_the_readme():
    text = README.read_text(encoding="utf-8")
    linked = {(ROOT / target).resolve() for target, _ in LINK.findall(text)}
    missing = [str(doc.relative_to(ROOT)) for doc in DOCS[1:] if doc.resolve() not in linked]
    assert not missing, f"pages the README does not link: {missing}"


def anchors(doc: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to -."""
    text = FENCE.sub("", doc.read_text(encoding="utf-8"))
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.*)$", text, re.M)}


@pytest.mark.parametrize("doc", [pytest.param(d, id=str(d.relative_to(ROOT))) for d in DOCS])
def test_every_relative_link_leads_to_a_file(doc: Path):
    """And to a heading of the page, when it names one."""
    text = FENCE.sub("", doc.read_text(encoding="utf-8"))
    broken = []
    for target, anchor in LINK.findall(text):
        path = doc.parent / target
        if not path.exists() or (anchor and path.suffix == ".md" and anchor not in anchors(path)):
            broken.append(f"{target}#{anchor}" if anchor else target)
    assert not broken, f"{doc.relative_to(ROOT)}: links to nothing: {broken}"


def test_every_public_name_resolves():
    """``solver.<name>`` for each name the package lists (the README's Python API among them)."""
    import importlib

    import solver

    assert solver.__all__ == sorted(solver._EXPORTS)
    for name in solver.__all__:
        home = importlib.import_module(solver._EXPORTS[name])
        # the very object of the module that defines it, not a copy or a stand-in
        assert getattr(solver, name) is getattr(home, name), name
        assert name in dir(solver)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        solver.nope
    hands = ["As Kd Qh Jc Tc 9s 8s 7h 6d 5c 4c 3d 2h"]
    cols = solver.arrange_many_columns(hands, processes=1)
    assert cols.to_dicts() == solver.arrange_many(hands, processes=1)
