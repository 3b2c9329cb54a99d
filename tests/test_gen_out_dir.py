"""``protoattr gen ... --out-dir DIR``: one module per ``.proto`` file, laid out as protoc's
``--python_out`` (issue 18, problem 2): modules import each other, and runs into one tree
share the modules of their common files."""

from __future__ import annotations

import importlib
import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import protoattr as pa

COMMON = """\
syntax = "proto3";
package outdir.common.v1;
import "google/protobuf/timestamp.proto";
message KeyValue {
  enum Kind { KIND_UNSPECIFIED = 0; KIND_X = 1; }
  string key = 1;
  string value = 2;
  Kind kind = 3;
  google.protobuf.Timestamp at = 4;
}
"""
A = """\
syntax = "proto3";
package outdir.a.v1;
import "outdir/common/v1/common.proto";
import "google/protobuf/empty.proto";
message A {
  repeated outdir.common.v1.KeyValue attrs = 1;
  outdir.common.v1.KeyValue.Kind kind = 2;
}
service AService { rpc Drop(A) returns (google.protobuf.Empty); }
"""
B = """\
syntax = "proto3";
package outdir.b.v1;
import "outdir/common/v1/common.proto";
message B { outdir.common.v1.KeyValue kv = 1; }
"""
_roots = itertools.count()


def _run(*args: str, cwd: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "protoattr", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Two separate runs (a.proto, then b.proto) into one tree, imported as a package."""
    work = tmp_path_factory.mktemp("outdir")
    for name, text in {
        "common/v1/common.proto": COMMON,
        "a/v1/a.proto": A,
        "b/v1/b.proto": B,
    }.items():
        path = work / "protos" / "outdir" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    package = f"outdir_tree{next(_roots)}"
    for proto in ("outdir/a/v1/a.proto", "outdir/b/v1/b.proto"):
        _run("gen", "-I", "protos", f"protos/{proto}", "--out-dir", package, cwd=work)
    sys.path.insert(0, str(work))
    return work, package


def test_one_module_per_file_laid_out_as_protoc_does(tree: tuple[Path, str]) -> None:
    work, package = tree
    written = sorted(
        p.relative_to(work / package).as_posix() for p in (work / package).rglob("*.py")
    )
    assert written == [
        "outdir/a/v1/a_pa.py",
        "outdir/b/v1/b_pa.py",
        "outdir/common/v1/common_pa.py",
    ]
    a = (work / package / "outdir/a/v1/a_pa.py").read_text()
    assert "from ....outdir.common.v1 import common_pa as outdir_common_v1_common_pa\n" in a
    assert "class KeyValue" not in a  # imported, not copied


def test_separate_runs_share_their_common_types(tree: tuple[Path, str]) -> None:
    _, package = tree
    a: Any = importlib.import_module(f"{package}.outdir.a.v1.a_pa")
    b: Any = importlib.import_module(f"{package}.outdir.b.v1.b_pa")
    common: Any = importlib.import_module(f"{package}.outdir.common.v1.common_pa")
    kv = common.KeyValue(key="k", kind=common.KeyValue.Kind.KIND_X)
    assert pa.deserialize(b.B, pa.serialize(b.B(kv=kv))).kv == kv
    assert pa.deserialize(a.A, pa.serialize(a.A(attrs=[kv]))).attrs == [kv]
    assert pa.default_model.find("outdir.common.v1.KeyValue") is common.KeyValue
    assert pa.default_model.full_name(a.A) == "outdir.a.v1.A"
    assert a.A().kind is common.KeyValue.Kind.KIND_UNSPECIFIED


def test_the_single_module_form_stays(
    tmp_path: Path, tree: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    from protoattr._cli import main

    work, _ = tree
    out = _run("gen", "-I", "protos", "protos/outdir/b/v1/b.proto", cwd=work)
    assert "class KeyValue:" in out and "class B:" in out  # everything in one module
    proto = work / "protos/outdir/b/v1/b.proto"
    assert main(["gen", str(proto), "-o", str(tmp_path / "x.py"), "--out-dir", "d"]) == 1
    assert "not both" in capsys.readouterr().err
