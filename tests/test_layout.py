"""The package's layers: every import that runs points down.

protoattr is built in layers, each a sub-package (see docs/design.md): the contract
layer (``_core``) at the bottom, then the Python backend (``_python``), the native
backend (``_native``, which falls back to the Python one), the codec model
(``_model``), the features (services, JSON, schemas, streams, ahead-of-time
modules), the public ``TypeModel`` (``_typemodel``) and the front door.  A module
may import its own package and anything below it, never above: an upward import
is how the old seven-module import circle started.  Imports under
``if TYPE_CHECKING:`` only name types for the checker and do not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "protoattr"

#: bottom to top; a unit is a sub-package or a top-level module of protoattr
LAYERS: list[set[str]] = [
    {"_version"},
    {"_core"},
    {"_python"},
    {"_native"},
    {"_model"},
    {"_service"},
    {"_json"},
    {"_schema", "_stream", "_aot", "_raw", "_cli_frames"},
    {"_text"},
    {"_typemodel"},
    {"wrappers", "bcl", "grpc", "_cli", "mypy"},
    {"__init__", "__main__"},
]
RANK = {unit: i for i, layer in enumerate(LAYERS) for unit in layer}


def _unit(module: str) -> str:
    """``protoattr._core.contract`` -> ``_core``; ``protoattr`` -> ``__init__``."""
    parts = module.split(".")
    assert parts[0] == "protoattr", module
    return parts[1] if len(parts) > 1 else "__init__"


def _module_name(path: Path) -> tuple[str, str]:
    """The dotted name of ``path`` and the package its relative imports start from."""
    rel = path.relative_to(PACKAGE.parent).with_suffix("").parts
    if rel[-1] == "__init__":
        return ".".join(rel[:-1]), ".".join(rel[:-1])
    return ".".join(rel), ".".join(rel[:-1])


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(path: Path, source: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module) for every import outside ``if TYPE_CHECKING:``."""
    _, package = _module_name(path)
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
                if node.module is None:  # from . import a, b: the names may be modules
                    for alias in node.names:
                        candidate = f"{target}.{alias.name}"
                        unit_path = PACKAGE.parent / candidate.replace(".", "/")
                        exists = unit_path.with_suffix(".py").exists() or unit_path.is_dir()
                        found.append((node.lineno, candidate if exists else target))
                    return
                found.append((node.lineno, target))
            elif node.module and node.module.split(".")[0] == "protoattr":
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "protoattr":
                    found.append((node.lineno, alias.name))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text() if source is None else source))
    return found


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_unit_has_a_layer() -> None:
    units = {_unit(_module_name(p)[0]) for p in _sources()}
    assert units == set(RANK), "add new sub-packages and modules to LAYERS"


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path: Path) -> None:
    me = _unit(_module_name(path)[0])
    upward = [
        f"line {line}: {target} ({_unit(target)} is above {me})"
        for line, target in _runtime_imports(path)
        if _unit(target) != me and RANK[_unit(target)] >= RANK[me]
    ]
    assert not upward, "\n".join(upward)


def test_the_checker_sees_upward_imports() -> None:
    """The rule can fail: the old circle's lazy import of the model, in any spelling."""
    contract = PACKAGE / "_core" / "contract.py"
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .._typemodel import TypeModel\n"
        "def f():\n    from .._model import codecs\n    from .. import _json\n"
        "    import protoattr._schema.proto\n"
    )
    imports = _runtime_imports(contract, source)
    assert imports == [
        (5, "protoattr._model"),
        (6, "protoattr._json"),
        (7, "protoattr._schema.proto"),
    ]
    assert all(RANK[_unit(target)] > RANK["_core"] for _, target in imports)


def test_the_contract_layer_has_no_module_level_cycle() -> None:
    """Inside ``_core``, module-level imports form no circle either (lazy ones may)."""
    graph: dict[str, set[str]] = {}
    for path in (PACKAGE / "_core").glob("*.py"):
        name, package = _module_name(path)
        deps: set[str] = set()
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    deps.add(f"{package}.{node.module}")
                else:
                    deps.update(f"{package}.{a.name}" for a in node.names)
        graph[name] = {d for d in deps if d.startswith("protoattr._core.")}
    seen: dict[str, int] = {}

    def walk(node: str, trail: list[str]) -> None:
        if seen.get(node) == 2:
            return
        assert seen.get(node) != 1, " -> ".join([*trail, node])
        seen[node] = 1
        for dep in graph.get(node, ()):
            walk(dep, [*trail, node])
        seen[node] = 2

    for node in graph:
        walk(node, [])


def test_every_package_is_shipped() -> None:
    """pyproject lists the packages setuptools puts in the wheel: a new one must be there."""
    pyproject = (PACKAGE.parent / "pyproject.toml").read_text()
    listed = pyproject.split("[tool.setuptools]", 1)[1].split("]", 1)[0]
    packages = sorted(
        ".".join(p.parent.relative_to(PACKAGE.parent).parts)
        for p in PACKAGE.rglob("__init__.py")
        if "__pycache__" not in p.parts
    )
    missing = [name for name in packages if f'"{name}"' not in listed]
    assert not missing, f"add {missing} to [tool.setuptools] packages in pyproject.toml"
