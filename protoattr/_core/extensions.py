"""Extensions as declarations: what one is, the checks made when it is declared, and the
registry of them by extendee and number and by full name.

An extension is a field declared outside its message (proto2's ``extend Options {
int32 priority = 100; }``).  Its value travels like any other field, so it is
described here the way a field is: by a *holder*, a hidden one-field contract
(attribute ``value``, tag = the extension's number) that the codecs read and write.
Decoding the extendee keeps the extension's bytes with its unknown fields; reading
the extension decodes the holder from those bytes, writing it encodes the holder.
So every kind a field may have works for extensions, on both backends, and an
extendee's own codec is the one it always was.

The handle users hold (:class:`protoattr._model.extensions.Extension`) sits one layer
up, on the codec model; this module keeps the registry the features (JSON, text
format, schema export) look extensions up in.
"""

from __future__ import annotations

import dataclasses
import threading
import typing
import weakref
from typing import Any, Optional, Protocol

from . import names as _names
from .contract import (
    FieldInfo,
    Label,
    check_default_fits,
    declared_options,
    in_extension_range,
    is_contract,
    proto_contract,
    resolve,
)
from .errors import ContractError
from .fields import field
from .wire import MAX_FIELD_NUMBER

__all__ = ["Declared", "ExtensionInfo", "by_name", "declare", "of", "register"]


@dataclasses.dataclass(frozen=True, eq=False)
class ExtensionInfo:
    """One declared extension: which message it extends, at which number, under which
    full name, and the holder contract its value is read and written through."""

    extendee: type
    number: int
    full_name: str
    holder: type
    repeated: bool
    #: what ``get`` returns for an absent singular extension (``None`` unless declared)
    default: Any
    #: where it was declared (``module``), so that a re-run declaration replaces itself
    declared_in: str

    @property
    def field(self) -> FieldInfo:
        """The value's field (label, type, packing, group), as the holder declares it."""
        return resolve(self.holder, final=True).fields[0]

    @property
    def name(self) -> str:
        """The last part of the full name (the field's name in an ``extend`` block)."""
        return self.full_name.rpartition(".")[2]

    @property
    def package(self) -> str:
        """The full name without its last part (``""`` without a package)."""
        return self.full_name.rpartition(".")[0]


class Declared(Protocol):
    """What the registry keeps: a handle with its :class:`ExtensionInfo`."""

    @property
    def info(self) -> ExtensionInfo: ...


def declare(
    extendee: type,
    number: int,
    value_type: Any,
    *,
    name: str,
    default: Any = None,
    packed: bool | None = None,
    group: bool = False,
    declared_in: str = "",
) -> ExtensionInfo:
    """Check a declaration and build its holder (not registered yet: see :func:`register`).

    ``packed=None`` is proto2's rule for extensions: repeated scalars are not packed.
    """
    if not is_contract(extendee):
        raise ContractError(
            f"extension {name!r}: the extendee {extendee!r} is not a contract "
            "(decorate it with @proto_contract)"
        )
    where = f"{extendee.__qualname__}.[{name}]"
    if not isinstance(name, str) or not _names.is_dotted_name(name):
        raise ContractError(f"{where}: the name must be a dotted full name like 'shop.v1.priority'")
    options = declared_options(extendee)
    if not options.preserve_unknown:
        raise ContractError(
            f"{where}: {extendee.__qualname__} has preserve_unknown=False, and extensions "
            "live with the unknown fields: it cannot be extended"
        )
    if not (isinstance(number, int) and not isinstance(number, bool)):
        raise ContractError(f"{where}: the number must be an int field number, not {number!r}")
    if not 1 <= number <= MAX_FIELD_NUMBER:
        raise ContractError(f"{where}: number {number} is outside 1..{MAX_FIELD_NUMBER}")
    if not options.extensions:
        raise ContractError(
            f"{where}: {extendee.__qualname__} declares no extension ranges: give it "
            "@proto_contract(extensions=[(first, last)])"
        )
    if not in_extension_range(number, options):
        ranges = ", ".join(f"{lo} to {hi}" for lo, hi in options.extensions)
        raise ContractError(
            f"{where}: number {number} is not in the extension ranges of "
            f"{extendee.__qualname__} ({ranges})"
        )
    holder = _holder(where, number, value_type, packed, group)
    repeated = _is_repeated(value_type)
    if repeated and default is not None:
        raise ContractError(f"{where}: a repeated extension has no default (it reads as [])")
    info = ExtensionInfo(extendee, number, name, holder, repeated, default, declared_in)
    if default is not None:
        check = info.field.replace(default=default, owner=extendee.__qualname__)
        check.name = f"[{name}]"
        check_default_fits(check, default)
    return info


def _is_repeated(value_type: Any) -> bool:
    bare = value_type
    while typing.get_origin(bare) is typing.Annotated:
        bare = bare.__origin__
    return typing.get_origin(bare) in (list, tuple) or bare in (list, tuple)


def holder_qualname(where: str, number: int) -> str:
    """The holder's ``__qualname__`` (an identifier path: codecs are named after it).
    Errors that name its ``value`` are rewritten to name the extension instead."""
    return f"{where.partition('.[')[0].replace('.', '_')}_extension_{number}"


def _holder(where: str, number: int, value_type: Any, packed: bool | None, group: bool) -> type:
    """The one-field contract an extension's value travels in (see the module docstring)."""
    bare = value_type
    while typing.get_origin(bare) is typing.Annotated:
        bare = bare.__origin__
    if typing.get_origin(bare) in (dict, typing.get_origin(typing.Mapping)) or bare is dict:
        raise ContractError(f"{where}: an extension cannot be a map")
    if _is_repeated(value_type):
        spec = field(number, default_factory=list, packed=bool(packed), group=group)
        annotation = value_type
    else:
        spec = field(number, default=None, packed=packed, group=group)
        annotation = Optional[value_type]  # noqa: UP045 (value_type is a run-time object)
    made = dataclasses.make_dataclass("value_holder", [("value", annotation, spec)])
    made.__module__ = __name__
    made.__qualname__ = holder_qualname(where, number)
    try:
        held: type = proto_contract(preserve_unknown=False, name=made.__qualname__)(made)
    except ContractError as exc:
        raise ContractError(str(exc).replace(f"{made.__qualname__}.value", where)) from None
    if resolve(held).fields[0].label is Label.MAP:  # pragma: no cover - refused above
        raise ContractError(f"{where}: an extension cannot be a map")
    return held


# -- the registry ----------------------------------------------------------------

_LOCK = threading.Lock()
#: full name -> the handle declared under it.  Weakly, like the classes in the name
#: registry: a handle is kept by whoever declared it (a module global), and one that
#: nobody holds any more leaves with its declaration.
_BY_NAME: weakref.WeakValueDictionary[str, Declared] = weakref.WeakValueDictionary()
#: extendee -> number -> handle
_BY_EXTENDEE: weakref.WeakKeyDictionary[type, weakref.WeakValueDictionary[int, Declared]] = (
    weakref.WeakKeyDictionary()
)


def register(handle: Declared) -> None:
    """Record a declared extension; a second one under its full name or at its number
    of the same extendee is a :class:`ContractError` (a re-run declaration replaces
    itself)."""
    info = handle.info
    where = f"{info.extendee.__qualname__}.[{info.full_name}]"
    with _LOCK:
        other = _BY_NAME.get(info.full_name)
        if other is not None and not _same(other.info, info):
            raise ContractError(
                f"{where}: the full name {info.full_name!r} is already taken by the "
                f"extension of {other.info.extendee.__qualname__} at number {other.info.number}"
            )
        numbers = _BY_EXTENDEE.get(info.extendee)
        if numbers is None:
            numbers = _BY_EXTENDEE[info.extendee] = weakref.WeakValueDictionary()
        taken = numbers.get(info.number)
        if taken is not None and taken.info.full_name != info.full_name:
            raise ContractError(
                f"{where}: number {info.number} of {info.extendee.__qualname__} is already "
                f"taken by extension {taken.info.full_name!r}"
            )
        if other is not None:  # the same declaration again: it replaces the old one
            old = _BY_EXTENDEE.get(other.info.extendee)
            if old is not None and old.get(other.info.number) is other:
                del old[other.info.number]
        _BY_NAME[info.full_name] = handle
        numbers[info.number] = handle
        _ORDER.pop(info.extendee, None)
        if other is not None:
            _ORDER.pop(other.info.extendee, None)


def _same(a: ExtensionInfo, b: ExtensionInfo) -> bool:
    """Two declarations of one extension (a reloaded module, a re-run function)."""
    return (
        a.declared_in == b.declared_in
        and a.number == b.number
        and a.extendee.__module__ == b.extendee.__module__
        and a.extendee.__qualname__ == b.extendee.__qualname__
    )


def by_name(full_name: str) -> Declared | None:
    """The extension declared under ``full_name`` (``None`` when there is none)."""
    return _BY_NAME.get(full_name)


def of(extendee: type) -> list[Declared]:
    """The extensions of ``extendee``, in number order."""
    numbers = _BY_EXTENDEE.get(extendee)
    if not numbers:
        return []
    with _LOCK:
        found = [numbers.get(n) for n in _ordered(extendee, numbers)[0]]
    return [h for h in found if h is not None]


def numbers_of(extendee: type) -> frozenset[int]:
    """The numbers declared as extensions of ``extendee`` (cached: ``set`` asks each time)."""
    found = _ORDER.get(extendee)
    if found is not None:
        return found[1]
    numbers = _BY_EXTENDEE.get(extendee)
    if not numbers:
        return frozenset()
    with _LOCK:
        return _ordered(extendee, numbers)[1]


#: extendee -> its extension numbers, in order and as a set; rebuilt when one is declared
_ORDER: weakref.WeakKeyDictionary[type, tuple[tuple[int, ...], frozenset[int]]] = (
    weakref.WeakKeyDictionary()
)


def _ordered(
    extendee: type, numbers: weakref.WeakValueDictionary[int, Declared]
) -> tuple[tuple[int, ...], frozenset[int]]:
    found = _ORDER.get(extendee)
    if found is None:
        ordered = tuple(sorted(numbers.keys()))
        found = _ORDER[extendee] = (ordered, frozenset(ordered))
    return found
