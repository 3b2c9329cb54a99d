"""Extensions in exported schemas: ``extensions 100 to 199;`` and ``extend`` blocks.

An exported contract's ``extensions=`` ranges are declared in its message (proto2
and editions: proto3 messages cannot have them), and the extensions declared for
the exported messages (``pa.extension``) whose package is the file's are written as
``extend Extendee { ... }`` blocks after the messages, and as the file's
``extension`` fields in descriptor sets.  An extension's field is written as a field
of its type would be (the holder's field, under the extension's name), so groups,
packing and defaults follow the syntax's rules.  Extensions under another package
belong to that package's file (``schema_files``) and are not written here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._core import extensions as _ext
from .._core import names as _names
from .._core.contract import FieldInfo
from .._core.errors import ContractError
from .._core.types import Kind
from .._core.wire import MAX_FIELD_NUMBER

if TYPE_CHECKING:
    from .proto import _Exporter, _Message

__all__ = ["declared", "discover", "extend_blocks", "range_lines"]


def _of(exporter: _Exporter) -> list[_ext.ExtensionInfo]:
    """The extensions of the exporter's messages, extendee by extendee, by number."""
    return [h.info for cls in exporter.messages for h in _ext.of(cls)]


def discover(exporter: _Exporter) -> None:
    """Reach what the extensions of the exporter's messages use: their enums, and their
    message types (a proto2 group's body is declared in its ``extend`` block, not as a
    message of its own)."""
    more: list[type] = []
    groups: list[type] = []
    for info in _of(exporter):
        if info.package != (_names.package_of_class(info.extendee) or ""):
            continue  # declared under another package: not written with its extendee
        f = info.field
        vt = f.value
        if vt.kind is Kind.ENUM and vt.py_type is not None and vt.py_type not in exporter.enums:
            exporter.enums[vt.py_type] = None
            exporter._name(vt.py_type.__name__, vt.py_type, "enum")
            if vt.closed:
                exporter.closed.add(vt.py_type)
        elif vt.kind is Kind.MESSAGE and vt.py_type is not None:
            root = exporter._root(vt.py_type)
            if root not in exporter.messages:
                more.append(root)
                if f.group and exporter.syntax == "proto2":
                    groups.append(root)
    if more:
        exporter.discover(more)
        for cls in groups:  # reached only as a group: not a message of the file
            exporter.messages[cls].as_message = False


def declared(exporter: _Exporter) -> list[tuple[_ext.ExtensionInfo, FieldInfo]]:
    """The extensions the file being written declares, each with its field as written."""
    found = []
    for info in _of(exporter):
        if info.package != (exporter.package or ""):
            continue
        if not exporter.messages[info.extendee].as_message or not exporter._here(info.extendee):
            continue
        f = info.field.replace(
            name=f"[{info.full_name}]", proto_name=info.name,
            owner=info.extendee.__qualname__,
        )  # fmt: skip
        found.append((info, f))
    return found


def range_lines(exporter: _Exporter, message: _Message, pad: str) -> list[str]:
    """``extensions 100 to 199;`` of a message (a ContractError in proto3)."""
    ranges = message.info.options.extensions
    if not ranges:
        return []
    if exporter.syntax == "proto3":
        raise ContractError(
            f"{message.cls.__qualname__}: proto3 messages cannot declare extension ranges: "
            "export with syntax='proto2' or 'editions'"
        )
    parts = [
        str(lo) if lo == hi else f"{lo} to {'max' if hi >= MAX_FIELD_NUMBER else hi}"
        for lo, hi in ranges
    ]
    return [f"{pad}extensions {', '.join(parts)};"]


def extend_blocks(exporter: _Exporter) -> list[str]:
    """The ``extend`` blocks of the file being written (with a blank line after each)."""
    by_extendee: dict[type, list[FieldInfo]] = {}
    for info, f in declared(exporter):
        by_extendee.setdefault(info.extendee, []).append(f)
    lines: list[str] = []
    for extendee, fields in by_extendee.items():
        ref = exporter._declared_ref(extendee, exporter.model.info(extendee).name, frozenset())
        lines.append(f"extend {ref} {{")
        for f in fields:
            lines += exporter._field(f, 1, frozenset(), frozenset())
        lines += ["}", ""]
    return lines


def descriptor_ranges(message: Any) -> list[Any]:
    """A message's ``extension_range`` entries (``end`` exclusive)."""
    from . import descriptor as d

    return [
        d.ExtensionRange(start=lo, end=min(hi, MAX_FIELD_NUMBER) + 1)
        for lo, hi in message.info.options.extensions
    ]


def descriptor_fields(builder: Any, out: Any) -> None:
    """The file's extension fields, into ``out`` (a ``FileDescriptorProto``); the
    group bodies of group extensions go to its top-level messages."""
    from . import descriptor as d

    x = builder.x
    scope = builder.package or ""
    for info, f in declared(x):
        holder = d.DescriptorProto()
        field = builder._field(f, scope, holder)
        field.extendee = builder._ref_message(info.extendee)
        if not scope and field.type_name and field.type_name.startswith(".."):
            field.type_name = field.type_name[1:]  # a group declared without a package
        out.message_type += holder.nested_type
        out.extension.append(field)
