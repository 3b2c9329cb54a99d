"""Declarations and first uses racing in threads.

Declaring a subtype changes its hierarchy's codecs in every model; generating
a codec reads that hierarchy.  Both happen under one lock, so a thread never
sees half a hierarchy, and declaring never trips over a model being created.
Each test loops for a bounded time (well under five seconds) with the
interpreter switching threads as often as it can.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

import protoattr as pa
from protoattr import field, proto_contract

SECONDS = 1.5


@pytest.fixture(autouse=True)
def _switch_often() -> Iterator[None]:
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def race(*workers: Callable[[], None]) -> list[BaseException]:
    """Run each worker in a loop in its own thread for ``SECONDS``; return what they raised."""
    errors: list[BaseException] = []
    stop = time.monotonic() + SECONDS

    def loop(work: Callable[[], None]) -> None:
        try:
            while time.monotonic() < stop and not errors:
                work()
        except BaseException as exc:  # the test reports it
            errors.append(exc)

    threads = [threading.Thread(target=loop, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


@proto_contract
@dataclass
class Vehicle:
    wheels: pa.int32 = field(1, default=0)


@proto_contract
@dataclass
class Plane:
    wings: pa.int32 = field(1, default=0)


def declare_late(base: type, tag: int) -> Callable[[], None]:
    """A worker that declares (again) a subtype ``Late`` of ``base`` at ``tag``."""

    def work() -> None:
        @proto_contract(subtype_tag=tag)
        @dataclass
        class Late(base):  # type: ignore[valid-type, misc]
            extra: str = field(1, default="")

    return work


def test_declaring_a_subtype_while_models_are_created() -> None:
    models: list[pa.TypeModel] = []

    def create() -> None:
        models.append(pa.TypeModel())
        if len(models) > 2000:
            del models[:1000]

    errors = race(declare_late(Plane, 7), create)
    assert errors == []


def test_declaring_a_subtype_while_its_hierarchy_is_compiled() -> None:
    model = pa.TypeModel()
    model.add(Vehicle)

    def use() -> None:
        assert model.serialize(Vehicle(wheels=3)) == b"\x08\x03"
        assert model.deserialize(Vehicle, b"\x08\x03") == Vehicle(wheels=3)

    errors = race(declare_late(Vehicle, 9), use, use)
    assert errors == []
