"""Ahead-of-time codecs: ``model.write_module`` and importing what it wrote.

Each check runs in a fresh interpreter, as a service starting up would: the
contracts module is imported, then the written codec module, with the code
generator replaced by one that fails, so any generation would show.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

MODELS = """
from dataclasses import dataclass
from datetime import datetime, timezone
from decimal import Decimal
from enum import IntEnum
from typing import Optional

import protoattr as pa
from protoattr import field, proto_contract


class Color(IntEnum):
    RED = 0
    BLUE = 1


@proto_contract
@dataclass
class Shape:
    name: str = field(1, default="")


@proto_contract(subtype_tag=10)
@dataclass
class Circle(Shape):
    radius: float = field(1, default=0.0)


@proto_contract
@dataclass
class Node:
    label: str = field(1, default="{LABEL}")
    color: Color = field(2, default=Color.BLUE)
    price: Decimal = field(3, default=Decimal("0"))
    at: Optional[datetime] = field(4, default=None)
    children: list["Node"] = field(5, default_factory=list)
    shapes: dict[str, Shape] = field(6, default_factory=dict)
"""

USE = """
import protoattr._python.codegen as codegen
from datetime import datetime, timezone
from decimal import Decimal

def no_generation(*args, **kwargs):
    raise AssertionError("code was generated at start-up")

codegen.codec_source = no_generation
import protoattr as pa
import models
import models_codecs

node = models.Node("root", models.Color.RED, Decimal("1.50"),
                   datetime(2020, 1, 2, tzinfo=timezone.utc),
                   [models.Node("leaf")], {"c": models.Circle("c", 2.0), "s": models.Shape("s")})
data = pa.serialize(node)
assert pa.deserialize(models.Node, data) == node
print(pa.default_model.source(models.Node), end="")
"""


ROOT = Path(__file__).resolve().parents[1]


def run(folder: Path, code: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder), str(ROOT)]))
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=folder, env=env,
        timeout=60,
    )  # fmt: skip


def write(folder: Path, label: str = "x") -> None:
    (folder / "models.py").write_text(MODELS.replace("{LABEL}", label))
    done = run(
        folder,
        "import protoattr as pa, models\n"
        "pa.default_model.add(models.Node)\n"
        "pa.default_model.write_module('models_codecs.py')\n",
    )
    assert done.returncode == 0, done.stderr


def test_import_installs_codecs_without_generating_any(tmp_path: Path) -> None:
    write(tmp_path)
    done = run(tmp_path, USE)
    assert done.returncode == 0, done.stderr
    generated = run(
        tmp_path,
        "import protoattr as pa, models\nprint(pa.default_model.source(models.Node), end='')",
    )
    assert done.stdout == generated.stdout  # model.source shows the same code either way
    assert done.stdout.startswith("# protoattr codec for models.Node\n")


def test_a_changed_contract_is_refused(tmp_path: Path) -> None:
    write(tmp_path, label="x")
    (tmp_path / "models.py").write_text(MODELS.replace("{LABEL}", "changed"))
    done = run(tmp_path, "import models, models_codecs")
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert "ContractError" in last and "models.Node changed" in last, last


def test_install_into_another_model(tmp_path: Path) -> None:
    write(tmp_path)
    code = textwrap.dedent(
        """
        import protoattr as pa, models, models_codecs
        model = pa.TypeModel()
        models_codecs.install(model)
        node = models.Node("n", children=[models.Node("m")])
        assert model.deserialize(models.Node, model.serialize(node)) == node
        assert model.serialize(node) == pa.serialize(node)
        """
    )
    done = run(tmp_path, code)
    assert done.returncode == 0, done.stderr


def test_the_bytecode_is_written_with_the_module(tmp_path: Path) -> None:
    """Under ``PYTHONDONTWRITEBYTECODE=1`` nothing would ever cache the written module,
    so every start-up compiled its megabytes of source: the ``.pyc`` comes with it."""
    import importlib.util

    write(tmp_path)
    pyc = Path(importlib.util.cache_from_source(str(tmp_path / "models_codecs.py")))
    assert pyc.is_file()
    flags = int.from_bytes(pyc.read_bytes()[4:8], "little")
    assert flags == 0b11  # hash-based and checked: valid after a copy, stale after an edit
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])
    done = subprocess.run(
        [sys.executable, "-v", "-c", "import models, models_codecs"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"# code object from '{pyc}'" in done.stderr  # unmarshalled, not compiled
