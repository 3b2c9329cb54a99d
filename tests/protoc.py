"""Compile ``.proto`` text with protoc and import the generated ``*_pb2`` module.

Tests use this to check protoattr against Google's runtime on the same schema::

    from tests.protoc import compile_proto

    pb = compile_proto('syntax = "proto3"; message Point { sint32 x = 1; }', "point")
    assert pb.Point(x=-1).SerializeToString() == b"\\x08\\x01"

(or take the ``protoc`` fixture from ``tests/conftest.py``, which is this function).

protoc is ``grpc_tools.protoc``, run in-process, with grpc_tools' bundled
well-known types on the include path, so ``import "google/protobuf/timestamp.proto";``
works; proto2, proto3 and ``edition = "2023"`` are all accepted.

Every schema lands in Google's *default* descriptor pool, which refuses a second
file of the same name or a second definition of the same full name.  So that tests
can compile as many schemas as they like (two versions of ``message Task``, the
proto2 and proto3 exports of one contract, ...), each distinct ``(name, source)``
gets its own directory, file name and module name, all derived from a hash of the
pair, and - unless ``unique_package=False`` - its own package: a missing
``package`` statement is added and a present one is prefixed with
``protoc_<hash>.``.  That changes descriptors' full names, never the wire format.
The same ``(name, source)`` compiles once per process and returns the same module.

:func:`protoc_file` is protoc's own ``FileDescriptorProto`` for a schema text, and
:func:`assert_same_descriptor` compares one protoattr exported with it: the checks
that an exported schema means to protoc what protoattr means by it.

protoc's warnings (an unused import, a missing ``syntax``) become
:class:`ProtocWarning`, which the suite's ``filterwarnings = error`` turns into a
failure: a schema protoattr exports should compile cleanly.  Errors raise
:class:`ProtocError` with protoc's message and the numbered source.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import threading
import types
import warnings
from pathlib import Path
from typing import Any

__all__ = [
    "ProtocError",
    "ProtocWarning",
    "assert_same_descriptor",
    "compile_proto",
    "proto_package",
    "protoc_file",
]


class ProtocError(RuntimeError):
    """protoc rejected a schema, or its generated module failed to import."""


class ProtocWarning(UserWarning):
    """protoc accepted a schema but printed a warning about it."""


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# `syntax = "proto3";` / `edition = "2023";` - must be the first statement.
_SYNTAX = re.compile(r"^[ \t]*(?:syntax|edition)\s*=\s*(?:\"[^\"]*\"|'[^']*')\s*;", re.MULTILINE)
_PACKAGE = re.compile(r"^([ \t]*package\s+)([A-Za-z_][\w.]*)(\s*;)", re.MULTILINE)

_lock = threading.RLock()
_cache: dict[tuple[str, str, bool], types.ModuleType] = {}
_workdir: Path | None = None


def compile_proto(source: str, name: str, *, unique_package: bool = True) -> types.ModuleType:
    """Compile ``source`` as ``<name>.proto`` and return the imported ``<name>_pb2`` module.

    ``name`` is the file's stem (``"task"`` or ``"task.proto"``).  Cached per
    ``(name, source, unique_package)``; thread-safe.  With ``unique_package=False``
    the source is compiled verbatim, so descriptors keep their declared full
    names, and a second schema defining the same names fails to import.
    """
    stem = name.removesuffix(".proto")
    if not _NAME.fullmatch(stem):
        raise ValueError(f"proto name must be an identifier (optionally + '.proto'), not {name!r}")
    key = (stem, source, unique_package)
    with _lock:
        module = _cache.get(key)
        if module is None:
            module = _cache[key] = _compile(stem, source, unique_package)
        return module


def proto_package(module: types.ModuleType) -> str:
    """The package a module from :func:`compile_proto` was compiled under."""
    package: str = module.DESCRIPTOR.package
    return package


def _compile(stem: str, source: str, unique_package: bool) -> types.ModuleType:
    digest = hashlib.sha256(f"{stem}\0{unique_package}\0{source}".encode()).hexdigest()[:16]
    unique = f"protoc_{digest}"
    text = _isolate(source, unique) if unique_package else source

    root = _root()
    src_root, out_root = root / "src", root / "out"
    relative = f"{unique}/{stem}.proto"  # the file's name in the descriptor pool
    (src_root / unique).mkdir(parents=True, exist_ok=True)
    (src_root / relative).write_text(text, encoding="utf-8")
    out_root.mkdir(exist_ok=True)

    returncode, messages = _run_protoc(
        [
            "grpc_tools.protoc",
            f"--proto_path={src_root}",
            f"--proto_path={_well_known_include()}",
            f"--python_out={out_root}",
            relative,
        ]
    )
    if returncode != 0:
        raise ProtocError(
            f"protoc failed (exit {returncode}) on {stem}.proto:\n"
            f"{messages or '(no message)'}\n{_numbered(text)}"
        )
    if messages:
        warnings.warn(
            f"protoc warned about {stem}.proto:\n{messages}\n{_numbered(text)}",
            ProtocWarning,
            stacklevel=3,
        )

    module_name = f"{stem}_pb2__{digest}"
    spec = importlib.util.spec_from_file_location(module_name, out_root / unique / f"{stem}_pb2.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[module_name]
        hint = "" if unique_package else " (compiled with unique_package=False)"
        raise ProtocError(
            f"importing the code generated for {stem}.proto failed{hint}: {exc}"
        ) from exc
    return module


def _isolate(source: str, unique: str) -> str:
    """Give ``source`` a package of its own, keeping every line where it was."""
    match = _PACKAGE.search(source)
    if match is None:
        syntax = _SYNTAX.search(source)
        at = syntax.end() if syntax else 0
        return f"{source[:at]} package {unique};{source[at:]}"
    declared = match.group(2)
    head, tail = source[: match.start()], source[match.end() :]
    # Fully-qualified references to the declared package follow it.
    tail = re.sub(rf"(?<![\w.])\.{re.escape(declared)}\.", f".{unique}.{declared}.", tail)
    return f"{head}{match.group(1)}{unique}.{declared}{match.group(3)}{tail}"


def _run_protoc(args: list[str]) -> tuple[int, str]:
    """Run protoc in-process; return its exit code and what it printed.

    protoc writes to file descriptor 2 from C++, so the descriptor itself is
    pointed at a temporary file for the duration of the call.
    """
    from grpc_tools import protoc

    with tempfile.TemporaryFile() as captured:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(captured.fileno(), 2)
            returncode = protoc.main(args)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        captured.seek(0)
        lines = captured.read().decode("utf-8", "replace").splitlines()
    # absl's one-time notice that logging is not initialised is not about the schema.
    lines = [line for line in lines if "before absl::InitializeLog()" not in line]
    return int(returncode), "\n".join(lines).strip()


def _well_known_include() -> Path:
    import grpc_tools

    return Path(grpc_tools.__file__).parent / "_proto"


def _root() -> Path:
    global _workdir
    if _workdir is None:
        _workdir = Path(tempfile.mkdtemp(prefix="protoattr-protoc-"))
        atexit.register(shutil.rmtree, _workdir, ignore_errors=True)
    return _workdir


def _numbered(text: str) -> str:
    return "\n".join(f"{n:4} | {line}" for n, line in enumerate(text.splitlines(), 1))


def protoc_file(text: str, directory: Path, name: str) -> Any:
    """protoc's ``FileDescriptorProto`` for ``text`` saved as ``directory/name``, no source info."""
    from google.protobuf import descriptor_pb2

    from protoattr._schema.gen import descriptor_set

    (directory / name).write_text(text, encoding="utf-8")
    files = descriptor_pb2.FileDescriptorSet.FromString(
        descriptor_set([directory / name], [str(directory)])
    )
    (fd,) = [f for f in files.file if f.name == name]
    fd.ClearField("source_code_info")
    return fd


def assert_same_descriptor(ours: Any, theirs: Any, syntax: str) -> None:
    """``ours`` (protoattr's export) equals ``theirs`` (protoc's), field for field.

    protoc leaves ``syntax`` out of a proto2 file's descriptor and protoattr writes
    it, so for proto2 both are cleared first.  The dictionaries are compared before
    the messages so that a failure shows where they differ.
    """
    from google.protobuf import json_format

    if syntax == "proto2":
        theirs.ClearField("syntax")
        ours.ClearField("syntax")
    assert json_format.MessageToDict(ours) == json_format.MessageToDict(theirs)
    assert ours == theirs
