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
import math
from typing import TYPE_CHECKING, Any

from ._contract import Label, ValueType, resolve
from ._runtime import encode_duration, encode_timestamp
from ._types import INT_RANGES, Kind

if TYPE_CHECKING:
    from ._model import TypeModel

__all__ = ["find_problem"]

_FLOAT32_MAX = 3.4028234663852886e38


def find_problem(model: TypeModel, obj: Any) -> str | None:
    """A message naming the first unfit field of ``obj``, or ``None`` if all fit."""
    return _check_message(model, obj, 0)


def _check_message(model: TypeModel, obj: Any, depth: int) -> str | None:
    if depth > model.max_depth:
        return f"{obj.__class__.__qualname__}: nested deeper than max_depth={model.max_depth}"
    info = resolve(obj.__class__, final=True)
    for f in info.fields:
        value = getattr(obj, f.name)
        where = f.where
        if f.label is Label.REPEATED:
            if value is None:
                continue
            for i, item in enumerate(value):
                problem = _check_value(model, f.value, item, f"{where}[{i}]", depth)
                if problem:
                    return problem
        elif f.label is Label.MAP:
            if value is None:
                continue
            assert f.key is not None
            for k, item in value.items():
                problem = _check_value(model, f.key, k, f"{where} key", depth) or _check_value(
                    model, f.value, item, f"{where}[{k!r}]", depth
                )
                if problem:
                    return problem
        elif value is None:
            if f.required:
                return f"{where}: required field is None"
            if f.label is Label.SINGULAR and f.value.kind not in _NULLABLE:
                return f"{where}: None is not a {f.value.describe()} (declare it Optional[...])"
        else:
            problem = _check_value(model, f.value, value, where, depth)
            if problem:
                return problem
    return None


_NULLABLE = frozenset({Kind.MESSAGE, Kind.TIMESTAMP, Kind.DURATION})


def _fits(encode: Any, x: Any, where: str) -> str | None:
    try:
        encode(x)
    except ValueError as exc:
        return f"{where}: {exc}"
    return None


def _check_value(model: TypeModel, vt: ValueType, x: Any, where: str, depth: int) -> str | None:
    kind = vt.kind
    expected = vt.describe()
    if vt.domain is not None:  # Decimal, UUID, date, bytearray, surrogates
        if not isinstance(x, vt.domain):
            return f"{where}: expected {expected}, got {type(x).__name__} {x!r}"
        if vt.encode_with is None or kind is not Kind.MESSAGE:
            return None
    if vt.encode_with is not None and kind is Kind.MESSAGE:  # surrogates, well-known types
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
    if kind is Kind.MESSAGE:
        assert vt.py_type is not None
        if not isinstance(x, vt.py_type):
            return f"{where}: expected {expected}, got {type(x).__name__} {x!r}"
        return _check_message(model, x, depth + 1)
    return None  # pragma: no cover
