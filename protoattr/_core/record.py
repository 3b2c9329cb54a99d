"""The base of the contract layer's value classes (``ValueType``, ``FieldInfo``,
``ContractOptions``, ``ContractInfo``, ``ProtoMember``).

They were dataclasses.  But ``@dataclasses.dataclass`` compiles each method it makes from
source when the class is created (about 21M instructions for these five on Python 3.11),
and ``import dataclasses`` imports ``inspect`` (and with it ``ast``, ``dis``,
``tokenize``): 42M instructions, a third of ``import protoattr``, which a program whose
classes are attrs or pydantic classes never needed, and one whose classes are dataclasses
pays in its own imports.  So each class lists its fields in ``__slots__`` and writes its
own ``__init__`` (the hot path: thousands are built at start-up), and :class:`Record`
gives the rest as a dataclass would: ``==`` over every field between instances of the
same class, ``hash`` of the fields for ``frozen`` classes (others are unhashable), a
``Name(field=value, ...)`` repr, and :meth:`Record.replace` (``dataclasses.replace``).
A frozen class's ``__init__`` sets its fields with ``object.__setattr__``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

__all__ = ["FrozenError", "Record"]


class FrozenError(AttributeError):
    """Assigning to a field of a frozen record (``dataclasses.FrozenInstanceError``'s
    counterpart: an ``AttributeError`` too)."""


class Record:
    """A value class: its fields are its ``__slots__`` (``__weakref__`` aside)."""

    __slots__ = ()
    #: the field names, in declaration order
    _fields: ClassVar[tuple[str, ...]] = ()
    #: every field's value, as a tuple (``operator.attrgetter`` of them: one C call)
    _values: ClassVar[Callable[[Any], tuple[Any, ...]]]

    def __init_subclass__(cls, *, frozen: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = tuple(n for n in cls.__dict__.get("__slots__", ()) if n != "__weakref__")
        cls._fields = fields
        getter = operator.attrgetter(*fields)
        # (a staticmethod: a function, not an attrgetter, would bind to the instance)
        cls._values = staticmethod(getter if len(fields) > 1 else lambda obj: (getter(obj),))
        if frozen:
            cls.__setattr__ = _refuse_assignment  # type: ignore[method-assign,assignment]
            cls.__delattr__ = _refuse_deletion  # type: ignore[method-assign,assignment]
            cls.__hash__ = _hash_fields  # type: ignore[method-assign,assignment]
        else:
            cls.__hash__ = None  # type: ignore[assignment] # mutable: as a dataclass's

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return type(self)._values(self) == type(self)._values(other)
        return NotImplemented

    def __repr__(self) -> str:
        parts = ", ".join(
            f"{name}={value!r}"
            for name, value in zip(self._fields, type(self)._values(self), strict=True)
        )
        return f"{type(self).__qualname__}({parts})"

    def replace(self: _R, **changes: Any) -> _R:
        """A copy with ``changes`` applied (``dataclasses.replace``)."""
        unknown = changes.keys() - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__qualname__} has no field {sorted(unknown)[0]!r}")
        new = object.__new__(type(self))
        for name, value in zip(self._fields, type(self)._values(self), strict=True):
            object.__setattr__(new, name, changes.get(name, value))
        return new


#: (bound after the class: a bound given as the string "Record" is a ForwardRef, whose
#: compile() was the first in the process, the compiler's start-up: 0.8 ms of the import)
_R = TypeVar("_R", bound=Record)


def _refuse_assignment(self: Record, name: str, value: Any) -> None:
    raise FrozenError(f"cannot assign to field {name!r} of a frozen {type(self).__qualname__}")


def _refuse_deletion(self: Record, name: str) -> None:
    raise FrozenError(f"cannot delete field {name!r} of a frozen {type(self).__qualname__}")


def _hash_fields(self: Record) -> int:
    return hash(type(self)._values(self))
