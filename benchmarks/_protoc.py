"""Compile the twin ``.proto`` schemas with grpcio-tools' protoc; import the generated modules.

Google's ``*_pb2`` modules come from protoc's own Python generator; protobuf-py's
``*_pb`` modules from its plugin, ``protoc-gen-py`` (the ``protoc-gen-py``
package), which the same protoc runs.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
from pathlib import Path
from types import ModuleType

SCHEMAS = Path(__file__).resolve().parent / "schemas"
PROTOS = ("book.proto", "tasks.proto", "boilers.proto", "dns.proto")
ENV_DIR = "PROTOATTR_BENCH_PB2_DIR"
ENV_DIR_PB = "PROTOATTR_BENCH_PROTOBUF_PY_DIR"


def compile_protos(out_dir: str | os.PathLike[str]) -> None:
    """Run grpcio-tools' protoc on the twin schemas, writing ``*_pb2.py`` to ``out_dir``."""
    from importlib.resources import files

    from grpc_tools import protoc

    well_known = str(files("grpc_tools") / "_proto")
    args = ["protoc", f"-I{SCHEMAS}", f"-I{well_known}", f"--python_out={out_dir}", *PROTOS]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed on {PROTOS} in {SCHEMAS}")


def load_pb2() -> tuple[ModuleType, ...]:
    """The generated modules, compiled into ``$PROTOATTR_BENCH_PB2_DIR`` or a new temp dir."""
    out_dir = os.environ.get(ENV_DIR)
    if not out_dir:
        out_dir = tempfile.mkdtemp(prefix="protoattr-bench-pb2-")
        compile_protos(out_dir)
        os.environ[ENV_DIR] = out_dir
    sys.path.insert(0, out_dir)
    try:
        return tuple(importlib.import_module(p.replace(".proto", "_pb2")) for p in PROTOS)
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
    """Run protoc with protobuf-py's plugin on the twin schemas, writing ``*_pb.py``."""
    from importlib.resources import files

    from grpc_tools import protoc

    well_known = str(files("grpc_tools") / "_proto")
    args = [
        "protoc",
        f"-I{SCHEMAS}",
        f"-I{well_known}",
        f"--plugin=protoc-gen-py={_plugin()}",
        f"--py_out={out_dir}",
        *PROTOS,
    ]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc-gen-py failed on {PROTOS} in {SCHEMAS}")


def load_protobuf_py() -> tuple[ModuleType, ...]:
    """protobuf-py's modules, compiled into ``$PROTOATTR_BENCH_PROTOBUF_PY_DIR`` or a temp dir."""
    out_dir = os.environ.get(ENV_DIR_PB)
    if not out_dir:
        out_dir = tempfile.mkdtemp(prefix="protoattr-bench-protobuf-py-")
        compile_protobuf_py(out_dir)
        os.environ[ENV_DIR_PB] = out_dir
    sys.path.insert(0, out_dir)
    try:
        return tuple(importlib.import_module(p.replace(".proto", "_pb")) for p in PROTOS)
    finally:
        sys.path.remove(out_dir)
