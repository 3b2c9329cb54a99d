"""Generate Google's messages *and* gRPC stubs from ``.proto`` text, as a user of protoc would.

``compile_grpc(source, "warehouse")`` runs ``grpc_tools.protoc`` with
``--python_out`` and ``--grpc_python_out`` and imports ``warehouse_pb2`` and
``warehouse_pb2_grpc``.  Unlike :func:`tests.protoc.compile_proto` the package
is kept as written (the gRPC method paths depend on it), so a source may be
compiled once per process: the same text returns the same modules.
"""

from __future__ import annotations

import hashlib
import importlib
import sys
import tempfile
import threading
import types
from pathlib import Path

from tests.protoc import ProtocError, _run_protoc, _well_known_include

__all__ = ["compile_grpc"]

_lock = threading.Lock()
_cache: dict[tuple[str, str], tuple[types.ModuleType, types.ModuleType]] = {}
_dirs: list[tempfile.TemporaryDirectory[str]] = []


def compile_grpc(source: str, stem: str) -> tuple[types.ModuleType, types.ModuleType]:
    """``(<stem>_pb2, <stem>_pb2_grpc)`` generated from ``source``."""
    key = (stem, source)
    with _lock:
        if key not in _cache:
            _cache[key] = _compile(source, stem)
        return _cache[key]


def _compile(source: str, stem: str) -> tuple[types.ModuleType, types.ModuleType]:
    digest = hashlib.sha256(source.encode()).hexdigest()[:12]
    work = tempfile.TemporaryDirectory(prefix=f"protoattr-grpc-{digest}-")
    _dirs.append(work)  # kept until the process ends: the modules' files live there
    root = Path(work.name)
    (root / f"{stem}.proto").write_text(source, encoding="utf-8")
    code, messages = _run_protoc(
        [
            "grpc_tools.protoc",
            f"--proto_path={root}",
            f"--proto_path={_well_known_include()}",
            f"--python_out={root}",
            f"--grpc_python_out={root}",
            f"{stem}.proto",
        ]
    )
    if code != 0 or messages:
        raise ProtocError(f"protoc failed on {stem}.proto:\n{messages}\n{source}")
    sys.path.insert(0, str(root))
    try:
        pb2 = importlib.import_module(f"{stem}_pb2")
        pb2_grpc = importlib.import_module(f"{stem}_pb2_grpc")
    finally:
        sys.path.remove(str(root))
    return pb2, pb2_grpc
