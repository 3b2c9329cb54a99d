"""``field()`` and ``member()``: where a class says which tag each attribute takes.

``field()`` is ``dataclasses.field`` with the protobuf options stored in the
field's metadata; ``member()`` carries the same options inside
``Annotated[...]`` for attrs and other annotated classes.
"""

from __future__ import annotations

import dataclasses
from typing import Any

__all__ = ["ProtoMember", "field", "member"]

METADATA_KEY = "protoattr"


@dataclasses.dataclass(frozen=True)
class ProtoMember:
    """The protobuf options of one field, as declared."""

    tag: int | None
    required: bool = False
    packed: bool | None = None
    group: bool = False
    oneof: str | None = None
    name: str | None = None


def member(
    tag: int,
    *,
    required: bool = False,
    packed: bool | None = None,
    group: bool = False,
    oneof: str | None = None,
    name: str | None = None,
) -> ProtoMember:
    """Mark an ``Annotated`` attribute as protobuf field ``tag``.

    >>> from typing import Annotated
    >>> x: Annotated[int, member(1)]
    """
    return ProtoMember(tag, required=required, packed=packed, group=group, oneof=oneof, name=name)


def field(
    tag: int,
    *,
    default: Any = dataclasses.MISSING,
    default_factory: Any = dataclasses.MISSING,
    required: bool = False,
    packed: bool | None = None,
    group: bool = False,
    oneof: str | None = None,
    name: str | None = None,
    **dataclass_field_kwargs: Any,
) -> Any:
    """A ``dataclasses.field`` that is also protobuf field ``tag``.

    ``default``/``default_factory`` and any other keyword go to
    ``dataclasses.field`` unchanged; a scalar equal to its default is not
    written (proto2 ``[default = ...]`` semantics).
    """
    metadata = dict(dataclass_field_kwargs.pop("metadata", None) or {})
    metadata[METADATA_KEY] = member(
        tag, required=required, packed=packed, group=group, oneof=oneof, name=name
    )
    return dataclasses.field(
        default=default,
        default_factory=default_factory,
        metadata=metadata,
        **dataclass_field_kwargs,
    )
