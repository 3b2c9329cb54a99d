"""``gen``, step one: reading protoc's descriptors into the declarations to generate.

protoc's ``FileDescriptorSet`` (decoded with :mod:`protoattr._schema.descriptor`)
is indexed here by full name: every message and enum with its file, syntax,
resolved edition features, nesting and source-info path.  Nothing here knows
Python; :mod:`protoattr._schema.gen_render` turns these into source text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .._core.errors import ProtoError
from . import descriptor as d

__all__ = [
    "CLOSED",
    "DELIMITED",
    "EXPANDED",
    "EXPLICIT",
    "IMPLICIT",
    "REQUIRED",
    "Features",
    "GenError",
    "Index",
    "Type",
    "syntax_of",
]


class GenError(ProtoError):
    """protoc is missing, rejected the schema, or the schema uses what protoattr cannot."""


# -- the model of what to generate ------------------------------------------------------

_EDITION_NAMES = {998: "proto2", 999: "proto3"}
# Feature values (descriptor.proto's FeatureSet enums).
EXPLICIT, IMPLICIT, REQUIRED = 1, 2, 3
OPEN, CLOSED = 1, 2
PACKED, EXPANDED = 1, 2
LENGTH_PREFIXED, DELIMITED = 1, 2


@dataclass
class Features:
    presence: int
    enum_type: int
    encoding: int  # repeated_field_encoding
    message_encoding: int

    def merged(self, fs: d.FeatureSet | None) -> Features:
        if fs is None:
            return self
        return Features(
            fs.field_presence or self.presence,
            fs.enum_type or self.enum_type,
            fs.repeated_field_encoding or self.encoding,
            fs.message_encoding or self.message_encoding,
        )


_DEFAULTS = {
    "proto2": Features(EXPLICIT, CLOSED, EXPANDED, LENGTH_PREFIXED),
    "proto3": Features(IMPLICIT, OPEN, PACKED, LENGTH_PREFIXED),
    "editions": Features(EXPLICIT, OPEN, PACKED, LENGTH_PREFIXED),
}


@dataclass
class Type:
    """A message or enum declared somewhere in the descriptor set."""

    full_name: str  # ".pkg.Outer.Inner"
    file: d.FileDescriptorProto
    syntax: str  # "proto2" | "proto3" | "editions"
    features: Features  # resolved for this declaration
    path: list[int]  # source-info path
    message: d.DescriptorProto | None = None
    enum: d.EnumDescriptorProto | None = None
    parent: Type | None = None  # the message it is declared in
    children: list[Type] = field(default_factory=list)  # declared inside it, in order
    py_name: str = ""  # the Python path the renderer gives it ("Order.Line")
    comments: dict[tuple[int, ...], d.Location] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The declared (unqualified) name: ``Line`` of ``.shop.v1.Order.Line``."""
        return self.full_name.rpartition(".")[2]

    @property
    def outermost(self) -> Type:
        t = self
        while t.parent is not None:
            t = t.parent
        return t

    @property
    def is_map_entry(self) -> bool:
        m = self.message
        return bool(m and m.options and m.options.map_entry)


class Index:
    """Every type of a descriptor set, by full name."""

    def __init__(self, fds: d.FileDescriptorSet) -> None:
        self.types: dict[str, Type] = {}
        self.files = {fd.name: fd for fd in fds.file}
        for fd in fds.file:
            syntax = syntax_of(fd)
            features = _DEFAULTS[syntax]
            if syntax == "editions" and fd.options is not None:
                features = features.merged(fd.options.features)
            comments = {
                tuple(loc.path): loc
                for loc in (fd.source_code_info.location if fd.source_code_info else [])
            }
            prefix = f".{fd.package}" if fd.package else ""
            for i, m in enumerate(fd.message_type):
                self._message(fd, syntax, features, m, prefix, None, [4, i], comments)
            for i, e in enumerate(fd.enum_type):
                self._enum(fd, syntax, features, e, prefix, None, [5, i], comments)

    def _message(
        self,
        fd: d.FileDescriptorProto,
        syntax: str,
        features: Features,
        m: d.DescriptorProto,
        prefix: str,
        parent: Type | None,
        path: list[int],
        comments: dict[tuple[int, ...], d.Location],
    ) -> None:
        if syntax == "editions" and m.options is not None:
            features = features.merged(m.options.features)
        full = f"{prefix}.{m.name or ''}"
        t = Type(full, fd, syntax, features, path, message=m, parent=parent, comments=comments)
        self._add(t)
        for i, e in enumerate(m.enum_type):
            self._enum(fd, syntax, features, e, full, t, [*path, 4, i], comments)
        for i, nested in enumerate(m.nested_type):
            self._message(fd, syntax, features, nested, full, t, [*path, 3, i], comments)

    def _enum(
        self,
        fd: d.FileDescriptorProto,
        syntax: str,
        features: Features,
        e: d.EnumDescriptorProto,
        prefix: str,
        parent: Type | None,
        path: list[int],
        comments: dict[tuple[int, ...], d.Location],
    ) -> None:
        if syntax == "editions" and e.options is not None:
            features = features.merged(e.options.features)
        full = f"{prefix}.{e.name or ''}"
        self._add(Type(full, fd, syntax, features, path, enum=e, parent=parent, comments=comments))

    def _add(self, t: Type) -> None:
        self.types[t.full_name] = t
        if t.parent is not None:
            t.parent.children.append(t)


def syntax_of(fd: d.FileDescriptorProto) -> str:
    if fd.syntax == "editions" or (fd.edition is not None and int(fd.edition) >= 1000):
        return "editions"
    if fd.syntax == "proto3":
        return "proto3"
    if fd.edition is not None and int(fd.edition) in _EDITION_NAMES:
        return _EDITION_NAMES[int(fd.edition)]
    return "proto2"
