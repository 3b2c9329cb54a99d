"""``.proto`` files to contract source code: ``python -m protoattr gen``.

The real ``protoc`` (from the ``grpcio-tools`` package) parses the schema into
a ``FileDescriptorSet``; protoattr decodes that with its own contracts for
``descriptor.proto`` (:mod:`protoattr._schema.descriptor`) and writes Python source:
one ``@proto_contract`` dataclass per message and one ``IntEnum`` per enum.

How protobuf declarations become Python:

- scalars: ``double`` -> ``float``, ``int64`` -> ``int``, ``float`` -> ``pa.float32``,
  the other integer kinds -> ``pa.int32``, ``pa.sint64``, ...; ``string`` -> ``str``;
- ``google.protobuf.Timestamp`` / ``Duration`` -> ``datetime`` / ``timedelta``; the other
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
- nested messages and enums are flattened: ``Outer.Inner`` becomes ``Outer_Inner``;
- comments in the ``.proto`` become docstrings and comments.

Types from imported files are generated too when the requested files use them.
Extensions, services and options other than those above are left out.
"""

from __future__ import annotations

import builtins
import keyword
import os
import re
import sys
import tempfile
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .._core.errors import ProtoError
from .._model import codecs as _codecs
from . import descriptor as d

__all__ = ["GenError", "descriptor_set", "generate", "generate_source", "well_known_include"]

WIDTH = 88  # the generated code fits the usual formatter width


class GenError(ProtoError):
    """protoc is missing, rejected the schema, or the schema uses what protoattr cannot."""


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
    files: Sequence[str | os.PathLike[str]], include: Sequence[str] = (), *, command: str = ""
) -> str:
    """Python source declaring contracts for the messages and enums of ``files``."""
    data = descriptor_set(files, include)
    fds = _codecs.default().deserialize(d.FileDescriptorSet, data)
    targets = [_virtual_name(Path(f), [Path(p) for p in include]) for f in files]
    known = {fd.name for fd in fds.file}
    chosen = [t for t in targets if t in known]
    if len(chosen) != len(targets):  # protoc mapped a path some other way: take the last ones
        chosen = [fd.name or "" for fd in fds.file[-len(targets) :]]
    return generate_source(fds, chosen, command=command)


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


# -- the model of what to generate ------------------------------------------------------

_EDITION_NAMES = {998: "proto2", 999: "proto3"}
# Feature values (descriptor.proto's FeatureSet enums).
_EXPLICIT, _IMPLICIT, _REQUIRED = 1, 2, 3
_OPEN, _CLOSED = 1, 2
_PACKED, _EXPANDED = 1, 2
_LENGTH_PREFIXED, _DELIMITED = 1, 2

_T = d.FieldType
_SCALARS: dict[int, str] = {
    _T.TYPE_DOUBLE: "float",
    _T.TYPE_FLOAT: "pa.float32",
    _T.TYPE_INT64: "int",
    _T.TYPE_UINT64: "pa.uint64",
    _T.TYPE_INT32: "pa.int32",
    _T.TYPE_FIXED64: "pa.fixed64",
    _T.TYPE_FIXED32: "pa.fixed32",
    _T.TYPE_BOOL: "bool",
    _T.TYPE_STRING: "str",
    _T.TYPE_BYTES: "bytes",
    _T.TYPE_UINT32: "pa.uint32",
    _T.TYPE_SFIXED32: "pa.sfixed32",
    _T.TYPE_SFIXED64: "pa.sfixed64",
    _T.TYPE_SINT32: "pa.sint32",
    _T.TYPE_SINT64: "pa.sint64",
}
_PACKABLE = set(_SCALARS) - {_T.TYPE_STRING, _T.TYPE_BYTES} | {_T.TYPE_ENUM}
_ZEROS: dict[int, str] = {t: "0" for t in _SCALARS} | {
    _T.TYPE_DOUBLE: "0.0",
    _T.TYPE_FLOAT: "0.0",
    _T.TYPE_BOOL: "False",
    _T.TYPE_STRING: '""',
    _T.TYPE_BYTES: 'b""',
}
_WRAPPER_NAMES = (
    "DoubleValue", "FloatValue", "Int64Value", "UInt64Value", "Int32Value", "UInt32Value",
    "BoolValue", "StringValue", "BytesValue",
)  # fmt: skip
#: well-known types and what fields of them are declared as (never generated again)
_WELL_KNOWN = {
    ".google.protobuf.Timestamp": "datetime",
    ".google.protobuf.Duration": "timedelta",
    ".google.protobuf.Any": "pa.Any",
    ".google.protobuf.Struct": "pa.Struct",
    ".google.protobuf.Value": "pa.JsonValue",
    ".google.protobuf.ListValue": "pa.ListValue",
    ".google.protobuf.NullValue": "pa.NullValue",
    ".google.protobuf.FieldMask": "pa.FieldMask",
    ".google.protobuf.Empty": "pa.Empty",
    **{f".google.protobuf.{name}": f"pa.wrappers.{name}" for name in _WRAPPER_NAMES},
}
#: annotations that already mean "None when absent"
_NULLABLE = {f"pa.wrappers.{name}" for name in _WRAPPER_NAMES} | {"pa.JsonValue"}
# Names the generated module defines or imports, which classes and fields must not take,
# and the names of ``typing`` a class must not shadow where users import both.
_MODULE_NAMES = {"annotations", "dataclass", "datetime", "enum", "pa", "timedelta"} | {
    "Any", "Annotated", "Callable", "ClassVar", "Dict", "Final", "Generic", "List", "Literal",
    "Optional", "Protocol", "Sequence", "Set", "Tuple", "Type", "TypeVar", "Union",
}  # fmt: skip
_BODY_NAMES = {"pa", "float"}  # names a class body uses at run time


@dataclass
class _Features:
    presence: int
    enum_type: int
    encoding: int  # repeated_field_encoding
    message_encoding: int

    def merged(self, fs: d.FeatureSet | None) -> _Features:
        if fs is None:
            return self
        return _Features(
            fs.field_presence or self.presence,
            fs.enum_type or self.enum_type,
            fs.repeated_field_encoding or self.encoding,
            fs.message_encoding or self.message_encoding,
        )


_DEFAULTS = {
    "proto2": _Features(_EXPLICIT, _CLOSED, _EXPANDED, _LENGTH_PREFIXED),
    "proto3": _Features(_IMPLICIT, _OPEN, _PACKED, _LENGTH_PREFIXED),
    "editions": _Features(_EXPLICIT, _OPEN, _PACKED, _LENGTH_PREFIXED),
}


@dataclass
class _Type:
    """A message or enum declared somewhere in the descriptor set."""

    full_name: str  # ".pkg.Outer.Inner"
    file: d.FileDescriptorProto
    syntax: str  # "proto2" | "proto3" | "editions"
    features: _Features  # resolved for this declaration
    path: list[int]  # source-info path
    message: d.DescriptorProto | None = None
    enum: d.EnumDescriptorProto | None = None
    py_name: str = ""
    flat_name: str = ""  # "Outer_Inner"
    comments: dict[tuple[int, ...], d.Location] = field(default_factory=dict)

    @property
    def is_map_entry(self) -> bool:
        m = self.message
        return bool(m and m.options and m.options.map_entry)


class _Index:
    """Every type of a descriptor set, by full name."""

    def __init__(self, fds: d.FileDescriptorSet) -> None:
        self.types: dict[str, _Type] = {}
        self.files = {fd.name: fd for fd in fds.file}
        for fd in fds.file:
            syntax = _syntax(fd)
            features = _DEFAULTS[syntax]
            if syntax == "editions" and fd.options is not None:
                features = features.merged(fd.options.features)
            comments = {
                tuple(loc.path): loc
                for loc in (fd.source_code_info.location if fd.source_code_info else [])
            }
            prefix = f".{fd.package}" if fd.package else ""
            for i, m in enumerate(fd.message_type):
                self._message(fd, syntax, features, m, prefix, "", [4, i], comments)
            for i, e in enumerate(fd.enum_type):
                self._enum(fd, syntax, features, e, prefix, "", [5, i], comments)

    def _message(
        self,
        fd: d.FileDescriptorProto,
        syntax: str,
        features: _Features,
        m: d.DescriptorProto,
        prefix: str,
        flat: str,
        path: list[int],
        comments: dict[tuple[int, ...], d.Location],
    ) -> None:
        name = m.name or ""
        if syntax == "editions" and m.options is not None:
            features = features.merged(m.options.features)
        full = f"{prefix}.{name}"
        flat_name = f"{flat}_{name}" if flat else name
        self.types[full] = _Type(
            full, fd, syntax, features, path, message=m, flat_name=flat_name, comments=comments
        )
        for i, nested in enumerate(m.nested_type):
            self._message(fd, syntax, features, nested, full, flat_name, [*path, 3, i], comments)
        for i, e in enumerate(m.enum_type):
            self._enum(fd, syntax, features, e, full, flat_name, [*path, 4, i], comments)

    def _enum(
        self,
        fd: d.FileDescriptorProto,
        syntax: str,
        features: _Features,
        e: d.EnumDescriptorProto,
        prefix: str,
        flat: str,
        path: list[int],
        comments: dict[tuple[int, ...], d.Location],
    ) -> None:
        name = e.name or ""
        if syntax == "editions" and e.options is not None:
            features = features.merged(e.options.features)
        self.types[f"{prefix}.{name}"] = _Type(
            f"{prefix}.{name}",
            fd,
            syntax,
            features,
            path,
            enum=e,
            flat_name=f"{flat}_{name}" if flat else name,
            comments=comments,
        )


def _syntax(fd: d.FileDescriptorProto) -> str:
    if fd.syntax == "editions" or (fd.edition is not None and int(fd.edition) >= 1000):
        return "editions"
    if fd.syntax == "proto3":
        return "proto3"
    if fd.edition is not None and int(fd.edition) in _EDITION_NAMES:
        return _EDITION_NAMES[int(fd.edition)]
    return "proto2"


# -- writing Python ------------------------------------------------------------------------


def generate_source(fds: d.FileDescriptorSet, targets: Iterable[str], *, command: str = "") -> str:
    """Python source for the types declared in the files named ``targets`` (and what they use)."""
    return _Writer(_Index(fds), list(targets), command).run()


@dataclass
class _Field:
    name: str  # the Python attribute
    proto_name: str
    number: int
    annotation: str
    options: list[str]
    comment: list[str]
    oneof: str | None = None
    needs_value: bool = False  # no default: a required field


def _claimable(package: str) -> str:
    """The package a generated contract declares: its file's, except Google's own.

    A packaged full name is claimed once per process, and protoattr's well-known
    types already answer to ``google.protobuf.*``: generated copies of Google's
    files (descriptor.proto, plugin.proto, ...) stay unpackaged rather than take
    those names from them.
    """
    return "" if package == "google.protobuf" or package.startswith("google.protobuf.") else package


class _Writer:
    def __init__(self, index: _Index, targets: list[str], command: str) -> None:
        self.index = index
        self.targets = targets
        self.command = command
        self.chosen: dict[str, _Type] = {}
        self.uses: set[str] = set()  # "enum", "datetime", "timedelta"
        self.mutable_defaults = False  # a field whose type ruff does not know is immutable
        self.package = ""  # the requested files' package: the module's __protobuf_package__

    def run(self) -> str:
        for name in self.targets:
            if name not in self.index.files:
                raise GenError(f"{name} is not in protoc's output")
        # The requested files' types, then whatever they use from elsewhere.
        pending = [t for t in self.index.types.values() if t.file.name in self.targets]
        services = [
            (fd, i, s)
            for fd in (self.index.files[name] for name in self.targets)
            for i, s in enumerate(fd.service)
        ]
        pending += self._service_types(services)
        while pending:
            t = pending.pop(0)
            if t.full_name in self.chosen or t.is_map_entry:
                continue
            if t.full_name in _WELL_KNOWN and t.file.name not in self.targets:
                if t.enum is not None:  # NullValue: its members are named through pa
                    t.py_name = _WELL_KNOWN[t.full_name]
                continue
            self.chosen[t.full_name] = t
            if t.message is not None:
                for f in t.message.field:
                    ref = self._ref_type(f)
                    if ref is not None:
                        pending.append(ref)
        self._name_types()
        enums = [t for t in self.chosen.values() if t.enum is not None]
        messages = [t for t in self.chosen.values() if t.message is not None]
        blocks = [self._enum(t) for t in enums] + [self._message(t) for t in messages]
        blocks += [self._service(fd, i, svc) for fd, i, svc in services]
        if not blocks:
            return self._header().rstrip("\n") + "\n"
        return self._header() + "\n\n\n".join(blocks) + "\n"

    def _ref_type(self, f: d.FieldDescriptorProto) -> _Type | None:
        if not f.type_name:
            return None
        t = self.index.types.get(f.type_name)
        if t is None:
            raise GenError(f"field {f.name}: type {f.type_name} is not in protoc's output")
        if t.is_map_entry and t.message is not None:  # the key and value types count
            for entry_field in t.message.field:
                ref = self._ref_type(entry_field)
                if ref is not None:
                    return ref
            return None
        return t

    def _name_types(self) -> None:
        taken: dict[str, str] = {}
        first_package = ""
        for t in self.chosen.values():
            if t.file.name in self.targets:
                first_package = t.file.package or ""
                break
        self.package = _claimable(first_package)
        for t in self.chosen.values():
            base = t.flat_name
            if (t.file.package or "") != first_package and base in {
                o.flat_name for o in self.chosen.values() if o is not t
            }:
                base = "".join(p.title() for p in (t.file.package or "").split(".")) + "_" + base
            name = _safe(base, _MODULE_NAMES, builtin=True)
            while name in taken:
                name += "_"
            taken[name] = t.full_name
            t.py_name = name

    # -- header ------------------------------------------------------------------------

    def _header(self) -> str:
        sources = ", ".join(self.targets)
        lines = [f"# Generated by protoattr from {sources}: do not edit."]
        if self.command:
            lines.append(f"#   {self.command}")
        if self.mutable_defaults:
            lines += [
                "# protoattr.field() returns a dataclasses.Field, which RUF009 cannot know.",
                "# ruff: noqa: RUF009",
            ]
        lines += [
            f'"""Contracts for {_doc_escape(sources)}."""',
            "",
            "from __future__ import annotations",
            "",
        ]
        std = []
        if "enum" in self.uses:
            std.append("import enum")
        if "Iterator" in self.uses:
            std.append("from collections.abc import Iterator")
        if "dataclass" in self.uses:
            std.append("from dataclasses import dataclass")
        times = sorted(self.uses & {"datetime", "timedelta"})
        if times:
            std.append(f"from datetime import {', '.join(times)}")
        if "Protocol" in self.uses:
            std.append("from typing import Protocol")
        if std:
            lines += [*std, ""]
        if "pa" in self.uses:
            lines += ["import protoattr as pa", ""]
        if self.package and "dataclass" in self.uses:  # the messages' full names
            lines += [f"__protobuf_package__ = {_str(self.package)}", ""]
        return "\n".join(lines) + "\n\n"

    # -- services ------------------------------------------------------------------------

    def _service_types(
        self, services: list[tuple[d.FileDescriptorProto, int, d.ServiceDescriptorProto]]
    ) -> list[_Type]:
        """The request and response messages of the requested files' services."""
        found: list[_Type] = []
        for _, _, svc in services:
            for m in svc.method:
                for type_name in (m.input_type, m.output_type):
                    t = self.index.types.get(type_name or "")
                    if t is None or t.message is None:
                        raise GenError(
                            f"service {svc.name}, rpc {m.name}: {type_name} is not a message "
                            "in protoc's output"
                        )
                    if t.full_name in _WELL_KNOWN:
                        raise GenError(
                            f"service {svc.name}, rpc {m.name}: {t.full_name.lstrip('.')} "
                            "cannot be a request or response (protoattr maps it to a Python "
                            "value, not a contract); wrap it in a message"
                        )
                    found.append(t)
        return found

    def _service(self, fd: d.FileDescriptorProto, index: int, svc: d.ServiceDescriptorProto) -> str:
        """A ``@pa.service`` Protocol: implement it to serve, ``pa.grpc.client`` it to call."""
        from .._service import grpc_method_name

        self.uses |= {"pa", "Protocol"}
        full = f"{fd.package}.{svc.name}" if fd.package else str(svc.name)
        taken = {t.py_name for t in self.chosen.values()}
        name = _safe(svc.name or f"Service{index}", taken, builtin=True)
        comments = {
            tuple(loc.path): loc
            for loc in (fd.source_code_info.location if fd.source_code_info else [])
        }
        lines = [f"@pa.service({_str(full)})", f"class {name}(Protocol):"]
        doc = _docstring(comments.get((6, index)), "    ")
        lines += doc
        attrs: set[str] = set()
        for j, m in enumerate(svc.method):
            if j or doc:
                lines.append("")
            lines += _comment(comments.get((6, index, 2, j)), "    ")
            rpc_name = m.name or f"Method{j}"
            attr = _safe(_snake(rpc_name), attrs | {"self"})
            attrs.add(attr)
            if grpc_method_name(attr) != rpc_name:
                lines.append(f"    @pa.rpc(name={_str(rpc_name)})")
            request = self.index.types[m.input_type or ""].py_name
            response = self.index.types[m.output_type or ""].py_name
            if m.client_streaming:
                self.uses.add("Iterator")
                request, param = f"Iterator[{request}]", "requests"
            else:
                param = "request"
            if m.server_streaming:
                self.uses.add("Iterator")
                response = f"Iterator[{response}]"
            params = f"self, {param}: {request}, context: pa.CallContext = pa.CallContext.NONE"
            signature = f"    def {attr}({params}) -> {response}: ..."
            if len(signature) > 88:  # wrapped the way ruff format wraps it
                if len(params) + 8 <= 88:
                    signature = f"    def {attr}(\n        {params}\n    ) -> {response}: ..."
                else:
                    each = "".join(f"        {p.strip()},\n" for p in params.split(", "))
                    signature = f"    def {attr}(\n{each}    ) -> {response}: ..."
            lines.append(signature)
        return "\n".join(lines)

    # -- enums ---------------------------------------------------------------------------

    def _enum(self, t: _Type) -> str:
        assert t.enum is not None
        self.uses.add("enum")
        lines: list[str] = []
        if t.features.enum_type == _CLOSED:
            self.uses.add("pa")
            lines.append("@pa.closed_enum")
        lines.append(f"class {t.py_name}(enum.IntEnum):")
        doc = _docstring(t.comments.get(tuple(t.path)), "    ")
        lines += doc
        if doc:
            lines.append("")
        if t.py_name != t.flat_name:
            lines.append(f"    # protobuf name: {t.full_name.lstrip('.')}")
        for i, v in enumerate(t.enum.value):
            loc = t.comments.get((*t.path, 2, i))
            lines += _comment(loc, "    ")
            name = _enum_member(v.name or f"VALUE_{i}")
            lines.append(f"    {name} = {v.number or 0}")
        return "\n".join(lines)

    def _enum_member_name(self, t: _Type, number: int | None, name: str | None = None) -> str:
        assert t.enum is not None
        for v in t.enum.value:
            if (name is not None and v.name == name) or (name is None and v.number == number):
                return f"{t.py_name}.{_enum_member(v.name or '')}"
        raise GenError(f"enum {t.full_name} has no value {name or number}")

    # -- messages ------------------------------------------------------------------------

    def _message(self, t: _Type) -> str:
        m = t.message
        assert m is not None
        self.uses |= {"pa", "dataclass"}
        fields = [self._field(t, i, f) for i, f in enumerate(m.field)]
        seen: set[str] = set()
        for f in fields:  # keep attribute names unique after renaming
            renamed = f.name in seen
            while f.name in seen:
                f.name += "_"
            seen.add(f.name)
            if (
                renamed
                and f.name != f.proto_name
                and not any(o.startswith("name=") for o in f.options)
            ):
                f.options.append(f"name={_str(f.proto_name)}")
        options: list[str] = []
        reserved = _reserved(m)
        if reserved:
            options.append(f"reserved={reserved}")
        if t.py_name != t.flat_name:
            options.append(f"name={_str(t.full_name.rsplit('.', 1)[-1])}")
        package = _claimable(t.file.package or "")
        if package and package != self.package:  # a type from another package
            options.append(f"package={_str(package)}")
        deco = f"@pa.proto_contract({', '.join(options)})" if options else "@pa.proto_contract"
        kw_only = any(f.needs_value for f in fields)
        lines = _wrap_call(deco, "") if len(deco) > WIDTH else [deco]
        lines.append("@dataclass(kw_only=True)" if kw_only else "@dataclass")
        lines.append(f"class {t.py_name}:")
        doc = _docstring(t.comments.get(tuple(t.path)), "    ")
        lines += doc
        if doc and fields:
            lines.append("")
        for f in fields:
            lines += f.comment
            lines += _field_lines(f)
            if set(re.findall(r"[\w.]+", f.annotation)) - _IMMUTABLE:
                self.mutable_defaults = True
        if not doc and not fields:
            lines.append("    pass")
        return "\n".join(lines)

    def _field(self, t: _Type, i: int, f: d.FieldDescriptorProto) -> _Field:
        m = t.message
        assert m is not None
        proto_name = f.name or f"field_{i}"
        number = f.number or 0
        comment = _comment(t.comments.get((*t.path, 2, i)), "    ")
        features = t.features
        oneof: str | None = None
        if f.oneof_index is not None and not f.proto3_optional:
            decl = m.oneof_decl[f.oneof_index]
            oneof = decl.name
            if t.syntax == "editions" and decl.options is not None:
                features = features.merged(decl.options.features)
        if t.syntax == "editions" and f.options is not None:
            features = features.merged(f.options.features)
        label = f.label or d.FieldLabel.LABEL_OPTIONAL
        ftype = f.type
        ref = self.index.types.get(f.type_name) if f.type_name else None
        options: list[str] = [str(number)]
        name = _safe(proto_name, _BODY_NAMES | {o.py_name for o in self.chosen.values()})
        needs_value = False

        if ref is not None and ref.is_map_entry and label == d.FieldLabel.LABEL_REPEATED:
            assert ref.message is not None
            entry = {ef.number: ef for ef in ref.message.field}
            key, value = self._value_type(entry[1]), self._value_type(entry[2])
            annotation = f"dict[{key}, {value}]"
            options.append("default_factory=dict")
            options = self._named(options, name, proto_name)
            return _Field(name, proto_name, number, annotation, options, comment)

        value = self._value_type(f)
        is_message = ftype in (_T.TYPE_MESSAGE, _T.TYPE_GROUP)
        group = ftype == _T.TYPE_GROUP or (
            is_message and t.syntax == "editions" and features.message_encoding == _DELIMITED
        )
        if label == d.FieldLabel.LABEL_REPEATED:
            annotation = f"list[{value}]"
            options.append("default_factory=list")
            packed = self._packed(t, f, features)
            if ftype in _PACKABLE and not packed:
                options.append("packed=False")
        else:
            presence = self._presence(t, f, features, is_message)
            default = self._default(f, ref)
            if value in _NULLABLE:  # a wrapper or a JSON value: None is absent already
                annotation = value
                options += ["default=None"] + ([f"oneof={_str(oneof)}"] if oneof else [])
            elif oneof is not None:
                annotation = f"{value} | None"
                options += ["default=None", f"oneof={_str(oneof)}"]
            elif presence == "required":
                annotation = value
                options.append("required=True")
                if default is not None:
                    options.append(f"default={default}")
                needs_value = default is None
            elif presence == "implicit":
                annotation = value
                options.append(f"default={self._zero(f, ref)}")
            elif default is not None and not self._is_natural(f, ref, default):
                annotation = f"{value} | None"  # presence kept: set-to-default is written
                options += ["default=None", f"wire_default={default}"]
            else:
                annotation = f"{value} | None"
                options.append("default=None")
        if group:
            options.append("group=True")
        options = self._named(options, name, proto_name)
        return _Field(name, proto_name, number, annotation, options, comment, oneof, needs_value)

    @staticmethod
    def _named(options: list[str], name: str, proto_name: str) -> list[str]:
        if name != proto_name:
            options.append(f"name={_str(proto_name)}")
        return options

    def _value_type(self, f: d.FieldDescriptorProto) -> str:
        ftype = f.type
        if ftype in _SCALARS:
            return _SCALARS[ftype]
        if not f.type_name:
            raise GenError(f"field {f.name} has neither a scalar type nor a type name")
        ref = self.chosen.get(f.type_name)
        if ref is None and f.type_name in _WELL_KNOWN and ftype in (_T.TYPE_MESSAGE, _T.TYPE_ENUM):
            py = _WELL_KNOWN[f.type_name]
            self.uses.add("pa" if py.startswith("pa.") else py)
            return py
        if ref is None:
            raise GenError(f"field {f.name}: type {f.type_name} was not generated")
        return ref.py_name

    def _packed(self, t: _Type, f: d.FieldDescriptorProto, features: _Features) -> bool:
        packed = f.options.packed if f.options is not None else None
        if t.syntax == "proto2":
            return bool(packed)
        if t.syntax == "proto3":
            return packed is not False
        return features.encoding != _EXPANDED

    def _presence(
        self, t: _Type, f: d.FieldDescriptorProto, features: _Features, is_message: bool
    ) -> str:
        if t.syntax == "proto2":
            return "required" if f.label == d.FieldLabel.LABEL_REQUIRED else "explicit"
        if t.syntax == "proto3":
            if f.proto3_optional or is_message or f.oneof_index is not None:
                return "explicit"
            return "implicit"
        if features.presence == _REQUIRED:
            return "required"
        if features.presence == _IMPLICIT and not is_message and f.oneof_index is None:
            return "implicit"
        return "explicit"

    def _zero(self, f: d.FieldDescriptorProto, ref: _Type | None) -> str:
        if f.type == _T.TYPE_ENUM:
            assert ref is not None and ref.enum is not None
            if not ref.enum.value:
                return "0"
            zero = [v for v in ref.enum.value if v.number == 0]
            return self._enum_member_name(ref, None, (zero or ref.enum.value)[0].name)
        return _ZEROS.get(f.type or 0, "None")

    def _default(self, f: d.FieldDescriptorProto, ref: _Type | None) -> str | None:
        """The declared ``[default = ...]`` as Python source, or None."""
        text = f.default_value
        if text is None:
            return None
        ftype = f.type
        if ftype == _T.TYPE_ENUM:
            assert ref is not None
            return self._enum_member_name(ref, None, text)
        if ftype == _T.TYPE_BOOL:
            return "True" if text == "true" else "False"
        if ftype == _T.TYPE_STRING:
            return _str(text)
        if ftype == _T.TYPE_BYTES:
            return _bytes(_unescape(text))
        if ftype in (_T.TYPE_DOUBLE, _T.TYPE_FLOAT):
            return _float(text)
        if ftype in _SCALARS:
            return str(int(text, 0))
        return None

    def _is_natural(self, f: d.FieldDescriptorProto, ref: _Type | None, default: str) -> bool:
        """Whether an explicit default is what an absent field reads as anyway (zero or,
        for enums, the first value): then ``T | None`` keeps presence at no cost."""
        if f.type == _T.TYPE_ENUM:
            assert ref is not None and ref.enum is not None
            first = ref.enum.value[0].name if ref.enum.value else None
            return first is not None and default == self._enum_member_name(ref, None, first)
        if f.type in (_T.TYPE_DOUBLE, _T.TYPE_FLOAT):
            return default == "0.0"
        return default == self._zero(f, ref)


# -- source text helpers ------------------------------------------------------------------


_IMMUTABLE = {"int", "float", "str", "bytes", "bool", "None"}


def _field_lines(f: _Field) -> list[str]:
    call = f"pa.field({', '.join(f.options)})"
    line = f"    {f.name}: {f.annotation} = {call}"
    if len(line) <= WIDTH:
        return [line]
    if len(f"    {f.name}: {f.annotation} = pa.field(") > WIDTH:
        # split where ruff format would: around the value, else around the annotation
        if len(f"    {f.name}: {f.annotation} = (") <= WIDTH and len(f"        {call}") <= WIDTH:
            return [f"    {f.name}: {f.annotation} = (", f"        {call}", "    )"]
        return [f"    {f.name}: (", f"        {f.annotation}", f"    ) = {call}"]
    return _wrap_call(f"{f.name}: {f.annotation} = {call}", "    ")


def _wrap_call(text: str, indent: str) -> list[str]:
    """``head(args)`` over several lines, the way black and ruff format it."""
    head, _, rest = text.partition("(")
    args = rest[:-1]
    one = f"{indent}    {args}"
    if len(one) <= WIDTH:
        return [f"{indent}{head}(", one, f"{indent})"]
    parts = _split_args(args)
    return [f"{indent}{head}(", *(f"{indent}    {p}," for p in parts), f"{indent})"]


def _split_args(args: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    quote = ""
    current = ""
    for ch in args:
        if quote:
            current += ch
            if ch == quote and not current.endswith("\\" + quote):
                quote = ""
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def _reserved(m: d.DescriptorProto) -> str:
    items: list[str] = []
    for r in m.reserved_range:
        start, end = r.start or 0, r.end or 0
        items.append(str(start) if end == start + 1 else f"range({start}, {end})")
    items += [_str(n) for n in m.reserved_name]
    if not items:
        return ""
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def _snake(name: str) -> str:
    """``GetHTTPStatus`` -> ``get_http_status`` (a gRPC method name as a Python method)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


def _safe(name: str, taken: Iterable[str], *, builtin: bool = False) -> str:
    """``name`` as a Python identifier that does not collide with ``taken`` or a keyword
    (nor, for module-level names, with a builtin).  Soft keywords (``match``, ``case``,
    ``type``, ``_``) are valid identifiers and stay as they are, so the output is the
    same on every Python: which words are soft keywords depends on the version."""
    taken = set(taken)
    out = name
    if keyword.iskeyword(out):
        out += "_"
    while out in taken or (builtin and out in _BUILTINS):
        out += "_"
    return out


_BUILTINS = set(dir(builtins))


def _enum_member(name: str) -> str:
    if keyword.iskeyword(name) or name == "mro":
        return name + "_"
    if name.startswith("_"):
        return "V" + name
    return name


def _str(text: str) -> str:
    """A double-quoted Python string literal (the quotes ruff format prefers)."""
    r = repr(text)
    if r.startswith("'") and '"' not in text:
        r = '"' + r[1:-1].replace("\\'", "'") + '"'
    return r


def _bytes(data: bytes) -> str:
    r = repr(data)
    if r.startswith("b'") and b'"' not in data:
        r = 'b"' + r[2:-1].replace("\\'", "'") + '"'
    return r


def _float(text: str) -> str:
    if text in ("inf", "+inf"):
        return 'float("inf")'
    if text == "-inf":
        return '-float("inf")'
    if text in ("nan", "-nan"):
        return 'float("nan")'
    return repr(float(text)).replace("e+", "e")  # 1e100, as ruff format writes it


_OCTAL = re.compile(r"\\([0-7]{1,3}|x[0-9a-fA-F]{1,2}|.)", re.DOTALL)
_SIMPLE = {"n": 10, "r": 13, "t": 9, '"': 34, "'": 39, "\\": 92, "a": 7, "b": 8, "f": 12, "v": 11}


def _unescape(text: str) -> bytes:
    """Undo protoc's C escaping of a bytes default."""
    out = bytearray()
    pos = 0
    for m in _OCTAL.finditer(text):
        out += text[pos : m.start()].encode("latin-1")
        code = m.group(1)
        if code[0] in "01234567":
            out.append(int(code, 8) & 0xFF)
        elif code[0] == "x":
            out.append(int(code[1:], 16))
        else:
            out.append(_SIMPLE.get(code, ord(code)))
        pos = m.end()
    out += text[pos:].encode("latin-1")
    return bytes(out)


def _clean(text: str) -> list[str]:
    """Comment text as lines: stripped, without the leading blank ones or trailing ones."""
    lines = [line.rstrip() for line in textwrap.dedent(text).splitlines()]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return [_plain(line) for line in lines]


# Characters ruff flags as ambiguous in comments and docstrings (RUF002/RUF003).
_AMBIGUOUS = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"}
)


def _plain(line: str) -> str:
    return line.translate(_AMBIGUOUS)


def _wrapped(lines: list[str], width: int) -> list[str]:
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip())]
        out += textwrap.wrap(
            line,
            width,
            subsequent_indent=lead,
            break_long_words=False,
            break_on_hyphens=False,
        ) or [line]
    return out


def _doc_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


def _docstring(loc: d.Location | None, indent: str) -> list[str]:
    lines = _clean(loc.leading_comments or "") if loc else []
    if not lines:
        return []
    lines = _wrapped([_doc_escape(x) for x in lines], WIDTH - len(indent) - 6)
    if len(lines) == 1:
        line = lines[0]
        if line.endswith('"'):
            line += " "
        return [f'{indent}"""{line}"""']
    body = [f"{indent}{x}" if x else "" for x in lines]
    return [f'{indent}"""{lines[0]}', *body[1:], f'{indent}"""']


def _comment(loc: d.Location | None, indent: str) -> list[str]:
    if loc is None:
        return []
    lines = _clean(loc.leading_comments or "") + _clean(loc.trailing_comments or "")
    lines = _wrapped(lines, WIDTH - len(indent) - 2)
    return [f"{indent}# {x}".rstrip() for x in lines]
