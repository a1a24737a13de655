"""The import graph of ``solver`` and ``api``, read from the source (every import, those inside
functions and under ``TYPE_CHECKING`` included, ``importlib.import_module`` of a constant, and
the modules a lazy ``_EXPORTS`` table of names to modules imports on first use, as the
``solver`` facade's): no cycle, and no arrow from a layer to one above it.

The layers, bottom up (a module may import its own layer and those below):

0. ``solver.cards``, ``solver.errors``, ``solver.validation``, ``solver._jit``,
   ``solver.npzfile``: shared pieces that know no game;
1. ``solver.executors``: the process pools every layer above runs work in;
2. ``solver.games``: the registry, the contract and each game;
3. ``solver.batch``, ``solver.sessions``, ``solver.warmup``: services built on the games;
4. ``solver`` (the package's public names) and ``api`` (the HTTP service);
5. ``solver.cli``: the command line, above both.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "api")
LAYERS: tuple[tuple[str, ...], ...] = (
    ("solver.cards", "solver.errors", "solver.validation", "solver._jit", "solver.npzfile"),
    ("solver.executors",),
    ("solver.games",),
    ("solver.batch", "solver.sessions", "solver.warmup"),
    ("solver", "api"),
    ("solver.cli",),
)


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The project module an import names (the longest known prefix), or None."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in MODULES:
            return candidate
        parts.pop()
    return None


def _at_import(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``tree`` outside function bodies (what runs when the module is imported)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in ast.iter_child_nodes(node)
                     if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))


def _lazy_table(node: ast.AST) -> list[str]:
    """The module names of an ``_EXPORTS = {name: "module", ...}`` table, else []."""
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        targets, value = [node.target], node.value
    else:
        return []
    if not (any(isinstance(t, ast.Name) and t.id == "_EXPORTS" for t in targets)
            and isinstance(value, ast.Dict)):
        return []
    return [v.value for v in value.values
            if isinstance(v, ast.Constant) and isinstance(v.value, str)]


def _targets(nodes: Iterable[ast.AST], package: str) -> Iterator[tuple[str, int]]:
    """(imported project module, line) for every import among ``nodes``, relative ones
    resolved against ``package`` (that of the module they are read from)."""
    for node in nodes:
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # ``from pkg import sub``: the submodule when there is one, else pkg itself
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                     for a in node.names]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names = [node.args[0].value]
        else:
            names = _lazy_table(node)
        for name in names:
            target = _resolve(name)
            if target is not None:
                yield target, getattr(node, "lineno", 0)


def _imports(module: str, everywhere: bool = True) -> Iterator[tuple[str, int]]:
    """(imported project module, line) for every import in ``module``'s source (only those
    that run when it is imported, outside function bodies, unless ``everywhere``)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    nodes = ast.walk(tree) if everywhere else _at_import(tree)
    for target, line in _targets(nodes, package):
        if target != module:
            yield target, line


GRAPH: dict[str, dict[str, int]] = {m: {} for m in MODULES}
for _m in MODULES:
    for _target, _line in _imports(_m):
        GRAPH[_m].setdefault(_target, _line)


def layer(module: str) -> int:
    """The layer of ``module``: that of the longest layer prefix it falls under."""
    best, level = -1, -1
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, level = len(p), i
    assert level >= 0, f"{module} is in no layer"
    return level


def _cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in GRAPH:
        if root in index:
            continue
        work = [(root, iter(GRAPH[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(GRAPH[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        component.append(m)
                        if m == node:
                            break
                    if len(component) > 1:
                        out.append(sorted(component))
    return out


def test_the_graph_is_read():
    """The reader sees imports at the top, inside functions, relative ones and the facade's
    lazy table (the test can fail)."""
    assert "api.endpoint" in GRAPH["api.app"]
    # ``serve()`` imports the front inside its body only: read there, not at import
    assert "api.front" in GRAPH["api.server"]
    assert "api.front" not in dict(_imports("api.server", everywhere=False))
    # the facade names its modules in ``_EXPORTS`` and imports them on first use
    assert {"solver.games.capsa.arrange", "solver.batch.many", "solver.cards"} <= set(
        GRAPH["solver"])
    relative = ast.parse("from . import work\nfrom .arrange import arrange\n"
                         "from ..base import GameInfo\nfrom .. import capsa\n")
    assert {t for t, _ in _targets(ast.walk(relative), "solver.games.capsa")} == {
        "solver.games.capsa.work", "solver.games.capsa.arrange", "solver.games.base",
        "solver.games.capsa"}
    assert all(layer(m) >= 0 for m in MODULES)


def test_no_import_cycle():
    cycles = _cycles()
    shown = [" <-> ".join(c) for c in cycles]
    assert not cycles, "import cycles:\n" + "\n".join(shown)


def test_no_arrow_up_the_layers():
    up = [f"{m}:{line} imports {t} (layer {layer(m)} -> {layer(t)})"
          for m, targets in GRAPH.items() for t, line in targets.items() if layer(t) > layer(m)]
    assert not up, "imports against the layers:\n" + "\n".join(up)


@pytest.mark.parametrize("a, b", [("solver.games.capsa.review", "solver.cli.arrange")])
def test_the_layer_rule_can_fail(a, b):
    assert layer(b) > layer(a)


def test_no_route_module_imports_another():
    """Request types shared by several routes live outside the route modules."""
    crossing = [f"{m} imports {t}" for m, targets in GRAPH.items() if m.startswith("api.routes.")
                for t in targets if t.startswith("api.routes.") and t != "api.routes"]
    assert not crossing, crossing
