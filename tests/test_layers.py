"""The package's shape: layers as subpackages, imports along a table of allowed edges, no
circles, public names.

Every import in ``bgtools/`` is read from the source (also those inside functions; not those
under ``if TYPE_CHECKING:``, which never run).  A module may import its own subpackage and
the layers :data:`ALLOWED` lists for its layer (the graph docs/architecture.md draws, and
this test checks that it draws the same table); nothing imports the root package
``bgtools`` (it is the lazy public API on top); the module graph has no circle; no module
takes a private name (``_x``) from another module.
"""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "bgtools"

#: layer -> the layers its modules may import (besides its own).  Not one order: the engine
#: sits beside the match model and the formats (it needs only the rules), export beside
#: analysis.  A layer may be listed before its package exists (``library``).
ALLOWED: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in {
    "base": (),
    "core": ("base",),
    "model": ("base", "core"),
    "formats": ("base", "core", "model"),
    "engine": ("base", "core"),
    "training": ("base", "core", "engine"),
    "rollouts": ("base", "core", "engine"),
    "analysis": ("base", "core", "model", "formats", "engine", "rollouts"),
    "export": ("base", "core", "model", "formats"),
    "library": ("base", "core", "model", "formats", "engine", "analysis", "export"),
    "cli": ("base", "core", "model", "formats", "engine", "training", "rollouts", "analysis", "export", "library"),
}.items()}
LAYERS = tuple(ALLOWED)
DATA_PACKAGES = ("data",)
ARCHITECTURE = PKG.parent / "docs" / "architecture.md"


def _modules() -> dict[str, Path]:
    out = {}
    for p in sorted(PKG.rglob("*.py")):
        rel = p.relative_to(PKG.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(path: Path, modname: str) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every run-time import of bgtools."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    out: list[tuple[str, list[str], int]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, ast.Import):
                for a in child.names:
                    if a.name == "bgtools" or a.name.startswith("bgtools."):
                        out.append((a.name, [], child.lineno))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = modname.split(".") if is_pkg else modname.split(".")[:-1]
                    base = base[: len(base) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if target == "bgtools" or target.startswith("bgtools."):
                    names = [a.name for a in child.names]
                    # ``from bgtools.engine import bearoff`` imports the module bgtools.engine.bearoff
                    subs = [n for n in names if f"{target}.{n}" in MODULES]
                    for n in subs:
                        out.append((f"{target}.{n}", [], child.lineno))
                    rest = [n for n in names if n not in subs]
                    if rest or not subs:
                        out.append((target, rest, child.lineno))
            visit(child)

    visit(tree)
    return out


def _layer(mod: str) -> str | None:
    parts = mod.split(".")
    if len(parts) < 2 or parts[1] in DATA_PACKAGES or parts[1] == "__main__":
        return None
    if parts[1] in ("grammars",):
        return "formats"
    return parts[1]


def _may_import(me: str, there: str) -> bool:
    return there == me or there in ALLOWED[me]


GRAPH = {m: _imports(p, m) for m, p in MODULES.items()}


def test_every_subpackage_is_a_known_layer():
    found = {m.split(".")[1] for m in MODULES if m.count(".") >= 1}
    assert found <= set(LAYERS) | set(DATA_PACKAGES) | {"__main__", "grammars"}, found - set(LAYERS)
    # a layer of the table may have no package yet (``library`` is announced before it lands)


def test_the_edge_table_is_a_graph_without_circles():
    for me, theirs in ALLOWED.items():
        assert theirs <= set(ALLOWED) and me not in theirs, me
    placed: list[str] = []
    left = dict(ALLOWED)
    while left:
        ready = [k for k, v in left.items() if v <= set(placed)]
        assert ready, f"a circle among {sorted(left)}"
        placed += ready
        for k in ready:
            del left[k]


def test_the_architecture_page_draws_the_same_table():
    """docs/architecture.md has a table ``| layer | may import |``: the same edges as ALLOWED."""
    drawn = {}
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip().strip("`*") for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and cells[0] in ALLOWED:
            drawn[cells[0]] = frozenset(x.strip().strip("`") for x in cells[1].split(",") if x.strip() not in ("", "-"))
    assert drawn == ALLOWED


def test_no_module_lies_beside_the_layers():
    loose = [m for m in MODULES if m.count(".") == 1 and m.split(".")[1] not in LAYERS + DATA_PACKAGES
             and m != "bgtools.__main__"]
    assert loose == []


def test_imports_follow_the_edge_table():
    bad = []
    for mod, imps in GRAPH.items():
        me = _layer(mod)
        for target, _, line in imps:
            if mod.count(".") == 0 or mod == "bgtools.__main__":
                continue  # the root package and ``python -m bgtools`` sit on top of everything
            if target == "bgtools":
                bad.append(f"{mod}:{line} imports the root package")
                continue
            there = _layer(target)
            if me is not None and there is not None and not _may_import(me, there):
                bad.append(f"{mod}:{line} ({me}) imports {target} ({there}): not an edge of ALLOWED")
    assert bad == [], "\n".join(bad)


def test_core_imports_nothing_above_base():
    for mod, imps in GRAPH.items():
        if mod.startswith("bgtools.core"):
            for target, _, line in imps:
                assert target.startswith(("bgtools.core", "bgtools.base")), f"{mod}:{line} imports {target}"


def test_no_import_circles():
    edges = {m: sorted({t for t, _, _ in imps if t in MODULES and t != m}) for m, imps in GRAPH.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in edges:
        if v not in index:
            strong(v)
    assert circles == []


def test_no_private_names_across_modules():
    bad = []
    for mod, imps in GRAPH.items():
        for target, names, line in imps:
            if target == mod:
                continue
            for n in names:
                if n.startswith("_") and not n.startswith("__"):
                    bad.append(f"{mod}:{line} takes {target}.{n}")
    assert bad == [], "\n".join(bad)


def test_the_checker_sees_a_violation(tmp_path):
    """The walker itself: an upward import and a private name are found in a made-up module."""
    src = tmp_path / "m.py"
    src.write_text("from bgtools.cli.app import main\nfrom bgtools.core.movegen import _gen\n"
                   "if TYPE_CHECKING:\n    from bgtools.export import table\n")
    imps = _imports(src, "bgtools.core.m")
    assert [(t, n) for t, n, _ in imps] == [("bgtools.cli.app", ["main"]), ("bgtools.core.movegen", ["_gen"])]
    assert not _may_import("core", "cli") and _may_import("cli", "core") and _may_import("core", "core")
    # beside, not below: the engine may not read a match file, export may not analyse
    assert not _may_import("engine", "model") and not _may_import("export", "analysis")


def test_size_limits():
    """No module over 600 lines; no function outside the CLI commands with more than 12 parameters."""
    long_modules = []
    wide = []
    for mod, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > 600:
            long_modules.append(f"{mod}: {text.count(chr(10))} lines")
        if mod.startswith("bgtools.cli"):
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                n = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + bool(a.vararg) + bool(a.kwarg)
                if a.args and a.args[0].arg in ("self", "cls"):
                    n -= 1
                if n > 12:
                    wide.append(f"{mod}:{node.lineno} {node.name} takes {n}")
    assert long_modules == [], long_modules
    assert wide == [], "\n".join(wide)
