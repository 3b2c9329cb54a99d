"""Contracts and services as a ``FileDescriptorSet``: what protoc would make of their schema.

``model.schema(...)`` writes ``.proto`` text; this module writes the same
declarations as descriptors (protoattr's own descriptor.proto contracts,
:mod:`protoattr._schema.descriptor`), so that a program without protoc can hand
them to ``google.protobuf.descriptor_pool``, to gRPC server reflection, or
to any tool that reads ``protoc --descriptor_set_out``.  The discovery, the
names and every "this syntax cannot say that" check are the schema
exporter's (:class:`protoattr._schema.proto._Exporter`): the two agree by
construction, and a test compares this output with protoc's for the
exported text.

All three syntaxes are exported: proto2 groups as ``TYPE_GROUP`` fields with
their body nested where the group is, edition 2023's choices as
``features`` options.  With ``include_imports``
the set also holds the well-known files a contract uses
(``google/protobuf/timestamp.proto``, ``any.proto``...), exactly as
``protoc --include_imports`` writes them (:mod:`protoattr._schema.wkt_files`).
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .._core.contract import FieldInfo, Label, ValueType
from .._core.names import scoped_name
from .._core.types import BCL_KINDS, PACKABLE, Kind
from .._json.plan import json_name
from . import descriptor as d
from . import extensions as _schemaext
from . import wkt_files
from .bcl import BCL_PROTO, bcl_file
from .proto import (
    _export_roots,
    _Exporter,
    _group_name,
    _message_like,
    _wire_value,
    declared_default,
    file_of,
)
from .services import full_name, message_name, split_services

if TYPE_CHECKING:
    from .._model.codecs import CodecModel

__all__ = ["descriptor_set", "file_descriptor"]

_WELL_KNOWN = {Kind.TIMESTAMP: "Timestamp", Kind.DURATION: "Duration"}
# FeatureSet values (descriptor.proto's enums, kept as ints by the contracts)
_IMPLICIT, _LEGACY_REQUIRED = 2, 3  # field_presence
_CLOSED = 2  # enum_type
_EXPANDED = 2  # repeated_field_encoding
_DELIMITED = 2  # message_encoding
_OPTIONAL, _REPEATED, _REQUIRED = (
    d.FieldLabel.LABEL_OPTIONAL,
    d.FieldLabel.LABEL_REPEATED,
    d.FieldLabel.LABEL_REQUIRED,
)


def descriptor_set(
    model: CodecModel,
    cls: type | Iterable[type],
    *,
    syntax: str = "proto3",
    package: str | None = None,
    name: str | None = None,
    include_imports: bool = True,
) -> bytes:
    """A serialized ``FileDescriptorSet`` declaring ``cls`` (contracts and/or services).

    Contracts and services of one package make one file (named ``name``, else after
    the package and the first service or contract); several packages make one file
    per package, named as :func:`~protoattr._schema.proto.schema_files` names them,
    each depending on the files it uses, as protoc describes those files.  With
    ``include_imports`` the well-known files they import come first; every file
    follows the files it depends on.
    """
    files = file_descriptors(model, cls, syntax=syntax, package=package, name=name)
    if include_imports:
        deps = {dep for fd in files for dep in fd.dependency}
        used = sorted(dep for dep in deps if dep in wkt_files.FILES)
        bcl = [bcl_file()] if BCL_PROTO in deps else []  # protobuf-net's, shipped here
        files = [_well_known(model, path) for path in used] + bcl + files
    return model.serialize(d.FileDescriptorSet(file=files))


def file_descriptor(
    model: CodecModel,
    cls: type | Iterable[type],
    *,
    syntax: str = "proto3",
    package: str | None = None,
    name: str | None = None,
) -> d.FileDescriptorProto:
    """The ``FileDescriptorProto`` of what ``model.schema(cls, ...)`` declares (one package)."""
    roots = _export_roots(
        cls, syntax, package, "a descriptor needs at least one contract class or service"
    )
    roots, services, package = split_services(model, roots, package)
    exporter = _Exporter(model, syntax, package)
    exporter.services = services
    exporter.discover(roots)
    exporter._choose_package()  # the contracts' own package, as schema() takes it
    return _Builder(exporter, name).run(services)


def file_descriptors(
    model: CodecModel,
    cls: type | Iterable[type],
    *,
    syntax: str = "proto3",
    package: str | None = None,
    name: str | None = None,
) -> list[d.FileDescriptorProto]:
    """The files declaring ``cls``: one per package, each after the ones it imports."""
    roots = _export_roots(
        cls, syntax, package, "a descriptor needs at least one contract class or service"
    )
    roots, services, package = split_services(model, roots, package, one_package=False)
    exporter = _Exporter(model, syntax, package)
    exporter.services = services
    exporter.discover(roots)
    packages = {m.info.package for m in exporter.messages.values() if m.as_message}
    packages |= {s.package or None for s in services} | {package}
    if len(packages - {None}) <= 1:  # one file, as schema() writes it
        exporter._choose_package()
        return [_Builder(exporter, name).run(services)]
    files = []
    for pkg in exporter.assign_homes():
        exporter.package = pkg
        exporter.file_imports = set()
        mine = [s for s in services if (s.package or None) == pkg]
        files.append(_Builder(exporter, file_of(pkg)).run(mine))
    exporter.check_acyclic({fd.name or "": set(fd.dependency) for fd in files})
    return _dependencies_first(files)


def _dependencies_first(files: list[d.FileDescriptorProto]) -> list[d.FileDescriptorProto]:
    """``files`` reordered so that each comes after the files it imports (as protoc lists
    them with ``--include_imports``); otherwise in their own order."""
    by_name = {fd.name: fd for fd in files}
    out: list[d.FileDescriptorProto] = []
    done: set[str | None] = set()

    def visit(fd: d.FileDescriptorProto) -> None:
        if fd.name in done:
            return
        done.add(fd.name)
        for dep in fd.dependency:
            if dep in by_name:
                visit(by_name[dep])
        out.append(fd)

    for fd in files:
        visit(fd)
    return out


class _Builder:
    def __init__(self, exporter: _Exporter, name: str | None) -> None:
        self.x = exporter
        self.package = exporter.package
        self.name = name

    def run(self, services: list[Any]) -> d.FileDescriptorProto:
        """The file of the exporter's current package (all of it, for one file)."""
        x = self.x
        messages = []
        for m in x.messages.values():
            if m.as_message and x._parent(m.cls) is None and x._here(m.cls):
                # the schema exporter's checks (names, what the syntax can say), text discarded
                x._message(m, 0, frozenset(), frozenset())
                messages.append(self._declared(m))
        enums = [self._enum(e) for e in x.enums if x._parent(e) is None and x._here(e)]
        out = d.FileDescriptorProto(
            name=self.name or self._file_name(services),
            package=self.package,
            message_type=messages,
            enum_type=enums,
            syntax=x.syntax,
            edition=d.Edition.EDITION_2023 if x.syntax == "editions" else None,
        )
        _schemaext.descriptor_fields(self, out)
        for info in services:
            x._name(info.name, info.cls, "service", (info.package or None) if x.home else None)
            for m in info.methods:  # the files the RPCs' messages come from are imported
                message_name(x, m.request)
                message_name(x, m.response)
            out.service.append(
                d.ServiceDescriptorProto(
                    name=info.name,
                    method=[
                        d.MethodDescriptorProto(
                            name=m.name,
                            input_type=self._ref_message(m.request),
                            output_type=self._ref_message(m.response),
                            client_streaming=True if m.client_streaming else None,
                            server_streaming=True if m.server_streaming else None,
                        )
                        for m in info.methods
                    ],
                )
            )
        out.dependency = sorted(x._imports() | x.file_imports)
        return out

    def _file_name(self, services: list[Any]) -> str:
        first = services[0].name if services else next(iter(self.x.messages.values())).info.name
        first = first.rpartition(".")[2]
        stem = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", first).lower()
        folder = self.package.replace(".", "/") + "/" if self.package else ""
        return f"{folder}{stem}.proto"

    # -- names -------------------------------------------------------------

    def _package_of(self, cls: type) -> str | None:
        """The package of the file declaring ``cls`` (its home, with one file per package)."""
        return self.x.home.get(cls, self.package)

    def _ref_message(self, cls: type) -> str:
        """A field's or an RPC's message: a hierarchy travels as its root's."""
        root = self.x._root(cls)
        return "." + full_name(self.x.model, root, self._package_of(root))

    def _ref_enum(self, enum_cls: type) -> str:
        package = self._package_of(enum_cls)
        prefix = f".{package}." if package else "."
        return prefix + scoped_name(enum_cls)

    # -- declarations ------------------------------------------------------

    def _enum(self, enum_cls: type) -> d.EnumDescriptorProto:
        closed = self.x.syntax == "editions" and enum_cls in self.x.closed
        return d.EnumDescriptorProto(
            name=enum_cls.__name__,
            value=[
                d.EnumValueDescriptorProto(name=n, number=v)
                for n, v in self.x.enum_values[enum_cls]
            ],
            options=d.EnumOptions(features=d.FeatureSet(enum_type=_CLOSED)) if closed else None,
        )

    def _scope(self, cls: type) -> str:
        """The full name of a top-level message (what its nested types are named under)."""
        return full_name(self.x.model, cls, self.package)

    def _declared(self, message: Any) -> d.DescriptorProto:
        """A message with the messages and enums declared inside it."""
        out = self._message(
            message, message.info.scoped_name.rpartition(".")[2], self._scope(message.cls)
        )
        nested, enums = self.x._children(message.cls)
        out.nested_type[:0] = [self._declared(inner) for inner in nested]
        out.enum_type = [self._enum(e) for e in enums]
        return out

    def _message(self, message: Any, name: str, scope: str) -> d.DescriptorProto:
        """``message`` declared as ``name``, whose full name is ``scope`` (a proto2 group's
        body is a message nested where the group is)."""
        x = self.x
        out = d.DescriptorProto(name=name)
        self._reserved(message, out)
        out.extension_range = _schemaext.descriptor_ranges(message)
        used = {f.proto_name for f in message.fields} | {f.oneof for f in message.fields if f.oneof}
        oneofs: list[str] = []
        synthetic: list[tuple[d.FieldDescriptorProto, str]] = []
        if message.children:
            oneof = "subtype"
            while oneof in used:
                oneof += "_"
            oneofs.append(oneof)
            for tag, sub in message.children:
                sub_name = x.model.info(sub).scoped_name.rpartition(".")[2]
                out.field.append(self._plain(sub_name, tag, _OPTIONAL, d.FieldType.TYPE_MESSAGE))
                out.field[-1].type_name = "." + full_name(x.model, sub, self.package)
                out.field[-1].oneof_index = 0
        for f in _text_order(message.fields):
            field = self._field(f, scope, out)
            if f.oneof is not None:
                if f.oneof not in oneofs:
                    oneofs.append(f.oneof)
                field.oneof_index = oneofs.index(f.oneof)
            elif field.proto3_optional:
                synthetic.append((field, _synthetic_oneof(f.proto_name, used)))
            out.field.append(field)
        for field, oneof in synthetic:  # protoc puts synthetic oneofs after the real ones
            field.oneof_index = len(oneofs)
            oneofs.append(oneof)
        out.oneof_decl = [d.OneofDescriptorProto(name=n) for n in oneofs]
        return out

    def _reserved(self, message: Any, out: d.DescriptorProto) -> None:
        for r in message.info.options.reserved:
            if isinstance(r, str):
                out.reserved_name.append(r)
            elif isinstance(r, range):
                if r.step == 1:
                    if len(r):
                        end = min(r[-1], 536870911) + 1
                        out.reserved_range.append(d.ReservedRange(start=r.start, end=end))
                else:
                    out.reserved_range += [d.ReservedRange(start=n, end=n + 1) for n in r]
            else:
                out.reserved_range.append(d.ReservedRange(start=r, end=r + 1))

    @staticmethod
    def _plain(name: str, number: int, label: d.FieldLabel, kind: d.FieldType) -> Any:
        return d.FieldDescriptorProto(
            name=name, number=number, label=label, type=kind, json_name=json_name(name)
        )

    def _typed(self, field: d.FieldDescriptorProto, vt: ValueType) -> None:
        kind = vt.kind
        if kind is Kind.MESSAGE:
            assert vt.py_type is not None
            field.type, field.type_name = d.FieldType.TYPE_MESSAGE, self._ref_message(vt.py_type)
        elif kind is Kind.ENUM:
            assert vt.py_type is not None
            field.type, field.type_name = d.FieldType.TYPE_ENUM, self._ref_enum(vt.py_type)
        elif kind in _WELL_KNOWN:
            field.type = d.FieldType.TYPE_MESSAGE
            field.type_name = f".google.protobuf.{_WELL_KNOWN[kind]}"
        elif kind in BCL_KINDS:  # protobuf-net's bcl.proto: ".bcl.DateTime" ...
            field.type, field.type_name = d.FieldType.TYPE_MESSAGE, f".{kind.value}"
        else:
            field.type = d.FieldType[f"TYPE_{kind.name}"]

    def _field(self, f: FieldInfo, scope: str, owner: d.DescriptorProto) -> d.FieldDescriptorProto:
        syntax = self.x.syntax
        field = d.FieldDescriptorProto(
            name=f.proto_name, number=f.tag, json_name=json_name(f.proto_name)
        )
        features = d.FeatureSet()
        if f.label is Label.MAP:
            assert f.key is not None
            entry = _entry_name(f.proto_name)
            key = self._plain("key", 1, _OPTIONAL, d.FieldType.TYPE_INT32)
            value = self._plain("value", 2, _OPTIONAL, d.FieldType.TYPE_INT32)
            self._typed(key, f.key)
            self._typed(value, f.value)
            owner.nested_type.append(
                d.DescriptorProto(
                    name=entry, field=[key, value], options=d.MessageOptions(map_entry=True)
                )
            )
            field.label, field.type = _REPEATED, d.FieldType.TYPE_MESSAGE
            field.type_name = f".{scope}.{entry}"
            return field
        self._typed(field, f.value)
        if f.group and syntax == "proto2":
            assert f.value.py_type is not None
            group = _group_name(f)
            root = self.x.messages[self.x._root(f.value.py_type)]
            owner.nested_type.append(self._message(root, group, f"{scope}.{group}"))
            field.name, field.json_name = group.lower(), json_name(group.lower())
            field.type, field.type_name = d.FieldType.TYPE_GROUP, f".{scope}.{group}"
        elif f.group:
            features.message_encoding = _DELIMITED
        if f.label is Label.REPEATED:
            field.label = _REPEATED
            if f.value.kind in PACKABLE:
                if syntax == "proto2" and f.packed:
                    field.options = d.FieldOptions(packed=True)
                elif syntax == "proto3" and not f.packed:
                    field.options = d.FieldOptions(packed=False)
                elif syntax == "editions" and not f.packed:
                    features.repeated_field_encoding = _EXPANDED
            return _with_features(field, features)
        presence, _ = self.x._presence(f)
        field.label = _REQUIRED if f.required and syntax == "proto2" else _OPTIONAL
        if syntax == "editions":
            if f.required:
                features.field_presence = _LEGACY_REQUIRED
            elif presence == "implicit" and f.oneof is None:
                features.field_presence = _IMPLICIT
        if (
            syntax == "proto3"
            and presence == "explicit"
            and f.oneof is None
            and not _message_like(f.value)
        ):
            field.proto3_optional = True
        if syntax != "proto3":
            default = self._default(f)
            if default is not None:
                field.default_value = default
        return _with_features(field, features)

    def _default(self, f: FieldInfo) -> str | None:
        """``default_value`` as descriptor.proto spells it (strings raw, bytes C-escaped)."""
        _, text = self.x._presence(f)
        if text is None:
            return None
        vt = f.value
        wire = _wire_value(vt, declared_default(f))
        kind = vt.kind
        if kind is Kind.STRING:
            return str(wire)
        if kind is Kind.BYTES:
            return _c_escape(bytes(wire))
        if kind in (Kind.FLOAT, Kind.DOUBLE):
            number = float(wire)
            if math.isnan(number):
                return "nan"
            if math.isinf(number):
                return "inf" if number > 0 else "-inf"
            return _shortest(number, kind)
        return text  # enum names, true/false, integers: the same as in .proto text


def _text_order(fields: list[FieldInfo]) -> list[FieldInfo]:
    """Fields in the order the schema text declares them, which is protoc's: a oneof's
    members together, where its first member is."""
    out: list[FieldInfo] = []
    done: set[str] = set()
    for f in fields:
        if f.oneof is None:
            out.append(f)
        elif f.oneof not in done:
            done.add(f.oneof)
            out += [m for m in fields if m.oneof == f.oneof]
    return out


def _with_features(field: d.FieldDescriptorProto, features: d.FeatureSet) -> d.FieldDescriptorProto:
    """``field`` with edition ``features`` in its options, when there are any."""
    if features != d.FeatureSet():
        field.options = field.options or d.FieldOptions()
        field.options.features = features
    return field


def _synthetic_oneof(name: str, used: set[str]) -> str:
    """protoc's name for a proto3 ``optional`` field's oneof: ``_name``, X-prefixed if taken."""
    oneof = "_" + name
    while oneof in used:
        oneof = "X" + oneof
    return oneof


def _entry_name(field_name: str) -> str:
    """The nested message protoc declares for ``map<...> field_name``."""
    camel = json_name(field_name)
    return camel[:1].upper() + camel[1:] + "Entry"


def _c_escape(data: bytes) -> str:
    out: list[str] = []
    for b in data:
        if b in (0x22, 0x27, 0x5C):
            out.append("\\" + chr(b))
        elif b == 0x0A:
            out.append("\\n")
        elif b == 0x0D:
            out.append("\\r")
        elif b == 0x09:
            out.append("\\t")
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append(f"\\{b:03o}")
    return "".join(out)


def _shortest(number: float, kind: Kind) -> str:
    """protoc's spelling of a float default: the shortest text that reads back the same."""
    if kind is Kind.FLOAT:
        single = struct.unpack("<f", struct.pack("<f", number))[0]
        for digits in (6, 9):
            text = f"{single:.{digits}g}"
            if struct.unpack("<f", struct.pack("<f", float(text)))[0] == single:
                return text
    for digits in (15, 17):
        text = f"{number:.{digits}g}"
        if float(text) == number:
            return text
    return repr(number)  # pragma: no cover - 17 digits always read back


def _well_known(model: CodecModel, path: str) -> d.FileDescriptorProto:
    """A well-known file (``google/protobuf/timestamp.proto``...) exactly as protoc has it."""
    return model.deserialize(d.FileDescriptorProto, wkt_files.file_bytes(path))
