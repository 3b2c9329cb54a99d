"""Extension handles: ``pa.extension(Options, 100, pa.int32, name="shop.v1.priority")``.

A handle reads and writes one extension of a message.  The value lives with the
message's unknown fields (where decoding left its bytes, see
:mod:`protoattr._core.extensions`): ``get`` decodes the extension's holder contract
from them, ``set`` encodes it and puts its bytes back.  So decoding and encoding an
extendee never look at extensions (byte-exact round trips, no cost on the hot path),
and reading one costs one decode of the holder, in C on the native backend.

Where ``set`` puts the bytes is where upb writes them: the message's extensions
(the numbers declared for its class) first, each where it first appeared, a new one
after them, and the other unknown fields last; so a message whose extensions were
set in the same order as on a upb message serializes to the same bytes.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from .._core import extensions as _ext
from .._core import registry
from .._core.contract import is_contract
from .._core.errors import ContractError, DecodeError, EncodeError
from .._core.wire import read_tag
from .._python.runtime import can_store_unknown, get_unknown, set_unknown, skip_field, unknown_key

if TYPE_CHECKING:
    from .codecs import CodecModel

__all__ = ["Extension", "extension"]

M = TypeVar("M")
T = TypeVar("T")


class Extension(Generic[M, T]):
    """A typed handle on one extension of contract ``M`` with values of type ``T``.

    ``get`` returns ``None`` (or the declared ``default``) when the extension is
    absent, ``[]`` for a repeated one; ``set(msg, None)`` is ``clear(msg)``.
    The value is written on the next serialize of ``msg``.  A message value is
    decoded afresh by each ``get``: change it, then ``set`` it back.
    """

    __slots__ = ("__weakref__", "info")

    def __init__(self, info: _ext.ExtensionInfo) -> None:
        self.info = info

    @property
    def full_name(self) -> str:
        return self.info.full_name

    @property
    def number(self) -> int:
        return self.info.number

    @property
    def extendee(self) -> type:
        return self.info.extendee

    @property
    def repeated(self) -> bool:
        return self.info.repeated

    def __repr__(self) -> str:
        return f"<Extension [{self.full_name}] of {self.extendee.__qualname__} at {self.number}>"

    # -- reading ------------------------------------------------------------------

    def get(self, msg: M, /) -> T | None:
        """The extension's value in ``msg`` (``None``/the default when absent, ``[]``
        when a repeated extension has no element)."""
        value = self.read(msg, _default_model())
        if value is None and not self.info.repeated:
            return self.info.default  # type: ignore[no-any-return]
        return value  # type: ignore[no-any-return]

    def has(self, msg: M, /) -> bool:
        """Whether ``msg`` holds the extension (a repeated one: at least one element)."""
        value = self.read(msg, _default_model())
        return bool(value) if self.info.repeated else value is not None

    def read(self, msg: Any, model: CodecModel) -> Any:
        """The held value decoded in ``model`` (``None`` or ``[]`` when absent)."""
        self._check(msg)
        blob = get_unknown(msg, self._key(model))
        if not blob:
            return [] if self.info.repeated else None
        try:
            return model.deserialize(self.info.holder, blob).value
        except DecodeError as exc:
            raise DecodeError(f"{self._where}: {exc}") from None

    # -- writing ------------------------------------------------------------------

    def set(self, msg: M, value: T | None, /) -> None:
        """Give ``msg`` the extension's ``value`` (``None``, or ``[]`` for a repeated
        one, removes it)."""
        self.write(msg, self.encode(value, _default_model()), _default_model())

    def clear(self, msg: M, /) -> None:
        """Remove the extension from ``msg``."""
        self.write(msg, b"", _default_model())

    def encode(self, value: Any, model: CodecModel) -> bytes:
        """The extension's field as upb writes it (``b""`` for ``None`` or ``[]``)."""
        if value is None:
            return b""
        try:
            return model.serialize(self.info.holder(value))
        except EncodeError as exc:
            value_path = f"{self.info.holder.__qualname__}.value"
            raise EncodeError(str(exc).replace(value_path, self._where)) from None
        except (TypeError, ValueError) as exc:  # a validating or converting holder
            raise EncodeError(f"{self._where}: {exc}") from None

    def write(self, msg: Any, data: bytes, model: CodecModel) -> None:
        """Put the extension's encoded field ``data`` among ``msg``'s unknown fields,
        where upb keeps it (replacing what was there)."""
        self._check(msg)
        key = self._key(model)
        blob = get_unknown(msg, key) or b""
        numbers = _ext.numbers_of(self.info.extendee) | {self.info.number}
        set_unknown(msg, key, _rewrite(blob, self.info.number, data, numbers))

    # -- helpers ------------------------------------------------------------------

    @property
    def _where(self) -> str:
        return f"{self.info.extendee.__qualname__}.[{self.info.full_name}]"

    def _check(self, msg: Any) -> None:
        if not isinstance(msg, self.info.extendee):
            raise TypeError(
                f"[{self.info.full_name}] extends {self.info.extendee.__qualname__}, "
                f"not {type(msg).__qualname__}"
            )

    def _key(self, model: CodecModel) -> str:
        extendee = self.info.extendee
        return unknown_key(extendee, model._chain(extendee)[-1])


def present(obj: Any, extendee: type, model: CodecModel) -> list[Extension[Any, Any]]:
    """The declared extensions of ``extendee`` whose numbers occur in ``obj``'s unknown
    fields, in number order (one scan of them, however many extensions are declared)."""
    declared = _ext.of(extendee)
    if not declared:
        return []
    blob = get_unknown(obj, unknown_key(extendee, model._chain(extendee)[-1]))
    if not blob:
        return []
    numbers = {n for n, _ in fields_of(blob)}
    return [h for h in declared if h.info.number in numbers]  # type: ignore[misc]


def _default_model() -> CodecModel:
    model: CodecModel = registry.default()
    return model


def fields_of(blob: bytes) -> list[tuple[int, bytes]]:
    """``(number, whole field bytes)`` of each field in ``blob``, in order (``blob`` is
    unknown-field bytes a decoder kept or :func:`_rewrite` wrote: well formed)."""
    out = []
    pos, end = 0, len(blob)
    while pos < end:
        start = pos
        tag, pos = read_tag(blob, pos)
        pos = skip_field(blob, pos, end, tag, 0, sys.getrecursionlimit())
        out.append((tag >> 3, blob[start:pos]))
    return out


def _rewrite(blob: bytes, number: int, data: bytes, extensions: frozenset[int]) -> bytes:
    """``blob`` with field ``number`` replaced by ``data``, laid out as upb writes a
    message's extensions and unknown fields: the extensions first, each at its first
    appearance (``number`` where it was, or after the others when it is new), then
    everything else in arrival order."""
    found: dict[int, list[bytes]] = {}
    rest: list[bytes] = []
    for n, chunk in fields_of(blob):
        if n in extensions:
            found.setdefault(n, []).append(chunk)
        else:
            rest.append(chunk)
    found[number] = [data]
    return b"".join(b"".join(chunks) for chunks in found.values()) + b"".join(rest)


@overload
def extension(
    extendee: type[M],
    number: int,
    value_type: type[T],
    /,
    *,
    name: str,
    default: T | None = None,
    packed: bool | None = None,
    group: bool = False,
) -> Extension[M, T]: ...
@overload
def extension(
    extendee: type[M],
    number: int,
    value_type: Any,
    /,
    *,
    name: str,
    default: Any = None,
    packed: bool | None = None,
    group: bool = False,
) -> Extension[M, Any]: ...
def extension(
    extendee: type[M],
    number: int,
    value_type: Any,
    /,
    *,
    name: str,
    default: Any = None,
    packed: bool | None = None,
    group: bool = False,
) -> Extension[M, Any]:
    """Declare field ``number`` of contract ``extendee``, declared here and not in it
    (proto2's ``extend``): ``pa.extension(Options, 100, pa.int32, name="shop.v1.priority")``.

    ``value_type`` is any field type (``list[T]`` for a repeated extension); ``name``
    is the full name JSON (``"[shop.v1.priority]"``), text format and schemas use.
    ``default`` is what ``get`` returns when the extension is absent.  Repeated scalars
    are not packed unless ``packed=True`` (proto2's rule); ``group=True`` makes a
    message-typed extension a group.  ``extendee`` must declare the number in its
    ``@proto_contract(extensions=[...])`` ranges and keep unknown fields.
    """
    module = sys._getframe(1).f_globals.get("__name__", "")
    if is_contract(extendee) and not can_store_unknown(extendee):
        raise ContractError(
            f"{extendee.__qualname__}.[{name}]: {extendee.__qualname__} is slotted without "
            "__weakref__, so it keeps no unknown fields and cannot carry extensions "
            "(see docs/unknown-fields.md)"
        )
    info = _ext.declare(
        extendee, number, value_type, name=name, default=default, packed=packed, group=group,
        declared_in=str(module),
    )  # fmt: skip
    handle: Extension[M, Any] = Extension(info)
    _ext.register(handle)
    return handle
