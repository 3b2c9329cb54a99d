"""What a company adopting protoattr checks first: licence, metadata, public signatures, docs.

The API-reference checks build the MkDocs site (the ``docs`` extra); without
it they are skipped, and ``.ci/run`` runs them on the interpreter that has it.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import inspect
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import protoattr as pa

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # tomllib is 3.11+


# -------------------------------------------------------------------- licence


def test_the_licence_is_mit_in_the_file_and_the_metadata() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text
    assert re.search(r'^license = "MIT"$', PYPROJECT, re.M)
    assert re.search(r'^license-files = \["LICENSE"\]$', PYPROJECT, re.M)


def test_the_installed_metadata_carries_the_licence() -> None:
    meta = importlib.metadata.metadata("protoattr")
    stale = "installed before pyproject.toml declared the licence: pip install -e . again"
    assert meta["License-Expression"] == "MIT", stale
    assert "LICENSE" in (meta.get_all("License-File") or [])


# ----------------------------------------------------------- no placeholders

_URL = re.compile(r"https?://[^\s)>\"'`]+")


TEXTS = [
    pytest.param("protoattr.__doc__", pa.__doc__ or "", id="docstring"),
    pytest.param("README.md", (ROOT / "README.md").read_text(encoding="utf-8"), id="README"),
    pytest.param("pyproject.toml", PYPROJECT, id="pyproject"),
]


@pytest.mark.parametrize(("where", "text"), TEXTS)
def test_no_placeholder_urls(where: str, text: str) -> None:
    """A URL must name a page, not just a host (``https://github.com/`` was one)."""
    for url in _URL.findall(text):
        path = url.split("://", 1)[1].partition("/")[2].rstrip("/.,")
        assert path, f"{where}: {url!r} is a placeholder"
        assert "example" not in url, f"{where}: {url!r} is a placeholder"


# ----------------------------------------------------- the public signatures


def _public_callables() -> Iterator[tuple[str, object]]:
    for name in pa.__all__:
        obj = getattr(pa, name)
        if callable(obj) and not isinstance(obj, type):
            yield f"pa.{name}", obj
    for name in dir(pa.TypeModel):  # its own methods and those of CodecModel
        obj = getattr(pa.TypeModel, name)
        if not name.startswith("_") and callable(obj):
            yield f"TypeModel.{name}", obj


def test_no_public_function_takes_a_private_parameter() -> None:
    """``TypeModel.add(cls, *, _compile=False)`` showed a private knob in the reference."""
    found = {
        where: [p for p in inspect.signature(fn).parameters if p.startswith("_")]  # type: ignore[arg-type]
        for where, fn in _public_callables()
    }
    assert {where: ps for where, ps in found.items() if ps} == {}
    assert "pa.serialize" in found and "TypeModel.add" in found


# ------------------------------------------------------ the README quickstart


def _load(path: Path, name: str) -> object:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_wheel_smoke_test_finds_the_readme_quickstart() -> None:
    """``.ci/quickstart.py`` runs the blocks it finds: it must find the real ones."""
    quickstart = _load(ROOT / ".ci" / "quickstart.py", "ci_quickstart")
    blocks = quickstart.quickstart_blocks(  # type: ignore[attr-defined]
        (ROOT / "README.md").read_text(encoding="utf-8")
    )
    codes = [code for _, code in blocks]
    assert any("pa.serialize(task)" in code for code in codes)
    assert any("attrs.define" in code for code in codes)


# ------------------------------------------------------------ API reference


def test_sphinx_roles_become_cross_references() -> None:
    pytest.importorskip("griffe")
    ext = _load(ROOT / "docs" / "_ext" / "griffe_protoattr.py", "griffe_protoattr")
    convert = ext.role_to_markdown  # type: ignore[attr-defined]
    targets = {
        "serialize": "protoattr.serialize",
        "TypeModel.compile": "protoattr.TypeModel.compile",
    }
    assert convert("see :func:`serialize`.", targets) == "see [`serialize`][protoattr.serialize]."
    assert convert(":meth:`~protoattr.TypeModel.compile`", targets) == (
        "[`compile`][protoattr.TypeModel.compile]"
    )
    assert convert(":data:`_CHUNK` and :mod:`protoattr._core.wire`", targets) == (
        "`_CHUNK` and `protoattr._core.wire`"  # private: shown as code, not linked
    )


@pytest.fixture(scope="module")
def reference_html(tmp_path_factory: pytest.TempPathFactory) -> str:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=ROOT,
        check=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
    )
    return (site / "reference" / "index.html").read_text(encoding="utf-8")


def _text(html: str) -> str:
    import html as html_lib

    return html_lib.unescape(re.sub(r"<[^>]+>", "", html))


def test_reference_has_no_literal_roles(reference_html: str) -> None:
    text = _text(reference_html)
    assert re.search(r":(func|class|meth|mod|data|exc|attr):", text) is None
    assert 'href="#protoattr.proto_contract"' in reference_html  # the roles became links


def test_reference_documents_module_functions_as_functions(reference_html: str) -> None:
    text = _text(reference_html)
    assert "= default_model." not in text
    for name in ("serialize", "deserialize", "merge", "measure", "add_subtype"):
        assert f'id="protoattr.{name}"' in reference_html, name
    signature = "serialize(obj: Any, *, type: Any = None, deterministic: bool = False) -> bytes"
    assert signature in re.sub(r"\(\s+", "(", re.sub(r",\s+", ", ", text)).replace(", )", ")")
    assert "Encode obj (or a list with type=list[T]) to bytes." in text


def test_reference_hides_private_parameters_and_repeats_no_overload(reference_html: str) -> None:
    text = _text(reference_html)
    assert "_compile" not in text
    lines = [ln.strip() for ln in text.splitlines() if ln.strip().startswith("deserialize(")]
    assert lines, "no deserialize signature"
    assert len(lines) == len(set(lines)) * 2  # pa.deserialize and TypeModel.deserialize, once each


def test_reference_documents_what_info_returns(reference_html: str) -> None:
    assert 'id="protoattr._core.contract.ContractInfo"' in reference_html
    assert 'id="protoattr._core.contract.FieldInfo"' in reference_html
    assert (
        'href="#protoattr._core.contract.ContractInfo"' in reference_html
    )  # info() -> ContractInfo


# --------------------------------------------------- workloads by their names

_SEED_NUMBER = re.compile(  # "the seed corpus" is the fuzzers', not an article
    r"(?i)\bseeds?[\s_]*0\d\d|\bseed(?:'s|s')|\bthe seeds?\b(?! corpus)|\"seeds\""
)
USER_FACING = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "examples").glob("*.py")),
    ROOT / "benchmarks" / "_report.py",  # the workload titles it prints and charts
    ROOT / "benchmarks" / "workloads.py",
]


@pytest.mark.parametrize("path", USER_FACING, ids=lambda p: str(p.relative_to(ROOT)))
def test_workloads_are_named_for_what_they_are(path: Path) -> None:
    """ "protobuf-net's Task list", "7,000 boiler records", not "seed 000"."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = _SEED_NUMBER.search(line)
        assert m is None, f"{path.name}:{n}: {m[0]!r} in {line.strip()!r}"
