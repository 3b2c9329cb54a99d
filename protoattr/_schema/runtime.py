"""Schemas at run time: ``pa.load_schema(fds_bytes_or_proto_path)``.

For programs that meet a schema only when they run (a schema-registry consumer, a
gRPC reflection client, a generic tool).  There is one path from descriptors to
contracts, ``gen``'s: the ``FileDescriptorSet`` is decoded with protoattr's
descriptor contracts, :class:`protoattr._schema.gen_render.Writer` writes the
module ``protoattr gen`` would write, and that source is executed here into a fresh
module instead of a file.  So the classes are exactly gen's (nested classes, enums,
services, ``pa.extension`` handles), and tracebacks show their source: it is
registered with :mod:`linecache` under ``<protoattr schema NAME>``.

The module is put in ``sys.modules`` under ``protoattr.schemas.<hash>`` (the
contracts resolve their annotations in their module, and the module keeps the
extension handles alive); loading the same schema again returns the same classes.
"""

from __future__ import annotations

import hashlib
import linecache
import os
import sys
import threading
import types
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._core.contract import is_contract
from .._service import is_service, service_info
from . import descriptor as d
from .gen_descriptors import Index
from .gen_render import Writer

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

__all__ = ["load_schema"]

_LOCK = threading.Lock()
#: module name -> the types it declared (a schema loaded twice is made once)
_LOADED: dict[str, dict[str, Any]] = {}


def load_schema(
    model: CodecModel,
    source: bytes | bytearray | memoryview | str | os.PathLike[str],
    include: Sequence[str | os.PathLike[str]] = (),
) -> dict[str, Any]:
    """The contracts, enums and services of a schema, by protobuf full name.

    ``source`` is a serialized ``FileDescriptorSet`` (``protoc --descriptor_set_out
    --include_imports``, a schema registry's, a reflection server's) or the path of a
    ``.proto`` file, parsed with grpcio-tools' protoc with ``include`` as its import
    path (as ``protoattr gen`` does).  Every file of a descriptor set is loaded but
    Google's own (``google/protobuf/*``, whose types are protoattr's well-known
    types), unless those are all it holds.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        fds = model.deserialize(d.FileDescriptorSet, bytes(source))
        names = [fd.name or "" for fd in fds.file]
        targets = [n for n in names if not n.startswith("google/protobuf/")] or names
    else:
        from .gen import _virtual_name, descriptor_set

        data = descriptor_set([source], [str(p) for p in include])
        fds = model.deserialize(d.FileDescriptorSet, data)
        target = _virtual_name(Path(source), [Path(p) for p in include])
        known = [fd.name or "" for fd in fds.file]
        targets = [target if target in known else known[-1]]
    writer = Writer(Index(fds), targets, "protoattr.load_schema")
    text = writer.run()
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    name = f"protoattr.schemas.s{digest}"
    with _LOCK:
        found = _LOADED.get(name)
        if found is None:
            module = _execute(text, name, ", ".join(targets))
            found = _LOADED[name] = _declared(module, writer)
    for value in found.values():
        if is_contract(value):
            model.add(value)
    return dict(found)


def _execute(text: str, name: str, files: str) -> types.ModuleType:
    """Run gen's ``text`` as module ``name`` (registered in ``sys.modules``)."""
    filename = f"<protoattr schema {files}>"
    n = 0
    while filename in linecache.cache:
        n += 1
        filename = f"<protoattr schema {files} ({n})>"
    code = compile(text, filename, "exec")
    # (size, mtime=None, lines, fullname): mtime None keeps linecache.checkcache from dropping it
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    module = types.ModuleType(name, f"Contracts for {files}, loaded by protoattr.load_schema.")
    module.__file__ = filename
    sys.modules[name] = module
    try:
        exec(code, module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _declared(module: types.ModuleType, writer: Writer) -> dict[str, Any]:
    """Each generated type by its protobuf full name (services included)."""
    found: dict[str, Any] = {}
    for t in writer.chosen.values():
        if t.is_map_entry or not t.py_name or t.py_name.startswith("pa."):
            continue
        value: Any = module
        for part in t.py_name.split("."):
            value = getattr(value, part)
        found[t.full_name.lstrip(".")] = value
    for value in vars(module).values():
        if isinstance(value, type) and is_service(value):
            found[service_info(value).full_name] = value
    return found
