"""``.proto`` files to contract source code: ``python -m protoattr gen``.

The real ``protoc`` (from the ``grpcio-tools`` package) parses the schema into
a ``FileDescriptorSet``; protoattr decodes that with its own contracts for
``descriptor.proto`` (:mod:`protoattr._schema.descriptor`) and writes Python source:
one ``@proto_contract`` dataclass per message and one ``IntEnum`` per enum.

How protobuf declarations become Python:

- scalars: ``double`` -> ``float``, ``int64`` -> ``int``, ``float`` -> ``pa.float32``,
  the other integer kinds -> ``pa.int32``, ``pa.sint64``, ...; ``string`` -> ``str``;
- ``google.protobuf.Timestamp`` / ``Duration`` -> ``pa.Timestamp`` / ``pa.Duration``, exact to
  the nanosecond over the whole range (``time="datetime"``, ``--time datetime``: ``datetime``
  / ``timedelta``, which cut nanoseconds: generated code often relays other programs'
  messages, and must not change them by default); the other
  well-known types -> protoattr's own: ``pa.Any``, ``pa.Struct``, ``pa.JsonValue``,
  ``pa.ListValue``, ``pa.NullValue``, ``pa.FieldMask``, ``pa.Empty`` and
  ``pa.wrappers.Int32Value`` & co. (already ``None`` when absent), so they are not
  generated again (unless their own file is the one generated);
- class names never take a ``typing`` name (``Any``, ``Optional``...): ``Any_`` instead;
- implicit presence (proto3 plain fields) -> ``x: T = field(n, default=<zero>)``;
- explicit presence (proto2 ``optional``, proto3 ``optional``, messages, edition
  default) -> ``x: T | None = field(n, default=None)``, so presence survives a
  round trip; a declared ``[default = d]`` that is not the zero value (for an
  enum: not its first value) adds ``wire_default=d``: absent is ``None`` here and
  ``d`` to peers, and a value set to ``d`` is still written (byte-exact relay);
- ``required`` -> ``required=True`` with no default (the class is ``kw_only``);
- ``repeated`` -> ``list[T]`` (``packed=False`` where the schema says expanded),
  ``map<K, V>`` -> ``dict[K, V]``, ``oneof`` -> ``oneof="name"`` on ``T | None`` fields;
- groups and ``DELIMITED`` fields -> ``group=True``; closed enums -> ``@pa.closed_enum``;
- nested messages and enums are nested classes (``Outer.Inner``), declared first in
  their parent's body, so their full names are protobuf's (``pkg.Outer.Inner``); an
  enum default the class body cannot see yet is read through
  ``default_factory=lambda: ...``;
- comments in the ``.proto`` become docstrings and comments.

Types from imported files are generated too when the requested files use them.
Services become ``@pa.service`` Protocols; ``extend`` blocks become ``pa.extension``
handles and ``extensions N to M;`` the ``extensions=`` ranges (:mod:`.gen_extensions`);
options other than those above are left out (custom options are extensions: read them
with their handles).

The work is split: :mod:`.gen_descriptors` indexes protoc's descriptors,
:mod:`.gen_layout` lays out one module per file (``--out-dir``), :mod:`.gen_render`
writes one module's source (its services in :mod:`.gen_services`), with the Python
declarations of protobuf types in :mod:`.gen_types` and the source text helpers in
:mod:`.gen_text`.  This module runs protoc and is the entry point;
:func:`generate_source` and :func:`generate_modules` are the descriptors-in,
source-out path without protoc.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from .._model import codecs as _codecs
from . import descriptor as d
from .bcl import INCLUDE as BCL_INCLUDE
from .gen_descriptors import GenError
from .gen_render import generate_modules, generate_source

__all__ = [
    "GenError",
    "descriptor_set",
    "generate",
    "generate_files",
    "generate_modules",
    "generate_source",
    "well_known_include",
]


# -- running protoc ----------------------------------------------------------------


def well_known_include() -> Path | None:
    """The directory of the ``google/protobuf/*.proto`` files grpcio-tools ships."""
    try:
        import grpc_tools  # type: ignore[import-untyped]
    except ImportError:
        return None
    return Path(grpc_tools.__file__).parent / "_proto"


def descriptor_set(files: Sequence[str | os.PathLike[str]], include: Sequence[str] = ()) -> bytes:
    """Run protoc on ``files`` and return the serialized ``FileDescriptorSet``.

    Imports are included, and so is source info (comments).  Without ``include``
    paths, each file's own directory is the include path.
    """
    try:
        from grpc_tools import protoc
    except ImportError:
        raise GenError(
            "protoattr gen needs protoc from the grpcio-tools package: pip install grpcio-tools"
        ) from None
    paths = [str(p) for p in include] or sorted({str(Path(f).parent) for f in files})
    wkt = well_known_include()
    resolved = {os.path.realpath(p) for p in paths}
    if wkt is not None and os.path.realpath(wkt) not in resolved:
        paths.append(str(wkt))
    if os.path.realpath(BCL_INCLUDE) not in resolved:  # protobuf-net/bcl.proto
        paths.append(str(BCL_INCLUDE))
    with tempfile.TemporaryDirectory(prefix="protoattr-gen-") as tmp:
        out = Path(tmp) / "set.pb"
        args = [
            "grpc_tools.protoc",
            *(f"--proto_path={p}" for p in paths),
            f"--descriptor_set_out={out}",
            "--include_imports",
            "--include_source_info",
            *(str(f) for f in files),
        ]
        sys.stderr.flush()
        code = protoc.main(args)
        if code != 0 or not out.exists():
            names = ", ".join(str(f) for f in files)
            raise GenError(f"protoc failed on {names} (exit status {code}; its message is above)")
        return out.read_bytes()


def generate(
    files: Sequence[str | os.PathLike[str]],
    include: Sequence[str] = (),
    *,
    command: str = "",
    time: str = "exact",
) -> str:
    """Python source of one module declaring contracts for the messages and enums of
    ``files`` (and copies of what they use from the files they import).

    ``time="exact"`` (the default) declares Timestamp and Duration fields as
    ``pa.Timestamp``/``pa.Duration``, which keep every value; ``"datetime"`` as
    ``datetime``/``timedelta``, which cut nanoseconds and refuse years outside 1..9999.
    """
    fds, targets = _read(files, include)
    return generate_source(fds, targets, command=command, time=time)


def generate_files(
    files: Sequence[str | os.PathLike[str]], include: Sequence[str] = (), *, time: str = "exact"
) -> dict[str, str]:
    """One module per ``.proto`` file, for ``files`` and the files they import (but the
    well-known ones protoattr declares): ``{"shop/v1/order_pa.py": source, ...}``.

    Each module depends on its own file only (no command line in it), so runs that
    generate a shared file into one tree write the same module.
    """
    fds, targets = _read(files, include)
    return generate_modules(fds, targets, time=time)


def _read(
    files: Sequence[str | os.PathLike[str]], include: Sequence[str]
) -> tuple[d.FileDescriptorSet, list[str]]:
    """protoc's descriptor set of ``files``, decoded, and the names it gives them."""
    data = descriptor_set(files, include)
    fds = _codecs.default().deserialize(d.FileDescriptorSet, data)
    targets = [_virtual_name(Path(f), [Path(p) for p in include]) for f in files]
    known = {fd.name for fd in fds.file}
    chosen = [t for t in targets if t in known]
    if len(chosen) != len(targets):  # protoc mapped a path some other way: take the last ones
        chosen = [fd.name or "" for fd in fds.file[-len(targets) :]]
    return fds, chosen


def _virtual_name(path: Path, include: list[Path]) -> str:
    """The name protoc gives ``path`` in the descriptor set (relative to its include path)."""
    if not include:
        return path.name
    if path.exists():
        real = path.resolve()
        for root in include:
            try:
                return real.relative_to(root.resolve()).as_posix()
            except ValueError:
                continue
    return path.as_posix()
