"""Executable documentation: every Python code block in the docs runs, every example script runs.

For README.md and each ``docs/*.md`` page, in a fresh temporary directory that
is the working directory while the page runs:

* blocks fenced as ```` ```python ```` run in order, in one namespace per page
  (a fresh module named ``example``, registered in ``sys.modules`` while the
  page runs, so string annotations and ahead-of-time modules can find the
  page's classes).  Tracebacks point at the Markdown file and line.
* a block with a title (```` ```proto title="dns.proto" ````) is also written
  to that file, so later commands can use it.
* in ```` ```console ```` blocks, each ``$ protoattr ...`` line is run (as
  ``python -m protoattr ...``, with ``> FILE`` redirection allowed) and its
  output must be the lines that follow it, up to the next ``$``; other ``$``
  lines (``pip install``, ...) are left alone.
* a block preceded by ``<!-- file: NAME -->`` must be the content of the file
  NAME that the commands above it wrote.
* a block preceded by ``<!-- source-of: Name -->`` is the generated codec of
  the page's class ``Name``: after the page has run it must equal
  ``pa.default_model.source(Name)``.  ``PROTOATTR_UPDATE_DOCS=1 pytest
  tests/test_docs.py`` rewrites such blocks when the code generator changes.

Blocks fenced any other way (``text``, ``proto``, ``csharp``, ``py`` for other
libraries' Python) are shown, not run, so they must not use protoattr: a test
below checks that.  Every ``examples/*.py`` runs as a subprocess and must exit 0.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import textwrap
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

import protoattr as pa

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
EXAMPLE_TIMEOUT = 60  # seconds; each example is meant to take a few

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^`\n]*)$")
_TITLE = re.compile(r"""title=["'](?P<title>[^"']+)["']""")
_MARKER = re.compile(r"<!--\s*(?P<kind>source-of|file):\s*(?P<name>[\w.-]+)\s*-->")


@dataclass
class Block:
    lang: str  # the first word of the info string ("python", "text", ...)
    code: str  # dedented
    line: int  # 1-based line of the first code line
    end: int  # 1-based line of the closing fence
    indent: str
    title: str | None  # title="..." in the info string: also written to that file
    source_of: str | None  # the class named by a preceding <!-- source-of: X -->
    file: str | None  # a preceding <!-- file: NAME -->: the file the commands above wrote


def blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a Markdown file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        indent, fence, info = m["indent"], m["fence"], m["info"].strip()
        lang = (info.split() or [""])[0].lstrip(".{").rstrip("}")
        title = _TITLE.search(info)
        marker = None
        for back in range(i - 1, -1, -1):
            if lines[back].strip():
                marker = _MARKER.search(lines[back])
                break
        j = i + 1
        close = re.compile(rf"^{re.escape(indent)}{fence[0]}{{{len(fence)},}}\s*$")
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        if j == len(lines):
            raise AssertionError(f"{path.name}:{i + 1}: code fence never closed")
        body = [ln[len(indent) :] if ln.startswith(indent) else ln for ln in lines[i + 1 : j]]
        found.append(
            Block(
                lang,
                textwrap.dedent("\n".join(body)),
                i + 2,
                j + 1,
                indent,
                title["title"] if title else None,
                marker["name"] if marker and marker["kind"] == "source-of" else None,
                marker["name"] if marker and marker["kind"] == "file" else None,
            )
        )
        i = j + 1
    return found


def run_console(path: Path, block: Block, cwd: Path) -> None:
    """Run the ``$ protoattr ...`` commands of a console block; compare their output."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["PYTHONWARNINGS"] = "error"
    lines = block.code.splitlines()
    starts = [n for n, ln in enumerate(lines) if ln.startswith("$ ")]
    for k, n in enumerate(starts):
        command = shlex.split(lines[n][2:], comments=True)
        expected = lines[n + 1 : starts[k + 1] if k + 1 < len(starts) else len(lines)]
        if not command or command[0] != "protoattr":
            continue  # `$ pip install ...` and the like are instructions, not checks
        target = None
        if len(command) > 2 and command[-2] == ">":
            target, command = command[-1], command[:-2]
        result = subprocess.run(
            [sys.executable, "-m", "protoattr", *command[1:]],
            cwd=cwd,
            env=env,
            capture_output=True,
            timeout=EXAMPLE_TIMEOUT,
            check=False,
        )
        if target is not None:
            (cwd / target).write_bytes(result.stdout)
            output = result.stderr.decode()
        else:
            output = result.stdout.decode() + result.stderr.decode()
        got = [ln.rstrip() for ln in output.rstrip("\n").splitlines()]
        want = [ln.rstrip() for ln in "\n".join(expected).rstrip("\n").splitlines()]
        assert got == want, (
            f"{path.name}:{block.line + n}: `{lines[n]}` printed (exit {result.returncode}):\n"
            + "\n".join(got)
        )


def run_page(path: Path, cwd: Path) -> dict[str, object]:
    """Run the page's blocks in order in one fresh module; return its namespace."""
    module = types.ModuleType("example")
    module.__file__ = str(path)
    saved = sys.modules.get("example")
    sys.modules["example"] = module
    try:
        for block in blocks(path):
            if block.title is not None:
                (cwd / block.title).parent.mkdir(parents=True, exist_ok=True)
                (cwd / block.title).write_text(block.code + "\n", encoding="utf-8")
            if block.lang == "console":
                run_console(path, block, cwd)
            if block.file is not None:
                written = (cwd / block.file).read_text(encoding="utf-8").rstrip("\n")
                assert block.code.rstrip("\n") == written, (
                    f"{path.name}:{block.line}: {block.file} is now:\n{written}"
                )
            if block.lang != "python":
                continue
            # pad so that line numbers in tracebacks are the Markdown file's
            code = compile(
                "\n" * (block.line - 1) + block.code, str(path), "exec", dont_inherit=True
            )
            exec(code, module.__dict__)
    finally:
        if saved is None:
            sys.modules.pop("example", None)
        else:
            sys.modules["example"] = saved
    return module.__dict__


def _page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_code_blocks_run(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace = run_page(path, tmp_path)
    stale = []
    for block in blocks(path):
        if block.source_of is None:
            continue
        cls = namespace.get(block.source_of)
        assert isinstance(cls, type), f"{path.name}:{block.line}: no class {block.source_of}"
        actual = pa.default_model.source(cls).rstrip("\n")
        if block.code.rstrip("\n") != actual:
            stale.append((block, actual))
    if stale and os.environ.get("PROTOATTR_UPDATE_DOCS") == "1":
        _rewrite(path, stale)
        stale = []
    assert not stale, (
        f"{path.name}:{stale[0][0].line}: the generated source of {stale[0][0].source_of} "
        "changed; rerun with PROTOATTR_UPDATE_DOCS=1 to update the page"
    )


def _rewrite(path: Path, stale: list[tuple[Block, str]]) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    for block, actual in sorted(stale, key=lambda s: -s[0].line):
        new = [block.indent + ln if ln else "" for ln in actual.splitlines()]
        lines[block.line - 1 : block.end - 1] = new
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_blocks_that_do_not_run_do_not_use_protoattr(path: Path) -> None:
    """Only executed blocks may show protoattr code, so no doc example can rot unseen.

    (Titled blocks are written to files that commands run, console blocks are
    run, and generated source is compared with what protoattr generates, so
    those may.)
    """
    for block in blocks(path):
        if block.lang in ("python", "console") or block.source_of or block.file or block.title:
            continue
        uses = re.search(r"^\s*(import protoattr|from protoattr)", block.code, re.M)
        assert uses is None, (
            f"{path.name}:{block.line}: a ```{block.lang} block uses protoattr; "
            "fence it as ```python so that it runs"
        )


def test_the_harness_finds_the_blocks() -> None:
    """A broken fence pattern would silently skip every block: count them."""
    counts = {p.name: sum(b.lang == "python" for b in blocks(p)) for p in PAGES}
    assert counts["README.md"] >= 2
    assert sum(counts.values()) >= 30, counts


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(script: Path, tmp_path: Path) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["PYTHONWARNINGS"] = "error"
    result = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=EXAMPLE_TIMEOUT,
        check=False,
    )
    assert result.returncode == 0, f"{script.name} failed:\n{result.stdout}\n{result.stderr}"
    assert result.stdout.strip(), f"{script.name} printed nothing"


# ----------------------------------------------------------------------------
# Core behaviour the docs found broken.  The docs show only what works (they
# declare every subtype before first use and never ask for a sibling subtype);
# these tests fail until the core is fixed, and then the docs can say more.


def test_a_subtype_declared_after_its_base_was_used_is_decoded() -> None:
    """@proto_contract(subtype_tag=...) must reach a base whose codec already exists.

    ``model.add_subtype`` resets the hierarchy's codecs; declaring a subtype with
    ``subtype_tag`` after the base was first used does not, so the base's codec
    never learns the new subtype and decodes it as the base with an unknown field.
    """
    from dataclasses import dataclass

    from protoattr import field, proto_contract

    @proto_contract
    @dataclass
    class LateBase:
        name: str = field(1, default="")

    assert pa.deserialize(LateBase, pa.serialize(LateBase("x"))) == LateBase("x")  # compiled

    @proto_contract(subtype_tag=10)
    @dataclass
    class LateSub(LateBase):
        size: pa.int32 = field(1, default=0)

    data = pa.serialize(LateSub("s", 3))
    assert data == b"\x52\x02\x08\x03\x0a\x01s"
    assert pa.deserialize(LateBase, data) == LateSub("s", 3)


def test_deserialize_never_returns_an_object_of_another_class() -> None:
    """Circle bytes requested as Square must not come back as a Circle.

    ``pa.deserialize(Square, data)`` promises a ``Square`` (the project's own test
    ``test_requested_subclass_is_built_when_the_bytes_name_a_less_derived_level``
    argues the same for a less derived level): a sibling subtype in the bytes
    should give a ``Square`` (its level at defaults) or a ``DecodeError``.
    """
    from dataclasses import dataclass

    from protoattr import field, proto_contract

    @proto_contract
    @dataclass
    class Figure:
        name: str = field(1, default="")

    @proto_contract(subtype_tag=10)
    @dataclass
    class Round(Figure):
        radius: float = field(1, default=0.0)

    @proto_contract(subtype_tag=11)
    @dataclass
    class Box(Figure):
        side: float = field(1, default=0.0)

    data = pa.serialize(Round("c", 1.0))
    try:
        got = pa.deserialize(Box, data)
    except pa.DecodeError:
        return
    assert isinstance(got, Box), f"asked for a Box, got {got!r}"
