"""``gen``: ``extend`` blocks as ``pa.extension(...)`` declarations.

Every extension a requested file declares (at file level or inside a message) becomes
a module-level handle after the classes, named after the field::

    priority = pa.extension(Options, 100, pa.int32, name="shop.v1.priority")

Its extendee and value type are generated like any other type the file uses, and the
extendee's ``extensions N to M;`` ranges are its ``@proto_contract(extensions=[...])``.
A file with custom options (extensions of descriptor.proto's ``*Options``) also gets
descriptor.proto's messages, from ``FileDescriptorSet`` down: decode protoc's
descriptors with those, and the handles read the options (``unit.get(field.options)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import descriptor as d
from .gen_descriptors import DELIMITED, GenError, Type
from .gen_text import safe_name, str_literal

if TYPE_CHECKING:
    from .gen_render import Writer

__all__ = ["Declared", "declared", "ranges_option", "render"]

_MAX = (1 << 29) - 1
_DESCRIPTOR = "google/protobuf/descriptor.proto"


@dataclass
class Declared:
    """One ``extend`` field: where it is declared (its scope's full name, no dot)."""

    scope: str
    file: d.FileDescriptorProto
    field: d.FieldDescriptorProto
    scope_type: Type | None  # the message it is declared in (None: file level)
    #: it extends descriptor.proto's types (a custom option) from a file that imports it
    custom_option: bool = False

    @property
    def full_name(self) -> str:
        return f"{self.scope}.{self.field.name}" if self.scope else str(self.field.name)


def declared(writer: Writer) -> list[Declared]:
    """The extensions the requested files declare, in declaration order."""
    found: list[Declared] = []
    for name in writer.targets:
        fd = writer.index.files[name]
        found += [Declared(fd.package or "", fd, f, None) for f in fd.extension]
        for t in writer.index.types.values():
            if t.file is fd and t.message is not None:
                scope = t.full_name.lstrip(".")
                found += [Declared(scope, fd, f, t) for f in t.message.extension]
    for ext in found:
        extendee = writer.index.types.get(ext.field.extendee or "")
        ext.custom_option = (
            extendee is not None
            and extendee.file.name == _DESCRIPTOR
            and _DESCRIPTOR not in writer.targets
        )
    return found


def types_used(writer: Writer, exts: list[Declared]) -> list[Type]:
    """The extendees and value types of ``exts`` (and, for custom options, the
    descriptor messages that hold options)."""
    found: list[Type] = []
    for ext in exts:
        if ext.custom_option:
            found.append(writer.index.types[".google.protobuf.FileDescriptorSet"])
        extendee = writer.index.types.get(ext.field.extendee or "")
        if extendee is None or extendee.message is None:
            raise GenError(f"extension {ext.full_name}: {ext.field.extendee} is not a message")
        found.append(extendee)
        ref = writer._ref_type(ext.field)
        if ref is not None:
            found.append(ref)
    return found


def ranges_option(m: d.DescriptorProto) -> str:
    """``[(100, 199)]`` for a message's ``extensions 100 to 199;`` (``""`` without)."""
    pairs = [f"({r.start or 0}, {min((r.end or 1) - 1, _MAX)})" for r in m.extension_range]
    return f"[{', '.join(pairs)}]" if pairs else ""


def render(writer: Writer, exts: list[Declared]) -> str:
    """The module-level ``pa.extension`` declarations of ``exts``."""
    lines: list[str] = []
    taken = {t.py_name for t in writer.chosen.values()}
    for ext in exts:
        f = ext.field
        extendee = writer.index.types[f.extendee or ""]
        options = extendee.message.options if extendee.message is not None else None
        if options is not None and options.message_set_wire_format:
            lines.append(
                f"# {ext.full_name}: an extension of a MessageSet ({extendee.py_name}), whose "
                "wire format protoattr does not write: not declared"
            )
            continue
        value = writer._value_type(f)
        repeated = f.label == d.FieldLabel.LABEL_REPEATED
        # with --out-dir, an extendee of another file is imported from its module
        target = (
            extendee.py_name if extendee.full_name in writer.chosen else writer._py_ref(extendee)
        )
        args = [target, str(f.number or 0), f"list[{value}]" if repeated else value]
        args.append(f"name={str_literal(ext.full_name)}")
        syntax_of: Any = ext.scope_type or _FileScope(ext.file)
        features = syntax_of.features
        if syntax_of.syntax == "editions" and f.options is not None:
            features = features.merged(f.options.features)
        if repeated:
            if f.type in _PACKABLE and writer._packed(syntax_of, f, features):
                args.append("packed=True")
        else:
            ref = writer.index.types.get(f.type_name) if f.type_name else None
            default = writer._default(f, ref)
            if default is not None:
                args.append(f"default={default}")
        delimited = f.type == d.FieldType.TYPE_MESSAGE and features.message_encoding == DELIMITED
        if f.type == d.FieldType.TYPE_GROUP or (syntax_of.syntax == "editions" and delimited):
            args.append("group=True")
        name = safe_name(f.name or f"extension_{f.number}", taken, builtin=True)
        taken.add(name)
        writer.uses.add("pa")
        call = f"{name} = pa.extension({', '.join(args)})"
        if len(call) > 88:
            call = f"{name} = pa.extension(\n" + "".join(f"    {a},\n" for a in args) + ")"
        lines.append(call)
    return "\n".join(lines)


_PACKABLE = {
    t for t in d.FieldType if t not in (d.FieldType.TYPE_STRING, d.FieldType.TYPE_BYTES,
                                        d.FieldType.TYPE_MESSAGE, d.FieldType.TYPE_GROUP)
}  # fmt: skip


class _FileScope:
    """A file-level ``extend`` block's syntax and features (what ``Writer._packed`` reads)."""

    def __init__(self, fd: d.FileDescriptorProto) -> None:
        from .gen_descriptors import _DEFAULTS, syntax_of

        self.syntax = syntax_of(fd)
        features = _DEFAULTS[self.syntax]
        if self.syntax == "editions" and fd.options is not None:
            features = features.merged(fd.options.features)
        self.features = features
