"""``field()`` and ``member()``: where a class says which tag each attribute takes.

``field()`` is ``dataclasses.field`` with the protobuf options stored in the
field's metadata; ``member()`` carries the same options inside
``Annotated[...]`` for attrs and other annotated classes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeAlias, TypeVar

from .record import Record

__all__ = ["IGNORE", "Ignored", "ProtoMember", "field", "member"]

METADATA_KEY = "protoattr"


class _Unset:
    """``field()``'s "no default given" (``dataclasses.MISSING``, which would mean
    importing dataclasses to name it; passing MISSING itself still means no default)."""

    def __repr__(self) -> str:
        return "MISSING"


_UNSET: Any = _Unset()


class _Ignore:
    """``Annotated`` metadata: the attribute is not part of the contract, on purpose."""

    def __repr__(self) -> str:
        return "protoattr.IGNORE"


IGNORE = _Ignore()
_T = TypeVar("_T")
#: ``x: pa.Ignored[T] = default``: an attribute the contract leaves out on purpose (protobuf-net's
#: ``[ProtoIgnore]``); any other attribute without a tag is a ``ContractError``
Ignored: TypeAlias = Annotated[_T, IGNORE]


class ProtoMember(Record, frozen=True):
    """The protobuf options of one field, as declared."""

    __slots__ = (  # noqa: RUF023 (the fields' order: positional arguments, repr)
        "tag",
        "required",
        "packed",
        "group",
        "oneof",
        "name",
        # the proto2/editions ``[default = d]``: what an absent field means on the wire
        "wire_default",
    )
    tag: int | None
    required: bool
    packed: bool | None
    group: bool
    oneof: str | None
    name: str | None
    wire_default: Any

    def __init__(
        self,
        tag: int | None,
        required: bool = False,
        packed: bool | None = None,
        group: bool = False,
        oneof: str | None = None,
        name: str | None = None,
        wire_default: Any = None,
    ) -> None:
        _set = object.__setattr__
        _set(self, "tag", tag)
        _set(self, "required", required)
        _set(self, "packed", packed)
        _set(self, "group", group)
        _set(self, "oneof", oneof)
        _set(self, "name", name)
        _set(self, "wire_default", wire_default)


#: the ProtoMember of a plain ``field(tag)``/``member(tag)`` (no other option), by tag: it is
#: frozen, so one serves every field of that number; building a frozen dataclass is most of
#: what a field() costs (2190 of them: 3.5 ms of the start-up benchmark's declarations)
_PLAIN: dict[int, ProtoMember] = {}
_PLAIN_TAGS = 4096  # the tags kept (a class rarely uses more)


def _plain(tag: int) -> ProtoMember:
    mem = _PLAIN.get(tag)
    if mem is None:
        mem = ProtoMember(tag)
        if len(_PLAIN) < _PLAIN_TAGS:
            _PLAIN[tag] = mem
    return mem


def member(
    tag: int,
    *,
    required: bool = False,
    packed: bool | None = None,
    group: bool = False,
    oneof: str | None = None,
    name: str | None = None,
    wire_default: Any = None,
) -> ProtoMember:
    """Mark an ``Annotated`` attribute as protobuf field ``tag``.

    ``wire_default`` as for :func:`field`.

    >>> from typing import Annotated
    >>> x: Annotated[int, member(1)]
    """
    if (
        type(tag) is int
        and required is False
        and packed is None
        and group is False
        and oneof is None
        and name is None
        and wire_default is None
    ):
        return _plain(tag)
    return ProtoMember(
        tag,
        required=required,
        packed=packed,
        group=group,
        oneof=oneof,
        name=name,
        wire_default=wire_default,
    )


def field(
    tag: int,
    *,
    default: Any = _UNSET,
    default_factory: Any = _UNSET,
    required: bool = False,
    packed: bool | None = None,
    group: bool = False,
    oneof: str | None = None,
    name: str | None = None,
    wire_default: Any = None,
    **dataclass_field_kwargs: Any,
) -> Any:
    """A ``dataclasses.field`` that is also protobuf field ``tag``.

    ``default``/``default_factory`` and any other keyword go to
    ``dataclasses.field`` unchanged.  They are *Python* defaults, local to
    this program: on the wire a scalar is written unless it is its type's
    zero, and an absent one reads as that zero (proto3), as every peer
    without this class's source reads it.  ``wire_default=d`` declares the
    schema's ``[default = d]`` instead: on ``Optional[T]`` (explicit presence)
    ``None`` is absent, which peers read as ``d``, and ``d`` itself is written
    when set; on a plain ``T`` a value equal to ``d`` is not written and an
    absent field reads as ``d`` (proto2 without presence).
    """
    make = _DATACLASS_FIELD or _dataclass_field()
    if (
        not dataclass_field_kwargs
        and type(tag) is int
        and required is False
        and packed is None
        and group is False
        and oneof is None
        and name is None
        and wire_default is None
    ):  # field(tag) with a default or none (most): one shared metadata dict per tag.  The
        # test is member()'s for a plain member, written out rather than asked of member()
        # (calling it first costs 0.2 us a field(), a third of the call)
        shared = _PLAIN_METADATA.get(tag) or _plain_metadata(tag)
        if default_factory is _UNSET:
            if default is _UNSET:
                return make(metadata=shared)
            return make(default=default, metadata=shared)
        if default is _UNSET:
            return make(default_factory=default_factory, metadata=shared)
    metadata = dict(dataclass_field_kwargs.pop("metadata", None) or {})
    metadata[METADATA_KEY] = member(
        tag,
        required=required,
        packed=packed,
        group=group,
        oneof=oneof,
        name=name,
        wire_default=wire_default,
    )
    if default is not _UNSET:
        dataclass_field_kwargs["default"] = default
    if default_factory is not _UNSET:
        dataclass_field_kwargs["default_factory"] = default_factory
    return make(metadata=metadata, **dataclass_field_kwargs)


#: the metadata of a plain ``field(tag)``, by tag: ``{METADATA_KEY: member(tag)}``, shared by
#: every such field of that number (a Field's metadata is a read-only view of it, and
#: protoattr never changes it); kept for as many tags as :data:`_PLAIN` keeps members
_PLAIN_METADATA: dict[int, dict[str, ProtoMember]] = {}


def _plain_metadata(tag: int) -> dict[str, ProtoMember]:
    metadata = {METADATA_KEY: _plain(tag)}
    if len(_PLAIN_METADATA) < _PLAIN_TAGS:
        _PLAIN_METADATA[tag] = metadata
    return metadata


#: ``dataclasses.field``, once :func:`field` is first called (``import protoattr`` does not
#: import dataclasses: see :mod:`protoattr._core.record`; a class using field() is a
#: dataclass, so its module has imported it already)
_DATACLASS_FIELD: Callable[..., Any] | None = None


def _dataclass_field() -> Callable[..., Any]:
    global _DATACLASS_FIELD
    import dataclasses

    _DATACLASS_FIELD = dataclasses.field
    return _DATACLASS_FIELD
