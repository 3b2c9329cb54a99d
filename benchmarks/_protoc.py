"""Compile the twin ``.proto`` schemas with grpcio-tools' protoc; import the generated modules.

Google's ``*_pb2`` modules come from protoc's own Python generator; protobuf-py's
``*_pb`` modules from its plugin, ``protoc-gen-py`` (the ``protoc-gen-py``
package), which the same protoc runs.

The four articles' schemas are files in ``benchmarks/schemas/``; GoogleMessage1's
two are not: they are exported from the protoattr contracts
(``model.schema(..., syntax=, package=)``) into the output directory first, so
the upb and protobuf-py classes are generated from what protoattr declares.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

SCHEMAS = Path(__file__).resolve().parent / "schemas"
PROTOS = ("book.proto", "tasks.proto", "boilers.proto", "dns.proto")
# Exported from the contracts at compile time (see export_gm1).
EXPORTED = ("gm1_proto2.proto", "gm1_proto3.proto")
MODULES = tuple(p.removesuffix(".proto") for p in PROTOS + EXPORTED)
ENV_DIR = "PROTOATTR_BENCH_PB2_DIR"
ENV_DIR_PB = "PROTOATTR_BENCH_PROTOBUF_PY_DIR"


def export_gm1(out_dir: str | os.PathLike[str]) -> None:
    """Write GoogleMessage1's proto2 and proto3 schemas, exported from the contracts."""
    import protoattr as pa
    from benchmarks import google_message1 as gm1
    from benchmarks.peers import protoattr_  # noqa: F401  (declares the contracts)

    for name, cls in (("gm1_proto2", gm1.GM1Proto2), ("gm1_proto3", gm1.GM1Proto3)):
        syntax = name.rsplit("_", 1)[1]
        text = pa.default_model.schema(cls, syntax=syntax, package=gm1.GM1_PACKAGES[name])
        (Path(out_dir) / f"{name}.proto").write_text(text)


def _run_protoc(out_dir: str | os.PathLike[str], *generator: str) -> None:
    """protoc over the twin schemas and the exported ones, with ``generator``'s options."""
    from importlib.resources import files

    from grpc_tools import protoc

    export_gm1(out_dir)
    well_known = str(files("grpc_tools") / "_proto")
    includes = [f"-I{SCHEMAS}", f"-I{out_dir}", f"-I{well_known}"]
    args = ["protoc", *includes, *generator, *PROTOS, *EXPORTED]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc {' '.join(generator)} failed on {PROTOS + EXPORTED}")


def compile_protos(out_dir: str | os.PathLike[str]) -> None:
    """Run grpcio-tools' protoc on the schemas, writing ``*_pb2.py`` to ``out_dir``."""
    _run_protoc(out_dir, f"--python_out={out_dir}")


def load_pb2() -> tuple[ModuleType, ...]:
    """The generated modules, compiled into ``$PROTOATTR_BENCH_PB2_DIR`` or a new temp dir."""
    return _load(ENV_DIR, compile_protos, "_pb2")


def _load(env: str, compile_into: Callable[[str], None], suffix: str) -> tuple[ModuleType, ...]:
    """Import ``<module><suffix>`` of every schema from ``$env``'s directory; without
    one, compile into a new temporary directory first (and name it in ``$env``, so
    that the subprocesses started after this reuse it)."""
    out_dir = os.environ.get(env)
    if not out_dir:
        out_dir = tempfile.mkdtemp(prefix=f"protoattr-bench{suffix}-")
        compile_into(out_dir)
        os.environ[env] = out_dir
    sys.path.insert(0, out_dir)
    try:
        return tuple(importlib.import_module(f"{m}{suffix}") for m in MODULES)
    finally:
        sys.path.remove(out_dir)


def _plugin() -> str:
    """The ``protoc-gen-py`` executable installed beside this Python."""
    import shutil

    here = Path(sys.executable).parent / "protoc-gen-py"
    found = str(here) if here.exists() else shutil.which("protoc-gen-py")
    if not found:
        raise RuntimeError("protoc-gen-py is not installed (pip install protoc-gen-py)")
    return found


def compile_protobuf_py(out_dir: str | os.PathLike[str]) -> None:
    """Run protoc with protobuf-py's plugin on the schemas, writing ``*_pb.py``."""
    _run_protoc(out_dir, f"--plugin=protoc-gen-py={_plugin()}", f"--py_out={out_dir}")


def load_protobuf_py() -> tuple[ModuleType, ...]:
    """protobuf-py's modules, compiled into ``$PROTOATTR_BENCH_PROTOBUF_PY_DIR`` or a temp dir."""
    return _load(ENV_DIR_PB, compile_protobuf_py, "_pb")
