"""Types that travel as another protobuf kind, and user-supplied surrogates.

``Decimal`` and ``UUID`` follow protobuf-net's compatibility level 300
(an invariant string; a UUID may ask for 16 bytes instead), ``date`` is
protobuf-net's ``DateOnly`` day number (an int32 counting days since
0001-01-01), ``bytearray`` is bytes.  :func:`add_surrogate` lets a class
protoattr cannot annotate (a third-party ``Money``, ``ipaddress.IPv4Address``)
travel as a contract the user writes.

Converters that read from the wire raise :class:`ConversionError`; the codec
boundary turns it into a :class:`DecodeError` with the byte offset.
"""

from __future__ import annotations

import _thread  # threading.Lock, without importing threading
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any

# datetime, uuid (which imports platform) and decimal are imported when a value of theirs
# is converted, not by ``import protoattr``: a program with a date, a UUID or a Decimal
# to convert has imported them already.
if TYPE_CHECKING:
    import datetime
    import decimal
    import uuid

from .errors import ContractError

__all__ = ["ConversionError", "Format", "UUIDBytes", "add_surrogate", "surrogate_for"]


class ConversionError(ValueError):
    """A wire value that does not convert to its field's Python type."""


class Format(Enum):
    """Alternative wire forms, given as ``Annotated`` metadata."""

    BYTES = "bytes"  # UUID as its 16 bytes (RFC 4122 order), not as a string


if TYPE_CHECKING:
    #: ``Annotated[uuid.UUID, Format.BYTES]``: a UUID as 16 bytes instead of a string.
    UUIDBytes = Annotated[uuid.UUID, Format.BYTES]


def __getattr__(name: str) -> Any:
    """``UUIDBytes``, made on first use (it needs the ``uuid`` module)."""
    if name == "UUIDBytes":
        import uuid

        value = Annotated[uuid.UUID, Format.BYTES]
        globals()["UUIDBytes"] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def decimal_to_str(value: decimal.Decimal) -> str:
    import decimal

    if not isinstance(value, decimal.Decimal):
        raise TypeError(f"expected Decimal, got {type(value).__name__}")
    return str(value)


def str_to_decimal(text: str) -> decimal.Decimal:
    import decimal

    try:
        return decimal.Decimal(text)
    except decimal.InvalidOperation:
        raise ConversionError(f"{text[:40]!r} is not a decimal number") from None


def uuid_to_str(value: uuid.UUID) -> str:
    import uuid

    if not isinstance(value, uuid.UUID):
        raise TypeError(f"expected UUID, got {type(value).__name__}")
    return str(value)


def str_to_uuid(text: str) -> uuid.UUID:
    import uuid

    try:
        return uuid.UUID(text)
    except ValueError:
        raise ConversionError(f"{text[:40]!r} is not a UUID") from None


def uuid_to_bytes(value: uuid.UUID) -> bytes:
    return value.bytes


def bytes_to_uuid(data: bytes) -> uuid.UUID:
    import uuid

    if len(data) != 16:
        raise ConversionError(f"a UUID needs 16 bytes, got {len(data)}")
    return uuid.UUID(bytes=data)


#: the day numbers of 0001-01-01 and 9999-12-31 (``date.max.toordinal()``)
_ORDINAL_MIN, _ORDINAL_MAX = 1, 3_652_059


def date_to_days(value: datetime.date) -> int:
    import datetime

    if isinstance(value, datetime.datetime):
        raise TypeError("expected date, got datetime")
    return value.toordinal() - 1


def days_to_date(days: int) -> datetime.date:
    import datetime

    if not _ORDINAL_MIN <= days + 1 <= _ORDINAL_MAX:
        raise ConversionError(f"day number {days} is outside 0001-01-01..9999-12-31")
    return datetime.date.fromordinal(days + 1)


# -- surrogates -------------------------------------------------------------------


class Surrogate:
    """How a foreign type travels: as ``contract``, through the two functions.

    A plain class, not a dataclass: it is only built by :func:`add_surrogate`, and making
    a frozen dataclass is about a millisecond of ``import protoattr``.
    """

    __slots__ = ("contract", "foreign", "from_surrogate", "to_surrogate")

    def __init__(
        self,
        foreign: type,
        contract: type,
        to_surrogate: Callable[[Any], Any],
        from_surrogate: Callable[[Any], Any],
    ) -> None:
        self.foreign = foreign
        self.contract = contract
        self.to_surrogate = to_surrogate
        self.from_surrogate = from_surrogate

    def __repr__(self) -> str:
        return (
            f"Surrogate(foreign={self.foreign!r}, contract={self.contract!r}, "
            f"to_surrogate={self.to_surrogate!r}, from_surrogate={self.from_surrogate!r})"
        )


_SURROGATES: dict[type, Surrogate] = {}
_LOCK = _thread.allocate_lock()


def add_surrogate(
    foreign: type,
    contract: type,
    to_surrogate: Callable[[Any], Any],
    from_surrogate: Callable[[Any], Any],
) -> None:
    """Let ``foreign`` values travel as instances of the contract class ``contract``.

    Surrogates, like contracts, are process-wide: register them before
    declaring contracts whose fields use ``foreign``.
    """
    from .contract import is_contract

    if not isinstance(foreign, type):
        raise ContractError(f"add_surrogate: {foreign!r} is not a class")
    if not is_contract(contract):
        raise ContractError(
            f"add_surrogate: {getattr(contract, '__qualname__', contract)!r} is not a contract"
        )
    with _LOCK:
        existing = _SURROGATES.get(foreign)
        if existing is not None and existing.contract is not contract:
            raise ContractError(
                f"add_surrogate: {foreign.__qualname__} already travels as "
                f"{existing.contract.__qualname__}"
            )
        _SURROGATES[foreign] = Surrogate(foreign, contract, to_surrogate, from_surrogate)


def surrogate_for(cls: Any) -> Surrogate | None:
    return _SURROGATES.get(cls) if isinstance(cls, type) else None
