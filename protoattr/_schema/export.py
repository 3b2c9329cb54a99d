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
the set also holds ``google/protobuf/timestamp.proto`` and
``duration.proto`` when a contract uses them (their messages only), as
``protoc --include_imports`` would.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .._core.contract import FieldInfo, Label, ValueType
from .._core.types import PACKABLE, Kind
from .._json.plan import json_name
from . import descriptor as d
from .proto import (
    _export_roots,
    _Exporter,
    _group_name,
    _message_like,
    _wire_value,
    declared_default,
)
from .services import full_name, split_services

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
    """A serialized ``FileDescriptorSet`` declaring ``cls`` (contracts and/or services)."""
    main = file_descriptor(model, cls, syntax=syntax, package=package, name=name)
    files = [_well_known(path) for path in main.dependency] if include_imports else []
    return model.serialize(d.FileDescriptorSet(file=[*files, main]))


def file_descriptor(
    model: CodecModel,
    cls: type | Iterable[type],
    *,
    syntax: str = "proto3",
    package: str | None = None,
    name: str | None = None,
) -> d.FileDescriptorProto:
    """The ``FileDescriptorProto`` of what ``model.schema(cls, ...)`` declares."""
    roots = _export_roots(
        cls, syntax, package, "a descriptor needs at least one contract class or service"
    )
    roots, services, package = split_services(model, roots, package)
    exporter = _Exporter(model, syntax, package)
    exporter.discover(roots)
    return _Builder(exporter, name).run(services)


class _Builder:
    def __init__(self, exporter: _Exporter, name: str | None) -> None:
        self.x = exporter
        self.package = exporter.package
        self.name = name

    def run(self, services: list[Any]) -> d.FileDescriptorProto:
        x = self.x
        messages = []
        for m in x.messages.values():
            if m.as_message:
                # the schema exporter's checks (names, what the syntax can say), text discarded
                x._message(m, 0, frozenset(), frozenset())
                messages.append(self._message(m, m.info.name, self._scope(m.cls)))
        enums = [self._enum(e) for e in x.enums]
        out = d.FileDescriptorProto(
            name=self.name or self._file_name(services),
            package=self.package,
            dependency=sorted(x.imports),
            message_type=messages,
            enum_type=enums,
            syntax=x.syntax,
            edition=d.Edition.EDITION_2023 if x.syntax == "editions" else None,
        )
        for info in services:
            x._name(info.name, info.cls, "service")
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
        return out

    def _file_name(self, services: list[Any]) -> str:
        first = services[0].name if services else next(iter(self.x.messages.values())).info.name
        stem = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", first).lower()
        folder = self.package.replace(".", "/") + "/" if self.package else ""
        return f"{folder}{stem}.proto"

    # -- names -------------------------------------------------------------

    def _ref_message(self, cls: type) -> str:
        """A field's or an RPC's message: a hierarchy travels as its root's."""
        return "." + full_name(self.x.model, self.x._root(cls), self.package)

    def _ref_enum(self, enum_cls: type) -> str:
        prefix = f".{self.package}." if self.package else "."
        return prefix + enum_cls.__name__

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

    def _message(self, message: Any, name: str, scope: str) -> d.DescriptorProto:
        """``message`` declared as ``name``, whose full name is ``scope`` (a proto2 group's
        body is a message nested where the group is)."""
        x = self.x
        out = d.DescriptorProto(name=name)
        self._reserved(message, out)
        used = {f.proto_name for f in message.fields} | {f.oneof for f in message.fields if f.oneof}
        oneofs: list[str] = []
        synthetic: list[tuple[d.FieldDescriptorProto, str]] = []
        if message.children:
            oneof = "subtype"
            while oneof in used:
                oneof += "_"
            oneofs.append(oneof)
            for tag, sub in message.children:
                sub_name = x.model.info(sub).name
                out.field.append(self._plain(sub_name, tag, _OPTIONAL, d.FieldType.TYPE_MESSAGE))
                out.field[-1].type_name = "." + full_name(x.model, sub, self.package)
                out.field[-1].oneof_index = 0
        for f in message.fields:
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


def _well_known(path: str) -> d.FileDescriptorProto:
    """``google/protobuf/timestamp.proto`` or ``duration.proto``: their one message."""
    name = "Timestamp" if path.endswith("timestamp.proto") else "Duration"
    return d.FileDescriptorProto(
        name=path,
        package="google.protobuf",
        message_type=[
            d.DescriptorProto(
                name=name,
                field=[
                    _Builder._plain("seconds", 1, _OPTIONAL, d.FieldType.TYPE_INT64),
                    _Builder._plain("nanos", 2, _OPTIONAL, d.FieldType.TYPE_INT32),
                ],
            )
        ],
        syntax="proto3",
    )
