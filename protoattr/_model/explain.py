"""Explain an encoding failure: which field holds which unfit value.

The generated encoders check only what they must on the fast path (integer
ranges); anything else (a ``str`` where ``bytes`` belong, ``None`` in a
non-Optional scalar) surfaces as a low-level exception.  When that happens the
model calls :func:`find_problem`, which walks the object slowly and names the
first field whose value does not fit.
"""

from __future__ import annotations

import datetime
import enum
import importlib
import math
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .._core import bcl as _bcl
from .._core.contract import Label, ValueType
from .._core.types import INT_RANGES, Kind
from .._python.runtime import encode_duration, encode_timestamp

if TYPE_CHECKING:
    from .codecs import CodecModel

__all__ = ["find_problem"]

_FLOAT32_MAX = 3.4028234663852886e38


def find_problem(model: CodecModel, obj: Any) -> str | None:
    """A message naming the first unfit field of ``obj``, or ``None`` if all fit."""
    try:
        return _check_message(model, obj, 0, set())
    except RecursionError:
        return (
            f"{obj.__class__.__qualname__}: nested too deeply to encode "
            f"(Python's recursion limit is {sys.getrecursionlimit()})"
        )


def check_item(model: CodecModel, vt: ValueType, item: Any, where: str) -> str | None:
    """A message naming what is wrong with ``item``, one value of type ``vt``, or ``None``."""
    try:
        return _check_value(model, vt, item, where, 0, set())
    except RecursionError:
        return f"{where}: nested too deeply to encode"


def _check_message(
    model: CodecModel, obj: Any, depth: int, path: set[int], prefix: str | None = None
) -> str | None:
    """``prefix`` is the path to ``obj`` from the root (``Outer.items[2]``), ``None`` at
    the root: fields are named ``Outer.items[2].n``, as JSON errors are."""
    if depth > model.max_depth:
        return f"{obj.__class__.__qualname__}: nested deeper than max_depth={model.max_depth}"
    info = model.info(obj.__class__)
    path.add(id(obj))
    for f in info.fields:
        value = getattr(obj, f.name)
        where = f.where if prefix is None else f"{prefix}.{f.name}"
        if f.label is Label.REPEATED:
            if value is None:
                return f"{where}: None is not a list (use an empty one)"
            if isinstance(value, _NOT_LISTS) or not isinstance(value, Iterable):
                return f"{where}: expected a list, got {type(value).__name__} {_short(value)}"
            for i, item in enumerate(value):
                problem = _check_value(model, f.value, item, f"{where}[{i}]", depth, path)
                if problem:
                    return problem
        elif f.label is Label.MAP:
            if value is None:
                return f"{where}: None is not a dict (use an empty one)"
            if not isinstance(value, Mapping):
                return f"{where}: expected a dict, got {type(value).__name__} {_short(value)}"
            assert f.key is not None
            for k, item in value.items():
                problem = _check_value(
                    model, f.key, k, f"{where} key", depth, path
                ) or _check_value(model, f.value, item, f"{where}[{k!r}]", depth, path)
                if problem:
                    return problem
        elif value is None:
            if f.required:
                return f"{where}: required field is None"
            if f.label is Label.SINGULAR and (
                f.value.kind not in _NULLABLE or f.default is not None
            ):
                return f"{where}: None is not a {f.value.describe()} (declare it Optional[...])"
        else:
            problem = _check_value(model, f.value, value, where, depth, path)
            if problem:
                return problem
    path.discard(id(obj))
    return None


def _short(x: Any) -> str:
    """``repr(x)``, shortened when long (an int of 400 digits)."""
    text = repr(x)
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"


_NULLABLE = frozenset({Kind.MESSAGE, Kind.TIMESTAMP, Kind.DURATION, Kind.BCL_DATETIME})
#: the bcl.proto kinds: the Python type each holds and its encoder (which says what fails)
_BCL: dict[Kind, tuple[str, Any]] = {
    Kind.BCL_DATETIME: ("datetime.datetime", _bcl.encode_datetime),
    Kind.BCL_TIMESPAN: ("datetime.timedelta", _bcl.encode_timespan),
    Kind.BCL_DECIMAL: ("decimal.Decimal", _bcl.encode_decimal),  # imported when used
    Kind.BCL_GUID: ("uuid.UUID", _bcl.encode_guid),
}
_NOT_LISTS = (str, bytes, bytearray, memoryview, Mapping)


def _fits(encode: Any, x: Any, where: str) -> str | None:
    try:
        encode(x)
    except ValueError as exc:
        return f"{where}: {exc}"
    return None


def _check_value(
    model: CodecModel, vt: ValueType, x: Any, where: str, depth: int, path: set[int]
) -> str | None:
    kind = vt.kind
    expected = vt.describe()
    if vt.domain is not None:  # Decimal, UUID, date, bytearray, surrogates
        if not isinstance(x, vt.domain) or (
            vt.domain is datetime.date and isinstance(x, datetime.datetime)
        ):
            return f"{where}: expected {expected}, got {type(x).__name__} {x!r}"
        if vt.encode_with is None:
            return None
        try:
            x = vt.encode_with(x)
        except (ValueError, TypeError, ArithmeticError) as exc:
            return f"{where}: {x!r} cannot be encoded as {expected} ({exc})"
        if kind is not Kind.MESSAGE:
            return None
    if vt.domain is None and vt.encode_with is not None and kind is Kind.MESSAGE:  # wrappers
        try:
            x = vt.encode_with(x)
        except (TypeError, ValueError, OverflowError) as exc:
            return f"{where}: {exc}"
    if kind is Kind.ENUM:
        assert vt.py_type is not None
        if isinstance(x, vt.py_type):
            return None
        if isinstance(x, enum.Enum) or not isinstance(x, int):
            return f"{where}: expected {expected}, got {type(x).__name__} {x!r}"
        members: Any = vt.py_type
        if vt.closed and x not in {m.value for m in members}:
            return f"{where}: {x!r} is not a member of the closed enum {expected}"
        kind = Kind.INT32
    if kind in INT_RANGES:
        if not isinstance(x, int):
            return f"{where}: expected {expected}, got {type(x).__name__} {x!r}"
        lo, hi = INT_RANGES[kind]
        if not lo <= x <= hi:
            return f"{where}: {x!r} does not fit {kind.value}"
        return None
    if kind is Kind.BOOL:
        if x is True or x is False or (type(x) is int and x in (0, 1)):
            return None
        return f"{where}: expected bool, got {type(x).__name__} {x!r}"
    if kind in (Kind.FLOAT, Kind.DOUBLE):
        if not isinstance(x, (int, float)) or isinstance(x, bool):
            return f"{where}: expected {expected}, got {type(x).__name__} {x!r}"
        try:
            x = float(x)
        except OverflowError:
            width = "float (32-bit)" if kind is Kind.FLOAT else "double"
            return f"{where}: {_short(x)} does not fit {width}"
        if kind is Kind.FLOAT and math.isfinite(x) and abs(x) > _FLOAT32_MAX:
            return f"{where}: {x!r} does not fit float (32-bit)"
        return None
    if kind is Kind.STRING:
        if not isinstance(x, str):
            return f"{where}: expected str, got {type(x).__name__} {x!r}"
        try:
            x.encode()
        except UnicodeEncodeError as exc:
            return f"{where}: string is not valid UTF-8 ({exc.reason})"
        return None
    if kind is Kind.BYTES:
        if not isinstance(x, (bytes, bytearray, memoryview)):
            return f"{where}: expected bytes, got {type(x).__name__} {x!r}"
        return None
    if kind is Kind.TIMESTAMP:
        if not isinstance(x, datetime.datetime):
            return f"{where}: expected datetime, got {type(x).__name__} {x!r}"
        return _fits(encode_timestamp, x, where)
    if kind is Kind.DURATION:
        if not isinstance(x, datetime.timedelta):
            return f"{where}: expected timedelta, got {type(x).__name__} {x!r}"
        return _fits(encode_duration, x, where)
    if kind in _BCL:
        where_type, encode = _BCL[kind]
        module, name = where_type.split(".")
        held: type = getattr(importlib.import_module(module), name)
        if not isinstance(x, held):
            return f"{where}: expected {held.__name__}, got {type(x).__name__} {x!r}"
        return _fits(encode, x, where)
    if kind is Kind.MESSAGE:
        assert vt.py_type is not None
        if not isinstance(x, vt.py_type):
            return f"{where}: expected {expected}, got {type(x).__name__} {x!r}"
        if id(x) in path:
            return f"cycle at {where}: the object refers back to an enclosing {expected}"
        return _check_message(model, x, depth + 1, path, where)
    return None  # pragma: no cover
