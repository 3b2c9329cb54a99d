"""timeit-style timing: auto-ranged loops, ``perf_counter_ns``, gc off while timing.

As :mod:`timeit` does, the loop count is grown (1, 2, 5, 10, 20, 50, …) until one
loop takes at least ``min_time`` seconds; then the loop is repeated ``repeat``
times and the fastest is kept (the least disturbed by the rest of the machine).
The garbage collector is disabled during each loop, as ``timeit`` does, and
collected before it.
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Callable
from time import perf_counter_ns
from typing import Any

__all__ = ["time_call", "time_roundtrip"]


def _loop(fn: Callable[[Any], Any], arg: Any, number: int) -> int:
    it = itertools.repeat(None, number)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = perf_counter_ns()
        for _ in it:
            fn(arg)
        t1 = perf_counter_ns()
    finally:
        if enabled:
            gc.enable()
    return t1 - t0


def _loop_roundtrip(
    enc: Callable[[Any], bytes], dec: Callable[[bytes], Any], obj: Any, number: int
) -> int:
    it = itertools.repeat(None, number)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = perf_counter_ns()
        for _ in it:
            dec(enc(obj))
        t1 = perf_counter_ns()
    finally:
        if enabled:
            gc.enable()
    return t1 - t0


def _autorange(loop: Callable[[int], int], min_time_ns: int) -> int:
    number = 1
    while True:
        for k in (1, 2, 5):
            n = number * k
            if loop(n) >= min_time_ns:
                return n
        number *= 10


def _best(loop: Callable[[int], int], min_time: float, repeat: int) -> float:
    number = _autorange(loop, int(min_time * 1e9))
    return min(loop(number) for _ in range(repeat)) / number


def time_call(fn: Callable[[Any], Any], arg: Any, *, min_time: float, repeat: int) -> float:
    """Nanoseconds per ``fn(arg)`` call: the best of ``repeat`` auto-ranged loops."""
    return _best(lambda n: _loop(fn, arg, n), min_time, repeat)


def time_roundtrip(
    enc: Callable[[Any], bytes],
    dec: Callable[[bytes], Any],
    obj: Any,
    *,
    min_time: float,
    repeat: int,
) -> float:
    """Nanoseconds per ``dec(enc(obj))``: the best of ``repeat`` auto-ranged loops."""
    return _best(lambda n: _loop_roundtrip(enc, dec, obj, n), min_time, repeat)
